package dev.vprof.capture;

import java.util.Arrays;

/**
 * An open-addressing int-to-object map for interned ids: memory follows the number of
 * live entries, not the largest id, so a hostile id cannot make it allocate much.
 * No removal: ids are only added or replaced.
 */
final class IntMap<V> {
    private int[] keys = new int[16];
    private Object[] values = new Object[16];
    private int size;

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    V get(int key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (true) {
            Object v = values[i];
            if (v == null) {
                return null;
            }
            if (keys[i] == key) {
                return (V) v;
            }
            i = (i + 1) & mask;
        }
    }

    /** Puts {@code value} (not null); returns the value it replaced, or null. */
    @SuppressWarnings("unchecked")
    V put(int key, V value) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (values[i] != null) {
            if (keys[i] == key) {
                V old = (V) values[i];
                values[i] = value;
                return old;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
        return null;
    }

    private void grow() {
        int[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new Object[oldValues.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                @SuppressWarnings("unchecked")
                V v = (V) oldValues[i];
                put(oldKeys[i], v);
            }
        }
    }

    void clear() {
        Arrays.fill(values, null);
        size = 0;
    }

    private static int mix(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
