package dev.vprof.export.sqlite;

import java.io.IOException;
import java.util.Arrays;

/**
 * One table's rows written as SQLite's table B-tree (sqlite.org/fileformat2.html, "B-tree Pages"),
 * appended to a {@link SqliteFile} whose table SQLite created empty: rows get rowids 1, 2, 3 ... in
 * the order given, fill leaf pages one after another (each written when full, so memory holds one
 * page), and at {@link #finish} the interior pages above them are built and the top one written over
 * the table's root page, the page {@code sqlite_schema} names. A record must fit its leaf (vprof's
 * rows are integers and, in an NVTX domain's row, its name: at most a ring STRING record's 4 KiB,
 * {@code VPROF_STRING_MAX}), so no overflow page is needed.
 *
 * <p>Layouts, as the file format defines them: a leaf (type 13) has an 8-byte header (type, first
 * free block 0, cell count, start of the cell content, fragmented bytes 0), the 2-byte cell offsets,
 * free space, then the cells (payload size varint, rowid varint, record) packed at the end of the
 * page; an interior page (type 5) has a 12-byte header, the last 4 bytes its right-most child, and
 * cells of a 4-byte left child and a varint key: the largest rowid under that child.
 */
final class TableBTree {
    private static final int LEAF = 13;
    private static final int INTERIOR = 5;
    private static final int LEAF_HEADER = 8;
    private static final int INTERIOR_HEADER = 12;
    /** An interior cell at its largest (a 4-byte child, a 9-byte key) and its offset: what a child costs at most. */
    private static final int INTERIOR_CELL_MAX = 4 + 9 + 2;

    private final SqliteFile file;
    private final int root;
    private final int usable;
    private final int maxLocal;
    private final byte[] leaf;
    private int cells;
    private int content;
    private long rowid;
    /** The leaves written so far: page numbers and their largest rowids. */
    private int[] pages = new int[16];
    private long[] keys = new long[16];
    private int written;

    /** The table whose root page SQLite made is {@code root}. */
    TableBTree(SqliteFile file, int root) {
        this.file = file;
        this.root = root;
        this.usable = file.pageSize();
        this.maxLocal = usable - 35; // the largest payload a table leaf keeps on its page
        this.leaf = new byte[file.pageSize()];
        this.content = usable;
    }

    long rows() {
        return rowid;
    }

    /** A row for this table's {@code columns} columns, in the file's record format. */
    Row row(int columns) {
        return new Row(columns, file.format4());
    }

    /** Appends {@code row} with the next rowid. */
    void add(Row row) throws IOException {
        int payload = row.prepare();
        if (payload > maxLocal) {
            throw new IllegalArgumentException("a row of " + payload + " bytes does not fit a page of " + usable);
        }
        long id = rowid + 1;
        int cell = Varint.size(payload) + Varint.size(id) + payload;
        if (LEAF_HEADER + 2 * (cells + 1) > content - cell) {
            writeLeaf(file.allocate());
        }
        content -= cell;
        int at = Varint.put(leaf, content, payload);
        at = Varint.put(leaf, at, id);
        row.writeTo(leaf, at);
        putShort(leaf, LEAF_HEADER + 2 * cells, content);
        cells++;
        rowid = id;
    }

    /** Writes what is left and the pages above the leaves; the root page last. */
    void finish() throws IOException {
        if (rowid == 0) {
            return; // SQLite's empty root stays as it is
        }
        if (written == 0) {
            writeLeaf(root); // one leaf: it is the root
            return;
        }
        writeLeaf(file.allocate());
        int[] level = Arrays.copyOf(pages, written);
        long[] levelKeys = Arrays.copyOf(keys, written);
        // Children per interior page, counting each at its largest so that any page of them fits.
        int perPage = (usable - INTERIOR_HEADER) / INTERIOR_CELL_MAX + 1;
        while (true) {
            int n = level.length;
            int count = (n + perPage - 1) / perPage;
            if (count == 1) {
                file.write(root, interior(level, levelKeys, 0, n));
                return;
            }
            int[] up = new int[count];
            long[] upKeys = new long[count];
            // Children shared out evenly, so that no page is left with a single child.
            for (int p = 0, from = 0; p < count; p++) {
                int to = (int) ((long) n * (p + 1) / count);
                up[p] = file.allocate();
                upKeys[p] = levelKeys[to - 1];
                file.write(up[p], interior(level, levelKeys, from, to));
                from = to;
            }
            level = up;
            levelKeys = upKeys;
        }
    }

    private void writeLeaf(int page) throws IOException {
        leaf[0] = LEAF;
        putShort(leaf, 1, 0);
        putShort(leaf, 3, cells);
        putShort(leaf, 5, content == 65536 ? 0 : content);
        leaf[7] = 0;
        file.write(page, leaf);
        if (page != root) {
            if (written == pages.length) {
                pages = Arrays.copyOf(pages, written * 2);
                keys = Arrays.copyOf(keys, written * 2);
            }
            pages[written] = page;
            keys[written] = rowid;
            written++;
        }
        Arrays.fill(leaf, (byte) 0);
        cells = 0;
        content = usable;
    }

    /** An interior page over children {@code from..to-1}: a cell for each but the last, which is the right-most. */
    private byte[] interior(int[] children, long[] childKeys, int from, int to) {
        byte[] page = new byte[usable];
        int end = usable;
        int n = 0;
        for (int i = from; i < to - 1; i++) {
            int cell = 4 + Varint.size(childKeys[i]);
            end -= cell;
            putInt(page, end, children[i]);
            Varint.put(page, end + 4, childKeys[i]);
            putShort(page, INTERIOR_HEADER + 2 * n, end);
            n++;
        }
        page[0] = INTERIOR;
        putShort(page, 3, n);
        putShort(page, 5, end == 65536 ? 0 : end);
        putInt(page, 8, children[to - 1]);
        return page;
    }

    private static void putShort(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
