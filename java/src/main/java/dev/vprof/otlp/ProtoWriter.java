package dev.vprof.otlp;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable protobuf wire-format writer. Nested messages are written with
 * {@link #beginMessage}/{@link #endMessage}: a 5-byte length slot is reserved and then
 * compacted to the varint the length needs, so each message is encoded once.
 */
final class ProtoWriter {
    private byte[] buf;
    private int pos;

    ProtoWriter() {
        this(256);
    }

    ProtoWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    int size() {
        return pos;
    }

    void tag(int field, int wireType) {
        varint((long) field << 3 | wireType);
    }

    void varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    void fixed64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
    }

    void fixed32(int v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
    }

    void rawByte(int b) {
        ensure(1);
        buf[pos++] = (byte) b;
    }

    void raw(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    void raw(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, pos, len);
        pos += len;
    }

    byte[] buffer() {
        return buf;
    }

    void varintField(int field, long v) {
        tag(field, ProtoReader.VARINT);
        varint(v);
    }

    void fixed64Field(int field, long v) {
        tag(field, ProtoReader.I64);
        fixed64(v);
    }

    void doubleField(int field, double v) {
        fixed64Field(field, Double.doubleToRawLongBits(v));
    }

    void bytesField(int field, byte[] b) {
        tag(field, ProtoReader.LEN);
        varint(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    void stringField(int field, String s) {
        bytesField(field, s.getBytes(StandardCharsets.UTF_8));
    }

    /** Starts a length-delimited sub-message; returns the mark for {@link #endMessage}. */
    int beginMessage(int field) {
        tag(field, ProtoReader.LEN);
        ensure(5);
        int mark = pos;
        pos += 5;
        return mark;
    }

    void endMessage(int mark) {
        int len = pos - mark - 5;
        int lenBytes = varintSize(len);
        System.arraycopy(buf, mark + 5, buf, mark + lenBytes, len);
        int p = mark;
        int v = len;
        while ((v & ~0x7F) != 0) {
            buf[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[p] = (byte) v;
        pos = mark + lenBytes + len;
    }

    private static int varintSize(int v) {
        int n = 1;
        while ((v & ~0x7F) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    private void ensure(int n) {
        if (buf.length - pos < n) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
        }
    }
}
