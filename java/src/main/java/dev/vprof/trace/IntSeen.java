package dev.vprof.trace;

import java.util.Arrays;

/**
 * A set of ints, open addressing, that stops growing at {@link #MAX_ENTRIES} (then
 * {@link #add} answers false for everything and {@link #full} says so): enough to find the
 * duplicated correlation ids of a real trace without the heap growing with a hostile one.
 */
final class IntSeen {
    static final int MAX_ENTRIES = 1 << 21;
    private int[] slots = new int[1 << 10];
    private boolean hasZero;
    private int size;
    private boolean full;

    /** Adds {@code v}; true when it was there already. */
    boolean add(int v) {
        if (v == 0) {
            boolean had = hasZero;
            hasZero = true;
            return had;
        }
        if (full) {
            return false;
        }
        int mask = slots.length - 1;
        int i = mix(v) & mask;
        while (slots[i] != 0) {
            if (slots[i] == v) {
                return true;
            }
            i = (i + 1) & mask;
        }
        slots[i] = v;
        if (++size * 2 > slots.length) {
            if (slots.length * 2 > 2 * MAX_ENTRIES) {
                full = true;
                return false;
            }
            grow();
        }
        return false;
    }

    boolean full() {
        return full;
    }

    private void grow() {
        int[] old = slots;
        slots = new int[old.length * 2];
        int mask = slots.length - 1;
        for (int v : old) {
            if (v != 0) {
                int i = mix(v) & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = v;
            }
        }
        Arrays.fill(old, 0);
    }

    private static int mix(int v) {
        int h = v * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
