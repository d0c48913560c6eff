package dev.vprof.wire;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer with LEB128 varints: the one encoder behind the protobuf
 * messages vprof writes (Perfetto traces, OTLP requests and answers) and the capture file's
 * compact chunks (METRICS, SPANS).
 *
 * <p>Two ways to nest a message: {@link #beginMessage}/{@link #endMessage} reserve a 5-byte
 * length slot and compact it to the varint the length needs, so the message is encoded once,
 * in place; {@link #message(int, WireWriter)} copies a child buffer after its length (the
 * Perfetto writer encodes packets into a reused child). The {@code put} methods skip the
 * capacity check after a {@link #reserve}: the exporter's hot path writes a whole event that way.
 */
public final class WireWriter {
    private byte[] buf;
    private int size;

    public WireWriter() {
        this(256);
    }

    public WireWriter(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    public int size() {
        return size;
    }

    public void reset() {
        size = 0;
    }

    /** The backing array; valid up to {@link #size()} until the next write. */
    public byte[] array() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    public void writeTo(OutputStream out) throws IOException {
        out.write(buf, 0, size);
    }

    // ---- plain values ------------------------------------------------------------------------

    public void u8(int v) {
        ensure(1);
        buf[size++] = (byte) v;
    }

    /** An unsigned LEB128 varint (negative values take ten bytes, as in protobuf). */
    public void varint(long v) {
        ensure(10);
        putVarint(v);
    }

    /** A signed value as a zigzag varint: small magnitudes of either sign stay short. */
    public void zigzag(long v) {
        varint((v << 1) ^ (v >> 63));
    }

    public void fixed32(int v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            buf[size++] = (byte) (v >>> (8 * i));
        }
    }

    public void fixed64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[size++] = (byte) (v >>> (8 * i));
        }
    }

    public void raw(byte[] b) {
        raw(b, 0, b.length);
    }

    public void raw(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, size, len);
        size += len;
    }

    public void append(WireWriter other) {
        raw(other.buf, 0, other.size);
    }

    // ---- protobuf fields ---------------------------------------------------------------------

    public void tag(int field, int wireType) {
        varint(((long) field << 3) | wireType);
    }

    public void uint(int field, long v) {
        tag(field, WireType.VARINT);
        varint(v);
    }

    public void bool(int field, boolean v) {
        uint(field, v ? 1 : 0);
    }

    public void fixed64(int field, long v) {
        tag(field, WireType.I64);
        fixed64(v);
    }

    public void float64(int field, double v) {
        fixed64(field, Double.doubleToRawLongBits(v));
    }

    public void bytes(int field, byte[] b) {
        tag(field, WireType.LEN);
        varint(b.length);
        raw(b, 0, b.length);
    }

    public void string(int field, String s) {
        bytes(field, s.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code child} as a length-delimited field. */
    public void message(int field, WireWriter child) {
        tag(field, WireType.LEN);
        varint(child.size);
        raw(child.buf, 0, child.size);
    }

    /** Starts a length-delimited sub-message in place; returns the mark for {@link #endMessage}. */
    public int beginMessage(int field) {
        tag(field, WireType.LEN);
        ensure(5);
        int mark = size;
        size += 5;
        return mark;
    }

    public void endMessage(int mark) {
        int len = size - mark - 5;
        int lenBytes = varintSize(len);
        System.arraycopy(buf, mark + 5, buf, mark + lenBytes, len);
        int end = mark + lenBytes + len;
        size = mark;
        putVarint(len);
        size = end;
    }

    // ---- unchecked, after reserve ------------------------------------------------------------

    /** Makes room for {@code extra} bytes so the unchecked {@code put} methods can follow. */
    public void reserve(int extra) {
        ensure(extra);
    }

    /** A varint into reserved space (see {@link #reserve}). */
    public void putVarint(long v) {
        // The hottest code of a Perfetto export (a dozen varints per kernel, most of one byte):
        // locals, so that the loop does not store the size field back on every byte.
        byte[] b = buf;
        int at = size;
        while ((v & ~0x7FL) != 0) {
            b[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[at++] = (byte) v;
        size = at;
    }

    /** A single byte into reserved space: a one-byte tag or a small varint. */
    public void putByte(int b) {
        buf[size++] = (byte) b;
    }

    /** Copies {@code other} into reserved space. */
    public void putAll(WireWriter other) {
        System.arraycopy(other.buf, 0, buf, size, other.size);
        size += other.size;
    }

    /** Bytes a varint of {@code v} takes: one per started group of seven bits; 0 still takes one. */
    public static int varintSize(long v) {
        int bits = 64 - Long.numberOfLeadingZeros(v | 1);
        return (bits + 6) / 7;
    }

    public static int tagSize(int field) {
        return varintSize((long) field << 3);
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
        }
    }
}
