package dev.vprof.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal protobuf wire-format encoder into a growable byte array. Only what the Perfetto writer
 * needs: varints, fixed64, length-delimited bytes and nested messages (encoded into a child buffer
 * first, then copied after their length, so every length is minimal).
 */
final class ProtoBuffer {
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LEN = 2;

    private byte[] buf;
    private int size;

    ProtoBuffer(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    int size() {
        return size;
    }

    void reset() {
        size = 0;
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(buf, 0, size);
    }

    /** Copies the encoded bytes (tests and small cold-path buffers only). */
    /** The backing array; valid up to {@link #size()} until the next write. */
    byte[] array() {
        return buf;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    /** Makes room for {@code extra} bytes so the unchecked {@code put} methods can follow. */
    void reserve(int extra) {
        ensure(extra);
    }

    /** A varint into reserved space (see {@link #reserve}). */
    void putVarint(long v) {
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    /** A single byte into reserved space: a one-byte tag or a small varint. */
    void putByte(int b) {
        buf[size++] = (byte) b;
    }

    /** Copies {@code other} into reserved space. */
    void putAll(ProtoBuffer other) {
        System.arraycopy(other.buf, 0, buf, size, other.size);
        size += other.size;
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
        }
    }

    static int varintSize(long v) {
        // 1 byte per started group of 7 bits; 0 still takes one byte.
        int bits = 64 - Long.numberOfLeadingZeros(v | 1);
        return (bits + 6) / 7;
    }

    static int tagSize(int field) {
        return varintSize((long) field << 3);
    }

    void varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    void tag(int field, int wireType) {
        varint(((long) field << 3) | wireType);
    }

    void uint(int field, long v) {
        tag(field, VARINT);
        varint(v);
    }

    void bool(int field, boolean v) {
        uint(field, v ? 1 : 0);
    }

    void fixed64(int field, long v) {
        tag(field, FIXED64);
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[size++] = (byte) (v >>> (8 * i));
        }
    }

    void float64(int field, double v) {
        fixed64(field, Double.doubleToRawLongBits(v));
    }

    void bytes(int field, byte[] b) {
        tag(field, LEN);
        varint(b.length);
        raw(b, 0, b.length);
    }

    void string(int field, String s) {
        bytes(field, s.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code child} as a length-delimited field. */
    void message(int field, ProtoBuffer child) {
        tag(field, LEN);
        varint(child.size);
        raw(child.buf, 0, child.size);
    }

    void raw(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, size, len);
        size += len;
    }

    void append(ProtoBuffer other) {
        raw(other.buf, 0, other.size);
    }
}
