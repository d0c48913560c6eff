package dev.vprof.export.sqlite;

/**
 * SQLite's variable-length integer (sqlite.org/fileformat2.html, "Varint"): 7 bits a byte, most
 * significant first, the high bit set on every byte but the last; a ninth byte, when needed, holds
 * 8 bits.
 */
final class Varint {
    private Varint() {}

    /** Bytes {@code v} takes. */
    static int size(long v) {
        if ((v & ~0x7fL) == 0) {
            return 1;
        }
        if ((v & 0xff00_0000_0000_0000L) != 0) {
            return 9;
        }
        int n = 1;
        while ((v >>>= 7) != 0) {
            n++;
        }
        return n;
    }

    /** Writes {@code v} at {@code at}; returns the offset after it. */
    static int put(byte[] b, int at, long v) {
        if ((v & ~0x7fL) == 0) {
            b[at] = (byte) v;
            return at + 1;
        }
        if ((v & 0xff00_0000_0000_0000L) != 0) {
            b[at + 8] = (byte) v;
            v >>>= 8;
            for (int i = 7; i >= 0; i--) {
                b[at + i] = (byte) ((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            return at + 9;
        }
        int n = size(v);
        for (int i = n - 1; i >= 0; i--) {
            b[at + i] = (byte) ((v & 0x7f) | (i == n - 1 ? 0 : 0x80));
            v >>>= 7;
        }
        return at + n;
    }

    /** Reads the varint at {@code at} (for tests and checks): {value, bytes}. */
    static long[] get(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            int x = b[at + i] & 0xff;
            v = (v << 7) | (x & 0x7f);
            if ((x & 0x80) == 0) {
                return new long[] {v, i + 1};
            }
        }
        return new long[] {(v << 8) | (b[at + 8] & 0xff), 9};
    }
}
