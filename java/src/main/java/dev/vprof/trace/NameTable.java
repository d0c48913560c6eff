package dev.vprof.trace;

/**
 * One String per distinct event name, found from the parser's own characters: a real trace
 * repeats a few hundred names (some several KB long) across millions of events, and making a new
 * String of each, then hashing it for the STRING ids, was the reader's largest avoidable cost.
 * Bounded: past {@link #MAX_CHARS} characters of distinct names it stops remembering and answers
 * fresh Strings, so a hostile trace cannot grow the heap through it (the STRING ids have their own
 * bound, in {@link TraceFileReader}).
 */
final class NameTable {
    static final long MAX_CHARS = 64L << 20;
    private final long maxChars;
    /** A table of at most {@link #MAX_CHARS} characters. */
    NameTable() {
        this(MAX_CHARS);
    }

    /** A table that remembers at most {@code maxChars} characters. */
    NameTable(long maxChars) {
        this.maxChars = maxChars;
    }

    private String[] slots = new String[1 << 10];
    private int[] hashes = new int[1 << 10];
    /** An int kept with each name (a STRING id), 0 until set. */
    private int[] ids = new int[1 << 10];
    /** The slot of the name the last {@link #of} found or stored; -1 when it was not stored. */
    private int last = -1;
    private int size;
    private long chars;

    /** The String of {@code buf[off, off + len)}, the same instance each time the same text comes. */
    String of(char[] buf, int off, int len) {
        int h = 1;
        for (int i = off, end = off + len; i < end; i++) {
            h = 31 * h + buf[i];
        }
        int mask = slots.length - 1;
        int i = mix(h) & mask;
        for (String s; (s = slots[i]) != null; i = (i + 1) & mask) {
            if (hashes[i] == h && same(s, buf, off, len)) {
                last = i;
                return s;
            }
        }
        String s = new String(buf, off, len);
        if (chars + len > maxChars) {
            last = -1;
            return s;
        }
        chars += len;
        slots[i] = s;
        hashes[i] = h;
        ids[i] = 0;
        last = i;
        if (++size * 2 > slots.length) {
            grow();
        }
        return s;
    }

    /** The int kept with the name the last {@link #of} returned (0: none, or the name is not remembered). */
    int lastId() {
        return last < 0 ? 0 : ids[last];
    }

    /** Keeps {@code id} with the name the last {@link #of} returned, when it is remembered. */
    void lastId(int id) {
        if (last >= 0) {
            ids[last] = id;
        }
    }

    private static boolean same(String s, char[] buf, int off, int len) {
        if (s.length() != len) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if (s.charAt(k) != buf[off + k]) {
                return false;
            }
        }
        return true;
    }

    private void grow() {
        String[] old = slots;
        int[] oldHashes = hashes;
        int[] oldIds = ids;
        slots = new String[old.length * 2];
        hashes = new int[old.length * 2];
        ids = new int[old.length * 2];
        last = -1;
        int mask = slots.length - 1;
        for (int k = 0; k < old.length; k++) {
            if (old[k] != null) {
                int i = mix(oldHashes[k]) & mask;
                while (slots[i] != null) {
                    i = (i + 1) & mask;
                }
                slots[i] = old[k];
                hashes[i] = oldHashes[k];
                ids[i] = oldIds[k];
            }
        }
    }

    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    int size() {
        return size;
    }
}
