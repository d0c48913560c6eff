package dev.vprof.trace;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The decompressed bytes of a gzip file (RFC 1952), each member checked whole: its header, its
 * deflate data, then the CRC-32 and the length its trailer gives for what was inflated.
 * {@code java.util.zip.GZIPInputStream} checks the trailer only when a reader asks past the last
 * byte, which a JSON parser that stops at the closing brace never does, so a damaged byte that
 * still inflated passed unseen; this stream checks every member as soon as it ends, and the
 * trace reader reads to the end of the stream. Members may follow one another (as {@code cat
 * a.gz b.gz} makes); anything else after the last one is refused.
 */
final class GzipStream extends InputStream {
    /** A member whose trailer disagrees with its data, or whose bytes are not gzip. */
    static final class Damaged extends IOException {
        private static final long serialVersionUID = 1L;

        Damaged(String what) {
            super(what);
        }
    }

    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;

    private final InputStream in;
    private final byte[] buf = new byte[1 << 16];
    private int bufPos;
    private int bufLen;
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private long memberBytes;
    private boolean inMember;
    private boolean done;
    private int members;
    private final byte[] one = new byte[1];

    /** {@code in} must start with a gzip header. */
    GzipStream(InputStream in) throws IOException {
        this.in = in;
        header(true);
    }

    private int fill() throws IOException {
        if (bufPos < bufLen) {
            return bufLen - bufPos;
        }
        int n = in.read(buf, 0, buf.length);
        bufPos = 0;
        bufLen = Math.max(n, 0);
        return n;
    }

    private int u8() throws IOException {
        if (fill() <= 0) {
            throw new EOFException("the gzip data ends inside a member's header or trailer");
        }
        return buf[bufPos++] & 0xFF;
    }

    private long u32() throws IOException {
        return u8() | (long) u8() << 8 | (long) u8() << 16 | (long) u8() << 24;
    }

    /** Reads a member's header; the inflater then starts on its deflate data. */
    private void header(boolean first) throws IOException {
        if (u8() != 0x1f || u8() != 0x8b) {
            throw new Damaged(first ? "not gzip (no gzip magic)"
                    : "bytes after gzip member " + members + " that are not gzip (the file is damaged)");
        }
        if (u8() != 8) {
            throw new Damaged("a gzip member not compressed with deflate");
        }
        int flags = u8();
        for (int i = 0; i < 6; i++) {
            u8(); // mtime, xfl, os
        }
        if ((flags & FEXTRA) != 0) {
            int n = u8() | u8() << 8;
            for (int i = 0; i < n; i++) {
                u8();
            }
        }
        if ((flags & FNAME) != 0) {
            while (u8() != 0) { } // a zero-terminated file name
        }
        if ((flags & FCOMMENT) != 0) {
            while (u8() != 0) { } // a zero-terminated comment
        }
        if ((flags & FHCRC) != 0) {
            u8();
            u8();
        }
        inflater.reset();
        crc.reset();
        memberBytes = 0;
        inMember = true;
        members++;
    }

    /** After a member's deflate data: its trailer, then the next member or the end of the file. */
    private void trailer() throws IOException {
        int left = inflater.getRemaining();
        bufPos = bufLen - left;
        long wantCrc = u32();
        long wantSize = u32();
        inMember = false;
        if (wantCrc != crc.getValue()) {
            throw new Damaged("gzip CRC mismatch in member " + members + " (the trailer says "
                    + String.format("%08x", wantCrc) + ", the data gives " + String.format("%08x", crc.getValue()) + ")");
        }
        if (wantSize != (memberBytes & 0xFFFFFFFFL)) {
            throw new Damaged("gzip length mismatch in member " + members + " (the trailer says " + wantSize
                    + " bytes mod 2^32, the data gives " + (memberBytes & 0xFFFFFFFFL) + ")");
        }
        if (fill() <= 0) {
            done = true;
            return;
        }
        header(false);
    }

    @Override
    public int read() throws IOException {
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (!done) {
            if (!inMember) {
                throw new IllegalStateException("between members");
            }
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw new Damaged("the deflate data of member " + members + " is damaged (" + e.getMessage() + ")");
            }
            if (n > 0) {
                crc.update(b, off, n);
                memberBytes += n;
                return n;
            }
            if (inflater.finished()) {
                trailer();
                continue;
            }
            if (inflater.needsDictionary()) {
                throw new Damaged("a gzip member asks for a preset dictionary, which gzip never uses");
            }
            if (inflater.needsInput()) {
                if (bufPos < bufLen) {
                    inflater.setInput(buf, bufPos, bufLen - bufPos);
                    bufPos = bufLen;
                } else {
                    int r = in.read(buf, 0, buf.length);
                    if (r < 0) {
                        throw new EOFException("the gzip data ends inside member " + members + " (the file is cut short)");
                    }
                    bufPos = 0;
                    bufLen = r;
                    inflater.setInput(buf, 0, r);
                    bufPos = bufLen;
                }
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        inflater.end();
        in.close();
    }
}
