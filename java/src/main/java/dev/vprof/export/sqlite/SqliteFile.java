package dev.vprof.export.sqlite;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A closed SQLite database file that vprof appends pages to (sqlite.org/fileformat2.html, "The
 * Database Header"): it reads the page size and the page count from the header, hands out the
 * numbers of new pages after the last, writes pages, and at {@link #finish} records the new page
 * count and a new change counter in the header, as SQLite would after a write. Only files SQLite
 * has just made are taken: no free pages, no auto-vacuum, UTF-8, no reserved bytes.
 */
final class SqliteFile implements Closeable {
    static final int HEADER = 100;
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    /** The disk is full, or the page cap a test set ({@code maxPages}) is reached. */
    static final class Full extends IOException {
        private static final long serialVersionUID = 1L;

        Full(String message) {
            super(message);
        }
    }

    private final FileChannel channel;
    private final Path path;
    private final int pageSize;
    private final boolean format4;
    private final long maxPages;
    private final int changeCounter;
    private int pages;

    private SqliteFile(FileChannel channel, Path path, ByteBuffer header, long maxPages) throws IOException {
        this.channel = channel;
        this.path = path;
        this.maxPages = maxPages;
        for (int i = 0; i < MAGIC.length; i++) {
            if (header.get(i) != MAGIC[i]) {
                throw new IOException(path + " is not an SQLite database");
            }
        }
        int size = header.getShort(16) & 0xffff;
        this.pageSize = size == 1 ? 65536 : size;
        int reserved = header.get(20) & 0xff;
        int freelist = header.getInt(36);
        int autoVacuum = header.getInt(52);
        int encoding = header.getInt(56);
        if (reserved != 0 || freelist != 0 || autoVacuum != 0 || encoding != 1) {
            throw new IOException(path + " is not a plain new SQLite database (reserved " + reserved + ", free pages "
                    + freelist + ", auto-vacuum " + autoVacuum + ", encoding " + encoding + ")");
        }
        this.format4 = header.getInt(44) >= 4;
        this.changeCounter = header.getInt(24);
        int inHeader = header.getInt(28);
        boolean valid = inHeader > 0 && header.getInt(92) == changeCounter;
        this.pages = valid ? inHeader : (int) (channel.size() / pageSize);
    }

    /** Opens {@code path}, a database SQLite wrote and closed; {@code maxPages} &gt; 0 caps its size in pages. */
    static SqliteFile open(Path path, long maxPages) throws IOException {
        FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            ByteBuffer header = ByteBuffer.allocate(HEADER);
            while (header.hasRemaining() && ch.read(header, header.position()) > 0) {
                // read the whole header
            }
            if (header.hasRemaining()) {
                throw new IOException(path + " is shorter than an SQLite header");
            }
            return new SqliteFile(ch, path, header.flip(), maxPages);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    int pageSize() {
        return pageSize;
    }

    /** Whether records may use serial types 8 and 9 for 0 and 1 (schema format 4, SQLite's default). */
    boolean format4() {
        return format4;
    }

    int pages() {
        return pages;
    }

    /** The number of a new page at the end of the file. */
    int allocate() throws Full {
        if (maxPages > 0 && pages + 1L > maxPages) {
            throw new Full("database or disk is full (" + path + " may hold " + maxPages + " pages)");
        }
        return ++pages;
    }

    /** Writes {@code page}'s whole content. */
    void write(int page, byte[] content) throws IOException {
        if (content.length != pageSize || page < 2 || page > pages) {
            throw new IllegalArgumentException("page " + page + " of " + pages + ", " + content.length + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(content);
        long at = (page - 1L) * pageSize;
        while (b.hasRemaining()) {
            at += channel.write(b, at);
        }
    }

    /** Records the page count and a new change counter in the header (the file is complete). */
    void finish() throws IOException {
        int counter = changeCounter + 1;
        putInt(24, counter);
        putInt(28, pages);
        putInt(92, counter); // the version the page count is valid for
    }

    private void putInt(long at, int v) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4).putInt(0, v);
        while (b.hasRemaining()) {
            channel.write(b, at + b.position());
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
