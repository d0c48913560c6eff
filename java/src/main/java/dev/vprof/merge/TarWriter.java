package dev.vprof.merge;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A POSIX ustar archive, written as a stream: a 512-byte header per member, the member's bytes
 * padded to 512, two zero blocks at the end. Enough for what Perfetto opens (regular files with
 * short names); member names are ASCII of at most 100 bytes, which the merge's own names are.
 */
final class TarWriter implements AutoCloseable {
    private static final int BLOCK = 512;
    private final OutputStream out;
    private final long mtimeSeconds;

    TarWriter(OutputStream out, long mtimeSeconds) {
        this.out = out;
        this.mtimeSeconds = mtimeSeconds;
    }

    void add(String name, byte[] content) throws IOException {
        header(name, content.length);
        out.write(content);
        pad(content.length);
    }

    void add(String name, Path file) throws IOException {
        long size = Files.size(file);
        header(name, size);
        long copied;
        try (InputStream in = Files.newInputStream(file)) {
            copied = in.transferTo(out);
        }
        if (copied != size) {
            throw new IOException(file + " changed while it was archived");
        }
        pad(size);
    }

    private void header(String name, long size) throws IOException {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        if (n.length == 0 || n.length > 100 || !name.chars().allMatch(c -> c > 32 && c < 127)) {
            throw new IllegalArgumentException("archive member name must be 1 to 100 printable ASCII bytes: " + name);
        }
        byte[] h = new byte[BLOCK];
        System.arraycopy(n, 0, h, 0, n.length);
        octal(h, 100, 8, 0644);            // mode
        octal(h, 108, 8, 0);               // uid
        octal(h, 116, 8, 0);               // gid
        octal(h, 124, 12, size);           // size
        octal(h, 136, 12, mtimeSeconds);   // mtime
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';                    // checksum counted as spaces
        }
        h[156] = '0';                      // a regular file
        byte[] magic = "ustar\0".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(magic, 0, h, 257, magic.length);
        h[263] = '0';
        h[264] = '0';
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        h[155] = ' ';
        out.write(h);
    }

    /** {@code width - 1} octal digits and a NUL, as ustar wants. */
    private static void octal(byte[] h, int at, int width, long value) {
        String s = Long.toOctalString(value);
        if (s.length() > width - 1) {
            throw new IllegalArgumentException("value too large for a tar header field: " + value);
        }
        s = "0".repeat(width - 1 - s.length()) + s;
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, h, at, b.length);
        h[at + width - 1] = 0;
    }

    private void pad(long size) throws IOException {
        int rest = (int) (size % BLOCK);
        if (rest != 0) {
            out.write(new byte[BLOCK - rest]);
        }
    }

    @Override
    public void close() throws IOException {
        out.write(new byte[2 * BLOCK]);
        out.close();
    }
}
