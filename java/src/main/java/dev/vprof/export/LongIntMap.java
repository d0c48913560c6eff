package dev.vprof.export;

import java.util.Arrays;

/** Open-addressing map from {@code long} keys to positive {@code int} values; 0 means absent. */
final class LongIntMap {
    private long[] keys = new long[64];
    private int[] values = new int[64];
    private int size;

    int get(long key) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            int v = values[i];
            if (v == 0 || keys[i] == key) {
                return v;
            }
        }
    }

    void put(long key, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("values must be positive");
        }
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (values[i] != 0 && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (values[i] == 0) {
            size++;
        }
        keys[i] = key;
        values[i] = value;
    }

    void clear() {
        Arrays.fill(values, 0);
        size = 0;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldValues.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != 0) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
