package dev.vprof.wire;

import java.nio.charset.StandardCharsets;

/**
 * A bounds-checked reader of bytes from outside (a request body, a capture chunk): protobuf's
 * wire format and the capture file's compact chunks. Every length and count is checked against
 * the end of the enclosing message before anything is allocated, so a hostile length costs
 * nothing, and every read advances, so no input loops forever. Nested messages are read with
 * {@link #pushLimit}/{@link #popLimit} over the same array.
 *
 * <p>Errors are {@link WireFormatException}s that read "{@code <subject> at byte <n>: <what>}".
 */
public final class WireReader {
    private final byte[] buf;
    private final String subject;
    private int pos;
    private int limit;

    /** @param subject what is being read, as the error messages open ("malformed protobuf") */
    public WireReader(byte[] buf, String subject) {
        this(buf, 0, buf.length, subject);
    }

    public WireReader(byte[] buf, int offset, int length, String subject) {
        this.buf = buf;
        this.subject = subject;
        this.pos = offset;
        this.limit = offset + length;
    }

    public boolean atEnd() {
        return pos >= limit;
    }

    public int position() {
        return pos;
    }

    public int remaining() {
        return limit - pos;
    }

    public int readByte() throws WireFormatException {
        need(1);
        return buf[pos++] & 0xFF;
    }

    public long readVarint() throws WireFormatException {
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

    public long readZigzag() throws WireFormatException {
        long v = readVarint();
        return (v >>> 1) ^ -(v & 1);
    }

    public long readFixed64() throws WireFormatException {
        need(8);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (buf[pos + i] & 0xFFL);
        }
        pos += 8;
        return v;
    }

    public int readFixed32() throws WireFormatException {
        need(4);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16 | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    public double readDouble() throws WireFormatException {
        return Double.longBitsToDouble(readFixed64());
    }

    /** Exactly {@code n} raw bytes (no length prefix), copied. */
    public byte[] readRaw(int n) throws WireFormatException {
        if (n < 0) {
            throw error("negative length " + n);
        }
        need(n);
        byte[] out = new byte[n];
        System.arraycopy(buf, pos, out, 0, n);
        pos += n;
        return out;
    }

    /** {@code n} UTF-8 bytes (no length prefix) as a string. */
    public String readUtf8(int n) throws WireFormatException {
        if (n < 0) {
            throw error("negative length " + n);
        }
        need(n);
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    /**
     * A count of items that each take at least {@code minBytes}: refused when the bytes left
     * cannot hold that many, so that a damaged count never sizes an allocation.
     */
    public int readCount(int minBytes) throws WireFormatException {
        long n = readVarint();
        if (n < 0 || n > remaining() / Math.max(1, minBytes)) {
            throw error("count " + n + " exceeds the " + remaining() + " bytes left");
        }
        return (int) n;
    }

    // ---- protobuf ------------------------------------------------------------------------------

    /** Reads a field tag; returns it whole (field number << 3 | wire type). */
    public int readTag() throws WireFormatException {
        long tag = readVarint();
        if (tag >>> 3 == 0 || tag > 0xFFFF_FFFFL) {
            throw error("invalid field tag " + tag);
        }
        return (int) tag;
    }

    /** Reads a length prefix and checks that many bytes remain in the current message. */
    public int readLength() throws WireFormatException {
        long len = readVarint();
        if (len < 0 || len > limit - pos) {
            throw error("length " + len + " runs past the end of the enclosing message (" + (limit - pos) + " bytes left)");
        }
        return (int) len;
    }

    public byte[] readBytes() throws WireFormatException {
        return readRaw(readLength());
    }

    public String readString() throws WireFormatException {
        return readUtf8(readLength());
    }

    /** Enters a nested message: returns the old limit to hand to {@link #popLimit}. */
    public int pushLimit() throws WireFormatException {
        int len = readLength();
        int old = limit;
        limit = pos + len;
        return old;
    }

    public void popLimit(int oldLimit) throws WireFormatException {
        if (pos != limit) {
            throw error("nested message not fully read");
        }
        limit = oldLimit;
    }

    /** Skips the value of a field this reader does not know (forward compatibility). */
    public void skip(int tag) throws WireFormatException {
        switch (tag & 7) {
            case WireType.VARINT -> readVarint();
            case WireType.I64 -> { need(8); pos += 8; }
            case WireType.LEN -> { int len = readLength(); pos += len; }
            case WireType.I32 -> { need(4); pos += 4; }
            // Groups are deprecated and absent from OTLP; refusing them keeps skipping simple.
            default -> throw error("unsupported wire type " + (tag & 7) + " for field " + (tag >>> 3));
        }
    }

    /** Checks that a field arrived with the wire type its schema says. */
    public void expect(int tag, int wireType, String field) throws WireFormatException {
        if ((tag & 7) != wireType) {
            throw error(field + " has wire type " + (tag & 7) + ", expected " + wireType);
        }
    }

    private void need(int n) throws WireFormatException {
        if (limit - pos < n) {
            throw error("truncated: need " + n + " bytes, " + (limit - pos) + " left");
        }
    }

    /** An error at the current position, for the caller to throw. */
    public WireFormatException error(String what) {
        return new WireFormatException(subject + " at byte " + pos + ": " + what);
    }
}
