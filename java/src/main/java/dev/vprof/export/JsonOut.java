package dev.vprof.export;

import dev.vprof.capture.EventArgs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A streaming JSON writer into a byte buffer: no tree, no reflection. Callers write the structure
 * (<code>raw("{\"ph\":\"X\",")</code>) and hand strings to {@link #string} or pre-escape a name once with
 * {@link #quoted} when it repeats millions of times.
 */
final class JsonOut {
    private static final int FLUSH_AT = 1 << 20;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final OutputStream sink;
    private byte[] buf = new byte[FLUSH_AT + (64 << 10)];
    private int size;
    private long written;

    JsonOut(OutputStream sink) {
        this.sink = sink;
    }

    /** Bytes handed to the sink so far plus those still buffered. */
    long bytes() {
        return written + size;
    }

    private void ensure(int extra) throws IOException {
        if (size + extra > buf.length) {
            flushBuffer();
            if (extra > buf.length) {
                buf = new byte[extra];
            }
        }
    }

    private void flushBuffer() throws IOException {
        sink.write(buf, 0, size);
        written += size;
        size = 0;
    }

    /** Writes buffered bytes to the sink (does not flush or close the sink itself). */
    void flush() throws IOException {
        flushBuffer();
    }

    void maybeFlush() throws IOException {
        if (size >= FLUSH_AT) {
            flushBuffer();
        }
    }

    /** Writes ASCII structure text as is. */
    void raw(String ascii) throws IOException {
        int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[size++] = (byte) ascii.charAt(i);
        }
    }

    /** ASCII structure text as bytes, for a constant written once per event. */
    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    void raw(byte[] bytes) throws IOException {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, size, bytes.length);
        size += bytes.length;
    }

    void raw(char c) throws IOException {
        ensure(1);
        buf[size++] = (byte) c;
    }

    void number(long v) throws IOException {
        if (v == Long.MIN_VALUE) {
            raw(Long.toString(v));
            return;
        }
        ensure(20);
        if (v < 0) {
            buf[size++] = '-';
            v = -v;
        }
        // Two digits per division, written from the end: every event has a dozen numbers.
        int end = size + digits(v);
        int at = end;
        while (v >= 100) {
            int pair = (int) (v % 100);
            v /= 100;
            buf[--at] = DIGIT_ONES[pair];
            buf[--at] = DIGIT_TENS[pair];
        }
        if (v >= 10) {
            buf[--at] = DIGIT_ONES[(int) v];
            buf[--at] = DIGIT_TENS[(int) v];
        } else {
            buf[--at] = (byte) ('0' + v);
        }
        size = end;
    }

    private static final byte[] DIGIT_TENS = new byte[100];
    private static final byte[] DIGIT_ONES = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_TENS[i] = (byte) ('0' + i / 10);
            DIGIT_ONES[i] = (byte) ('0' + i % 10);
        }
    }

    /** Decimal digits of {@code v} (not negative). */
    private static int digits(long v) {
        long bound = 10;
        for (int n = 1; n < 19; n++) {
            if (v < bound) {
                return n;
            }
            bound *= 10;
        }
        return 19;
    }

    /** A finite double as JSON; NaN and infinities, which JSON cannot hold, become {@code null}. */
    void number(double v) throws IOException {
        if (!Double.isFinite(v)) {
            raw("null");
        } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            number((long) v);
        } else {
            raw(Double.toString(v));
        }
    }

    /** Nanoseconds as microseconds with three decimals: exact, no floating point on the way. */
    void micros(long ns) throws IOException {
        if (ns < 0) {
            raw('-');
            ns = -ns;
        }
        number(ns / 1000);
        long frac = ns % 1000;
        ensure(4);
        buf[size++] = '.';
        buf[size++] = (byte) ('0' + frac / 100);
        buf[size++] = (byte) ('0' + frac / 10 % 10);
        buf[size++] = (byte) ('0' + frac % 10);
    }

    void string(String s) throws IOException {
        raw(quoted(s));
    }

    /**
     * A value of a source's kept fields ({@link EventArgs}): null, a Boolean, a Long, an
     * {@link EventArgs.Number} (its text, checked to be a JSON number when it was decoded), a String,
     * a List or a Map of them.
     */
    void value(Object v) throws IOException {
        switch (v) {
            case null -> raw("null");
            case Boolean b -> raw(b ? "true" : "false");
            case Long l -> number(l);
            case EventArgs.Number n -> raw(n.text());
            case String s -> string(s);
            case List<?> list -> {
                raw('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        raw(',');
                    }
                    value(list.get(i));
                }
                raw(']');
            }
            case Map<?, ?> map -> {
                raw('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!first) {
                        raw(',');
                    }
                    first = false;
                    string(String.valueOf(e.getKey()));
                    raw(':');
                    value(e.getValue());
                }
                raw('}');
            }
            default -> throw new IllegalArgumentException("not a JSON value: " + v.getClass().getSimpleName());
        }
    }

    /**
     * {@code s} as a quoted JSON string in UTF-8: quote, backslash and control characters escaped,
     * and an unpaired surrogate (not encodable in UTF-8) replaced by U+FFFD.
     */
    static byte[] quoted(String s) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(s.length() + 8);
        b.write('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> { b.write('\\'); b.write('"'); }
                case '\\' -> { b.write('\\'); b.write('\\'); }
                case '\n' -> { b.write('\\'); b.write('n'); }
                case '\r' -> { b.write('\\'); b.write('r'); }
                case '\t' -> { b.write('\\'); b.write('t'); }
                case '\b' -> { b.write('\\'); b.write('b'); }
                case '\f' -> { b.write('\\'); b.write('f'); }
                default -> {
                    if (c < 0x20) {
                        b.write('\\');
                        b.write('u');
                        b.write('0');
                        b.write('0');
                        b.write(HEX[c >> 4]);
                        b.write(HEX[c & 15]);
                    } else if (c < 0x80) {
                        b.write(c);
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        b.writeBytes(s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8));
                        i++;
                    } else if (Character.isSurrogate(c)) {
                        b.writeBytes("\uFFFD".getBytes(StandardCharsets.UTF_8));
                    } else {
                        b.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
        }
        b.write('"');
        return b.toByteArray();
    }
}
