package dev.vprof.source;

import dev.vprof.capture.CaptureFormat;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.sqlite.SQLiteConfig;

/**
 * What an input is, told from its first bytes before anything opens or parses it, so that every
 * command names what it was given in one sentence ({@link #describe()}): a vprof capture of format
 * version N, a PyTorch profiler trace, gzip data that is not JSON, data named {@code .gz} that is
 * not gzip, an Nsight Systems export of schema X.Y, another program's SQLite database, a Perfetto
 * trace, a tar archive, and the files that are not files at all (a FIFO, a device, a socket), which
 * are refused without being opened: opening a FIFO waits for a writer that may never come.
 *
 * <p>{@link CaptureSources#open} asks this first and reads only the kinds vprof reads.
 */
public record InputKind(Kind kind, String path, String detail) {

    /** The kinds of input, and whether vprof reads each. */
    public enum Kind {
        CAPTURE(true),
        CAPTURE_NEWER(false),
        TRACE(true),
        TRACE_FOLDER(true),
        GZIP_NOT_JSON(false),
        GZIP_DAMAGED(false),
        NOT_GZIP(false),
        NSYS_EXPORT(true),
        VPROF_SQLITE(true),
        SQLITE(true),
        PERFETTO(false),
        TAR(false),
        EMPTY(false),
        FIFO(false),
        DEVICE(false),
        SOCKET(false),
        MISSING(false),
        UNKNOWN(false);

        private final boolean readable;

        Kind(boolean readable) {
            this.readable = readable;
        }

        /** Whether vprof reads this kind (report, export, diff, merge, replay, import). */
        public boolean readable() {
            return readable;
        }
    }

    /** Bytes read from the start of a file to tell its kind. */
    static final int HEAD = 512;
    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    /** The input at {@code path}, told without opening anything that is not a regular file or folder. */
    public static InputKind of(Path path) throws IOException {
        String p = path.toString();
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS) || !Files.exists(path)) {
                return new InputKind(Kind.MISSING, p, null);
            }
            throw e;
        }
        if (a.isDirectory()) {
            return new InputKind(Kind.TRACE_FOLDER, p, null);
        }
        if (a.isOther()) {
            return new InputKind(special(path), p, null);
        }
        if (a.size() == 0) {
            return new InputKind(Kind.EMPTY, p, null);
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(path)) {
            head = in.readNBytes(HEAD);
        }
        return ofHead(path, head);
    }

    private static Kind special(Path path) {
        try {
            int mode = (Integer) Files.getAttribute(path, "unix:mode");
            return switch (mode & 0170000) {
                case 0010000 -> Kind.FIFO;
                case 0140000 -> Kind.SOCKET;
                default -> Kind.DEVICE; // character or block device
            };
        } catch (IOException | UnsupportedOperationException | ClassCastException e) {
            return Kind.DEVICE;
        }
    }

    private static InputKind ofHead(Path path, byte[] head) throws IOException {
        String p = path.toString();
        String name = path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (startsWith(head, magic(CaptureFormat.MAGIC), Math.min(8, head.length))) {
            if (head.length < 12) {
                return new InputKind(Kind.CAPTURE, p, null); // cut inside its header: the reader says so
            }
            long version = Integer.toUnsignedLong(ByteBuffer.wrap(head, 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
            return new InputKind(version > CaptureFormat.FORMAT_VERSION ? Kind.CAPTURE_NEWER : Kind.CAPTURE, p,
                    Long.toString(version));
        }
        if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
            return gzip(path);
        }
        if (json(head, 0)) {
            return new InputKind(name.endsWith(".gz") ? Kind.NOT_GZIP : Kind.TRACE, p, null);
        }
        if (startsWith(head, SQLITE_MAGIC, SQLITE_MAGIC.length)) {
            return sqlite(path);
        }
        if (head.length >= 263 && new String(head, 257, 5, StandardCharsets.US_ASCII).equals("ustar")) {
            return new InputKind(Kind.TAR, p, null);
        }
        if (perfetto(head) && (name.endsWith(".pftrace") || name.endsWith(".perfetto-trace") || name.endsWith(".pb")
                || name.endsWith(".trace"))) {
            return new InputKind(Kind.PERFETTO, p, null);
        }
        return new InputKind(name.endsWith(".gz") ? Kind.NOT_GZIP : Kind.UNKNOWN, p, null);
    }

    /** Whether the text at {@code from} begins a JSON document (after a byte order mark and blanks). */
    private static boolean json(byte[] head, int from) {
        int i = from;
        if (head.length - i >= 3 && (head[i] & 0xff) == 0xEF && (head[i + 1] & 0xff) == 0xBB && (head[i + 2] & 0xff) == 0xBF) {
            i += 3;
        }
        while (i < head.length && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) {
            i++;
        }
        return i < head.length && (head[i] == '{' || head[i] == '[');
    }

    private static InputKind gzip(Path path) throws IOException {
        byte[] inner;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(path), HEAD)) {
            inner = in.readNBytes(HEAD);
        } catch (ZipException | EOFException e) {
            return new InputKind(Kind.GZIP_DAMAGED, path.toString(), e.getMessage());
        }
        return new InputKind(json(inner, 0) ? Kind.TRACE : Kind.GZIP_NOT_JSON, path.toString(), null);
    }

    /**
     * A Perfetto trace is a protobuf {@code Trace}: packets as field 1, length-delimited (tag 0x0a),
     * the first one's length a varint that fits the bytes read.
     */
    private static boolean perfetto(byte[] head) {
        if (head.length < 3 || head[0] != 0x0a) {
            return false;
        }
        long len = 0;
        for (int i = 1, shift = 0; i < Math.min(head.length, 6); i++, shift += 7) {
            len |= (long) (head[i] & 0x7f) << shift;
            if ((head[i] & 0x80) == 0) {
                return len > 0;
            }
        }
        return false;
    }

    /** An SQLite database: Nsight Systems' export (its META_DATA_EXPORT or 2.x EXPORT_META_DATA), vprof's, or another's. */
    private static InputKind sqlite(Path path) {
        String p = path.toString();
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + path.toAbsolutePath(), config.toProperties());
             Statement st = db.createStatement()) {
            Set<String> tables = new HashSet<>();
            try (ResultSet r = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
                while (r.next() && tables.size() < 10_000) {
                    tables.add(r.getString(1));
                }
            }
            String meta = tables.contains("META_DATA_EXPORT") ? "META_DATA_EXPORT"
                    : tables.contains("EXPORT_META_DATA") ? "EXPORT_META_DATA" : null;
            if (meta == null) {
                return new InputKind(Kind.SQLITE, p, null);
            }
            String product = null, schema = null;
            try (ResultSet r = st.executeQuery("SELECT name, value FROM " + meta
                    + " WHERE name IN ('EXPORT_PRODUCT_NAME', 'EXPORT_SCHEMA_VERSION')")) {
                while (r.next()) {
                    if ("EXPORT_PRODUCT_NAME".equals(r.getString(1))) {
                        product = r.getString(2);
                    } else {
                        schema = r.getString(2);
                    }
                }
            }
            if ("vprof".equals(product)) {
                return new InputKind(Kind.VPROF_SQLITE, p, null);
            }
            if (product != null && product.contains("Nsight Systems")) {
                return new InputKind(Kind.NSYS_EXPORT, p, schema);
            }
            return new InputKind(Kind.SQLITE, p, null);
        } catch (SQLException e) {
            return new InputKind(Kind.SQLITE, p, null);
        }
    }

    private static byte[] magic(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    private static boolean startsWith(byte[] head, byte[] prefix, int n) {
        if (head.length < n || n == 0) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (head[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** What the input is, as the rest of a sentence about it ("a vprof capture of format version 1"). */
    public String describe() {
        return switch (kind) {
            case CAPTURE -> detail == null ? "a vprof capture cut inside its header"
                    : "a vprof capture of format version " + detail;
            case CAPTURE_NEWER -> "a vprof capture of format version " + detail + ", newer than this vprof reads (up to "
                    + CaptureFormat.FORMAT_VERSION + ")";
            case TRACE -> "a PyTorch profiler trace";
            case TRACE_FOLDER -> "a folder of PyTorch profiler traces";
            case GZIP_NOT_JSON -> "gzip data that is not JSON";
            case GZIP_DAMAGED -> "gzip data that cannot be decompressed (" + detail + ")";
            case NOT_GZIP -> "named .gz but not gzip data";
            case NSYS_EXPORT -> "an Nsight Systems export of schema " + (detail == null ? "(unknown)" : detail);
            case VPROF_SQLITE -> "an SQLite database vprof exported";
            case SQLITE -> "an SQLite database of another program";
            case PERFETTO -> "a Perfetto trace";
            case TAR -> "a tar archive (a vprof merge output?)";
            case EMPTY -> "an empty file (0 bytes)";
            case FIFO -> "a FIFO (named pipe), not a file";
            case DEVICE -> "a device, not a file";
            case SOCKET -> "a socket, not a file";
            case MISSING -> "missing";
            case UNKNOWN -> "not a vprof capture, a PyTorch profiler trace, a folder of them or an Nsight Systems export";
        };
    }

    /** The sentence for a kind vprof does not read: what it is, and what to do instead. */
    public String refusal() {
        return switch (kind) {
            case MISSING -> path + " does not exist";
            case CAPTURE_NEWER -> path + " is " + describe() + "; read it with a newer vprof";
            case PERFETTO -> path + " is " + describe() + ": vprof reads captures and PyTorch traces, not Perfetto "
                    + "traces; open it at https://ui.perfetto.dev";
            case TAR -> path + " is " + describe() + ": open a merge output at https://ui.perfetto.dev; vprof reads the "
                    + "captures it was merged from";
            case FIFO, DEVICE, SOCKET -> path + " is " + describe() + ": vprof reads captures and traces from regular "
                    + "files; save it to a file first";
            case UNKNOWN -> path + " is not a vprof capture, a PyTorch profiler trace (.json, .json.gz), a folder of them "
                    + "or an Nsight Systems SQLite export";
            default -> path + " is " + describe() + ": vprof reads .vprof captures, PyTorch profiler traces (.json, "
                    + ".json.gz), folders of them and Nsight Systems SQLite exports";
        };
    }
}
