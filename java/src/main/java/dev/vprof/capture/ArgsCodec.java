package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The bytes of an ARGS record (vprof_ring.h): one JSON value in a compact form. A tag byte, then
 * for an integer its zigzag varint, for another number its length (varint) and ASCII text, for a
 * string its length and UTF-8, for an array its values and an END tag, for an object pairs of a
 * key (the varint id of a STRING record of the process) and a value, and an END tag. Keys are
 * interned because they repeat on every event ({@code "External id"}, {@code "blocks per SM"}), and
 * so may a string value be (a tag and the varint id of its STRING): a CPU op's
 * {@code "Trace name": "PyTorch Profiler"} or {@code "Input type": ["float", ""]} repeat too.
 *
 * <p>Decoding trusts nothing: every length is checked against the bytes, nesting is bounded, a
 * number's text must be a JSON number and a key must name a STRING; anything else is a
 * {@link Malformed} and the record is skipped.
 */
public final class ArgsCodec {
    private ArgsCodec() {}

    static final int END = 0;
    static final int NULL = 1;
    static final int FALSE = 2;
    static final int TRUE = 3;
    static final int INT = 4;
    static final int NUMBER = 5;
    static final int STRING = 6;
    static final int ARRAY = 7;
    static final int OBJECT = 8;
    /** A string kept in a STRING record of the process, by its id: values that repeat on every event. */
    static final int STRING_REF = 9;
    /** Arrays and objects nested deeper than this are not kept (Kineto's go two levels deep). */
    public static final int MAX_DEPTH = 32;
    /** The most bytes one value may take: VPROF_ARGS_MAX. */
    public static final int MAX_BYTES = (int) VprofRing.ARGS_MAX;

    /** Bytes that are not a value of this encoding. */
    public static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String what) {
            super(what, null, false, false);
        }
    }

    /**
     * One value being encoded, into a buffer reused from event to event. Writing past
     * {@link #MAX_BYTES} sets {@link #overflowed()} and writes nothing more.
     */
    public static final class Encoder {
        private byte[] buf = new byte[512];
        private int len;
        private boolean overflowed;
        private int depth;

        public void reset() {
            len = 0;
            depth = 0;
            overflowed = false;
        }

        public int length() {
            return len;
        }

        /** The buffer (valid up to {@link #length()}) until the next write. */
        public byte[] buffer() {
            return buf;
        }

        public boolean overflowed() {
            return overflowed;
        }

        /** Nesting of the arrays and objects open now. */
        public int depth() {
            return depth;
        }

        /** Takes back everything written after {@code length} (a field that could not be kept whole). */
        public void truncate(int length, int depthThen) {
            len = Math.min(len, length);
            depth = depthThen;
            overflowed = false;
        }

        private boolean room(int n) {
            if (overflowed) {
                return false;
            }
            if (len + n > MAX_BYTES) {
                overflowed = true;
                return false;
            }
            if (len + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.min(MAX_BYTES, Math.max(len + n, buf.length * 2)));
            }
            return true;
        }

        private void tag(int t) {
            if (room(1)) {
                buf[len++] = (byte) t;
            }
        }

        private void varint(long v) {
            if ((v & ~0x7FL) == 0 && len < buf.length && !overflowed && len < MAX_BYTES) {
                buf[len++] = (byte) v; // most varints here are one byte: key ids, lengths, small counts
                return;
            }
            if (!room(10)) {
                return;
            }
            while ((v & ~0x7FL) != 0) {
                buf[len++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[len++] = (byte) v;
        }

        /** Bytes of this encoding as they are (whole values, or key/value pairs of an object being written). */
        public void append(byte[] b, int off, int n) {
            if (room(n)) {
                System.arraycopy(b, off, buf, len, n);
                len += n;
            }
        }

        public void beginObject() {
            tag(OBJECT);
            depth++;
        }

        public void beginArray() {
            tag(ARRAY);
            depth++;
        }

        /** Ends the innermost array or object. */
        public void end() {
            tag(END);
            depth--;
        }

        /** An object's key: the id of a STRING record (not 0). */
        public void key(int stringId) {
            varint(Integer.toUnsignedLong(stringId));
        }

        public void nullValue() {
            tag(NULL);
        }

        public void bool(boolean b) {
            tag(b ? TRUE : FALSE);
        }

        public void integer(long v) {
            tag(INT);
            varint((v << 1) ^ (v >> 63));
        }

        /** A number as its JSON text ({@code c[off, off+n)}), for one that is not a 64-bit integer. */
        public void number(char[] c, int off, int n) {
            tag(NUMBER);
            varint(n);
            if (room(n)) {
                for (int i = 0; i < n; i++) {
                    buf[len++] = (byte) c[off + i];
                }
            }
        }

        public void number(String text) {
            number(text.toCharArray(), 0, text.length());
        }

        /** A string from UTF-16 chars {@code c[off, off+n)}, as UTF-8 (an unpaired surrogate becomes '?'). */
        public void string(char[] c, int off, int n) {
            tag(STRING);
            if (n < 128 && ascii(c, off, n)) {
                varint(n);
                if (room(n)) {
                    for (int i = 0; i < n; i++) {
                        buf[len++] = (byte) c[off + i];
                    }
                }
                return;
            }
            int bytes = 0;
            for (int i = 0; i < n; i++) {
                char ch = c[off + i];
                bytes += ch < 0x80 ? 1 : ch < 0x800 ? 2 : Character.isSurrogate(ch) ? 2 : 3;
            }
            varint(bytes);
            if (!room(bytes)) {
                return;
            }
            int at = len;
            for (int i = 0; i < n; i++) {
                char ch = c[off + i];
                if (ch < 0x80) {
                    buf[len++] = (byte) ch;
                } else if (ch < 0x800) {
                    buf[len++] = (byte) (0xC0 | ch >> 6);
                    buf[len++] = (byte) (0x80 | (ch & 0x3F));
                } else if (Character.isHighSurrogate(ch) && i + 1 < n && Character.isLowSurrogate(c[off + i + 1])) {
                    int cp = Character.toCodePoint(ch, c[off + ++i]);
                    buf[len++] = (byte) (0xF0 | cp >> 18);
                    buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    buf[len++] = (byte) (0x80 | (cp & 0x3F));
                } else if (Character.isSurrogate(ch)) {
                    buf[len++] = '?';
                    buf[len++] = '?'; // keeps the count above: an unpaired surrogate took two
                } else {
                    buf[len++] = (byte) (0xE0 | ch >> 12);
                    buf[len++] = (byte) (0x80 | ((ch >> 6) & 0x3F));
                    buf[len++] = (byte) (0x80 | (ch & 0x3F));
                }
            }
            if (len - at != bytes) { // a pair counted as 2 + 2 took 4: the count above holds
                throw new IllegalStateException("UTF-8 length " + (len - at) + " != " + bytes);
            }
        }

        private static boolean ascii(char[] c, int off, int n) {
            for (int i = 0; i < n; i++) {
                if (c[off + i] >= 0x80) {
                    return false;
                }
            }
            return true;
        }

        public void string(String s) {
            string(s.toCharArray(), 0, s.length());
        }

        /** A string value by the id of its STRING record (not 0). */
        public void stringRef(int stringId) {
            tag(STRING_REF);
            varint(Integer.toUnsignedLong(stringId));
        }
    }

    // ---- decoding ----

    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    /** Reads one value from {@code seg[at, end)}. */
    private static final class Reader {
        final MemorySegment seg;
        long at;
        final long end;
        final IntFunction<String> keys;

        Reader(MemorySegment seg, long at, long end, IntFunction<String> keys) {
            this.seg = seg;
            this.at = at;
            this.end = end;
            this.keys = keys;
        }

        int u8() throws Malformed {
            if (at >= end) {
                throw new Malformed("ends inside a value");
            }
            return Byte.toUnsignedInt(seg.get(BYTE, at++));
        }

        long varint() throws Malformed {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = u8();
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new Malformed("a varint longer than 10 bytes");
        }

        byte[] bytes() throws Malformed {
            long n = varint();
            if (n < 0 || n > end - at) {
                throw new Malformed("a length of " + n + " past the end");
            }
            byte[] b = new byte[(int) n];
            MemorySegment.copy(seg, BYTE, at, b, 0, b.length);
            at += n;
            return b;
        }

        /** A key, or a STRING_REF's value: the STRING its varint id names. */
        String key() throws Malformed {
            long id = varint();
            String k = id <= 0 || id > Integer.MAX_VALUE ? null : keys.apply((int) id);
            if (k == null) {
                throw new Malformed("a string id naming no string (" + id + ")");
            }
            return k;
        }

        Object value(int depth) throws Malformed {
            int tag = u8();
            return switch (tag) {
                case NULL -> null;
                case FALSE -> false;
                case TRUE -> true;
                case INT -> {
                    long z = varint();
                    yield (z >>> 1) ^ -(z & 1);
                }
                case NUMBER -> {
                    String text = new String(bytes(), StandardCharsets.US_ASCII);
                    if (!isJsonNumber(text)) {
                        throw new Malformed("a number that is not one: " + text);
                    }
                    yield new EventArgs.Number(text);
                }
                case STRING -> new String(bytes(), StandardCharsets.UTF_8);
                case STRING_REF -> key();
                case ARRAY -> {
                    check(depth);
                    List<Object> list = new ArrayList<>();
                    while (peek() != END) {
                        list.add(value(depth + 1));
                    }
                    at++;
                    yield Collections.unmodifiableList(list);
                }
                case OBJECT -> object(depth);
                default -> throw new Malformed("an unknown tag " + tag);
            };
        }

        Map<String, Object> object(int depth) throws Malformed {
            check(depth);
            Map<String, Object> map = new LinkedHashMap<>();
            while (peek() != END) {
                String k = key();
                map.put(k, value(depth + 1));
            }
            at++;
            return Collections.unmodifiableMap(map);
        }

        int peek() throws Malformed {
            if (at >= end) {
                throw new Malformed("ends inside an array or object");
            }
            return Byte.toUnsignedInt(seg.get(BYTE, at));
        }

        void check(int depth) throws Malformed {
            if (depth >= MAX_DEPTH) {
                throw new Malformed("nested deeper than " + MAX_DEPTH);
            }
        }

        /** Skips one value, allocating nothing. */
        void skip(int depth) throws Malformed {
            int tag = u8();
            switch (tag) {
                case NULL, FALSE, TRUE -> { }
                case INT, STRING_REF -> varint();
                case NUMBER, STRING -> {
                    long n = varint();
                    if (n < 0 || n > end - at) {
                        throw new Malformed("a length of " + n + " past the end");
                    }
                    at += n;
                }
                case ARRAY -> {
                    check(depth);
                    while (peek() != END) {
                        skip(depth + 1);
                    }
                    at++;
                }
                case OBJECT -> {
                    check(depth);
                    while (peek() != END) {
                        varint();
                        skip(depth + 1);
                    }
                    at++;
                }
                default -> throw new Malformed("an unknown tag " + tag);
            }
        }
    }

    /**
     * The object encoded in {@code seg[offset, offset+length)}, its keys named by {@code keys}
     * (STRING id to text; null for an id it does not hold). The bytes must be exactly one object.
     */
    public static Map<String, Object> decodeObject(MemorySegment seg, long offset, long length, IntFunction<String> keys)
            throws Malformed {
        Reader r = new Reader(seg, offset, offset + length, keys);
        if (r.u8() != OBJECT) {
            throw new Malformed("not an object");
        }
        Map<String, Object> m = r.object(0);
        if (r.at != r.end) {
            throw new Malformed((r.end - r.at) + " bytes after the object");
        }
        return m;
    }

    /**
     * The string value of the top-level key {@code key} of the object in {@code seg[offset,
     * offset+length)} (null when it has none), found without decoding the rest.
     */
    public static String topString(MemorySegment seg, long offset, long length, IntFunction<String> keys, String key)
            throws Malformed {
        Reader r = new Reader(seg, offset, offset + length, keys);
        if (r.u8() != OBJECT) {
            throw new Malformed("not an object");
        }
        while (r.peek() != END) {
            String k = r.key();
            if (k.equals(key) && r.peek() == STRING) {
                r.at++;
                return new String(r.bytes(), StandardCharsets.UTF_8);
            }
            if (k.equals(key) && r.peek() == STRING_REF) {
                r.at++;
                return r.key();
            }
            r.skip(1);
        }
        return null;
    }

    /** Whether {@code s} is a number as JSON writes one ({@code -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?}). */
    public static boolean isJsonNumber(String s) {
        int i = 0;
        int n = s.length();
        if (i < n && s.charAt(i) == '-') {
            i++;
        }
        if (i >= n) {
            return false;
        }
        if (s.charAt(i) == '0') {
            i++;
        } else if (s.charAt(i) >= '1' && s.charAt(i) <= '9') {
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
        } else {
            return false;
        }
        if (i < n && s.charAt(i) == '.') {
            int from = ++i;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            if (i == from) {
                return false;
            }
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int from = i;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            if (i == from) {
                return false;
            }
        }
        return i == n;
    }
}
