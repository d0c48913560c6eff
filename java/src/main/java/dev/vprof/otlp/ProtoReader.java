package dev.vprof.otlp;

import java.nio.charset.StandardCharsets;

/**
 * A bounds-checked reader of the protobuf wire format over one byte array. Every length is
 * checked against the end of the enclosing message before anything is allocated, so a
 * hostile length costs nothing, and every read advances, so no input loops forever.
 * Nested messages are read with {@link #pushLimit}/{@link #popLimit} over the same array.
 */
final class ProtoReader {
    static final int VARINT = 0;
    static final int I64 = 1;
    static final int LEN = 2;
    static final int SGROUP = 3;
    static final int EGROUP = 4;
    static final int I32 = 5;

    private final byte[] buf;
    private int pos;
    private int limit;

    ProtoReader(byte[] buf) {
        this(buf, 0, buf.length);
    }

    ProtoReader(byte[] buf, int offset, int length) {
        this.buf = buf;
        this.pos = offset;
        this.limit = offset + length;
    }

    boolean atEnd() {
        return pos >= limit;
    }

    int position() {
        return pos;
    }

    /** Reads a field tag; returns it whole (field number << 3 | wire type). */
    int readTag() throws OtlpFormatException {
        long tag = readVarint();
        if (tag >>> 3 == 0 || tag > 0xFFFF_FFFFL) {
            throw error("invalid field tag " + tag);
        }
        return (int) tag;
    }

    long readVarint() throws OtlpFormatException {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= limit) {
                throw error("truncated varint");
            }
            byte b = buf[pos++];
            result |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return result;
            }
        }
        throw error("varint longer than 10 bytes");
    }

    long readFixed64() throws OtlpFormatException {
        need(8);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (buf[pos + i] & 0xFFL);
        }
        pos += 8;
        return v;
    }

    int readFixed32() throws OtlpFormatException {
        need(4);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16 | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    double readDouble() throws OtlpFormatException {
        return Double.longBitsToDouble(readFixed64());
    }

    int readByte() throws OtlpFormatException {
        need(1);
        return buf[pos++] & 0xFF;
    }

    /** Reads exactly n raw bytes (no length prefix). */
    byte[] readRaw(int n) throws OtlpFormatException {
        if (n < 0) {
            throw error("negative length " + n);
        }
        need(n);
        byte[] out = new byte[n];
        System.arraycopy(buf, pos, out, 0, n);
        pos += n;
        return out;
    }

    int remaining() {
        return limit - pos;
    }

    /** Reads a length prefix and checks that many bytes remain in the current message. */
    int readLength() throws OtlpFormatException {
        long len = readVarint();
        if (len < 0 || len > limit - pos) {
            throw error("length " + len + " runs past the end of the enclosing message (" + (limit - pos) + " bytes left)");
        }
        return (int) len;
    }

    byte[] readBytes() throws OtlpFormatException {
        int len = readLength();
        byte[] out = new byte[len];
        System.arraycopy(buf, pos, out, 0, len);
        pos += len;
        return out;
    }

    String readString() throws OtlpFormatException {
        int len = readLength();
        String s = new String(buf, pos, len, StandardCharsets.UTF_8);
        pos += len;
        return s;
    }

    /** Enters a nested message: returns the old limit to hand to {@link #popLimit}. */
    int pushLimit() throws OtlpFormatException {
        int len = readLength();
        int old = limit;
        limit = pos + len;
        return old;
    }

    void popLimit(int oldLimit) throws OtlpFormatException {
        if (pos != limit) {
            throw error("nested message not fully read");
        }
        limit = oldLimit;
    }

    /** Skips the value of a field this reader does not know (forward compatibility). */
    void skip(int tag) throws OtlpFormatException {
        switch (tag & 7) {
            case VARINT -> readVarint();
            case I64 -> { need(8); pos += 8; }
            case LEN -> { int len = readLength(); pos += len; }
            case I32 -> { need(4); pos += 4; }
            // Groups are deprecated and absent from OTLP; refusing them keeps skipping simple.
            default -> throw error("unsupported wire type " + (tag & 7) + " for field " + (tag >>> 3));
        }
    }

    /** Checks that a field arrived with the wire type its schema says. */
    void expect(int tag, int wireType, String field) throws OtlpFormatException {
        if ((tag & 7) != wireType) {
            throw error(field + " has wire type " + (tag & 7) + ", expected " + wireType);
        }
    }

    private void need(int n) throws OtlpFormatException {
        if (limit - pos < n) {
            throw error("truncated: need " + n + " bytes, " + (limit - pos) + " left");
        }
    }

    OtlpFormatException error(String what) {
        return new OtlpFormatException("malformed protobuf at byte " + pos + ": " + what);
    }
}
