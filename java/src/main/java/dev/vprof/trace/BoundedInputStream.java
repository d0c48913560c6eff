package dev.vprof.trace;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read through it and refuses to read past a limit (a gzip bomb stops here). */
final class BoundedInputStream extends FilterInputStream {
    /** Thrown when the limit is passed; the reader turns it into one sentence. */
    static final class LimitException extends IOException {
        LimitException() {
            super("the JSON is larger than the limit");
        }
    }

    private final long limit;
    private long count;

    BoundedInputStream(InputStream in, long limit) {
        super(in);
        this.limit = limit;
    }

    long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            add(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, (int) Math.min(len, limit - count + 1));
        if (n > 0) {
            add(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long s = in.skip(Math.min(n, limit - count + 1));
        add(s);
        return s;
    }

    private void add(long n) throws LimitException {
        count += n;
        if (count > limit) {
            throw new LimitException();
        }
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
