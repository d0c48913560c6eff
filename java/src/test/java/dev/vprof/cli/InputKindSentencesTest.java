package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of input vprof can recognise is named in its one sentence, by every command that
 * reads it, before anything parses it: an Nsight Systems export of its schema (the two real
 * exports in fixtures/real, 2022's 2.9.1 and 2026's 3.25.0), another program's SQLite database,
 * gzip data that is not JSON, data named .gz that is not gzip, a Perfetto trace, a tar archive, a
 * capture of a newer format, and files that are not files: a FIFO named {@code x.json} is refused
 * without being opened (opening it would wait for a writer), as are a device and a socket.
 */
@Timeout(120)
class InputKindSentencesTest {
    private static final Path TRACE = Path.of("../fixtures/real/hta/trace_filter/sampled_rank-0.json.gz");

    @TempDir
    Path dir;

    /** report, export and import of {@code input} each refuse it with exit 2 and a sentence containing {@code says}. */
    private void everyCommandSays(Path input, String says) {
        List<String[]> runs = List.of(
                new String[] {"report", input.toString()},
                new String[] {"report", "--json", input.toString()},
                new String[] {"export", input.toString(), "-o", dir.resolve("o.pftrace").toString()},
                new String[] {"import", input.toString(), "-o", dir.resolve("o.vprof").toString()},
                new String[] {"diff", input.toString(), input.toString()},
                new String[] {"merge", input.toString(), input.toString(), "-o", dir.resolve("o.tar").toString()});
        for (String[] args : runs) {
            Cli.Result r = Cli.run(args);
            assertEquals(ExitCode.CANNOT.code(), r.code(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().contains(says), String.join(" ", args) + " says '" + says + "': " + r.err());
            assertEquals(1, r.err().lines().count(), "one sentence: " + r.err());
            assertFalse(r.err().contains("\tat "), r.err());
        }
        assertFalse(Files.exists(dir.resolve("o.pftrace")) || Files.exists(dir.resolve("o.vprof"))
                || Files.exists(dir.resolve("o.tar")), "nothing written");
    }

    @Test
    void anSqliteDatabaseOfAnotherProgram() throws Exception {
        Path db = dir.resolve("other.sqlite");
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var st = c.createStatement()) {
            st.execute("CREATE TABLE notes (id INTEGER, body TEXT)");
        }
        everyCommandSays(db, db + " is an SQLite database but not an Nsight Systems export");
    }

    @Test
    void gzipThatIsNotJson() throws IOException {
        Path gz = dir.resolve("bytes.json.gz");
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(b)) {
            z.write("PK\u0003\u0004 this is a zip header inside gzip, not JSON".getBytes(StandardCharsets.ISO_8859_1));
        }
        Files.write(gz, b.toByteArray());
        everyCommandSays(gz, gz + " is gzip data that is not JSON");
    }

    @Test
    void randomBytesNamedGzAreNotGzip() throws IOException {
        Path gz = dir.resolve("random.json.gz");
        byte[] bytes = new byte[4096];
        new Random(5).nextBytes(bytes);
        bytes[0] = 0x42;
        Files.write(gz, bytes);
        everyCommandSays(gz, gz + " is named .gz but not gzip data");
    }

    @Test
    void aPerfettoTraceVprofWrote() throws IOException {
        Path pftrace = dir.resolve("t.pftrace");
        Cli.Result x = Cli.run("export", TRACE.toString(), "-o", pftrace.toString());
        assertEquals(0, x.code(), x.err());
        Path copy = Files.copy(pftrace, dir.resolve("in.pftrace"));
        Files.delete(pftrace);
        everyCommandSays(copy, copy + " is a Perfetto trace: vprof reads captures and PyTorch traces, not Perfetto "
                + "traces; open it at https://ui.perfetto.dev");
    }

    @Test
    void aTarArchive() throws Exception {
        Path src = Files.writeString(dir.resolve("a.txt"), "x");
        Path tar = dir.resolve("run.tar");
        Process p = new ProcessBuilder("tar", "-cf", tar.toString(), "-C", dir.toString(), "a.txt").start();
        assertEquals(0, p.waitFor());
        Files.delete(src);
        everyCommandSays(tar, tar + " is a tar archive (a vprof merge output?)");
    }

    @Test
    void aCaptureOfANewerFormat() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.put("VPROFCAP".getBytes(StandardCharsets.US_ASCII)).putInt(99).putInt(0);
        Path f = Files.write(dir.resolve("future.vprof"), b.array());
        everyCommandSays(f, f + " is a vprof capture of format version 99, newer than this vprof reads (up to 1); "
                + "read it with a newer vprof");
    }

    @Test
    void anEmptyFile() throws IOException {
        Path f = Files.write(dir.resolve("empty.json"), new byte[0]);
        everyCommandSays(f, f + " is an empty file (0 bytes)");
    }

    @Test
    void aFifoNamedJsonIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = dir.resolve("x.json");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, p.waitFor());
        everyCommandSays(fifo, fifo + " is a FIFO (named pipe), not a file: vprof reads captures and traces from "
                + "regular files");
    }

    @Test
    void aDeviceAndASocket() throws IOException {
        everyCommandSays(Path.of("/dev/null"), "/dev/null is a device, not a file");
        Path sock = dir.resolve("s.sock");
        try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(sock));
            everyCommandSays(sock, sock + " is a socket, not a file");
        }
    }

    @Test
    void aFileOfNoKnownKind() throws IOException {
        Path f = Files.writeString(dir.resolve("notes.txt"), "hello\n");
        everyCommandSays(f, f + " is not a vprof capture, a PyTorch profiler trace (.json, .json.gz), a folder of them "
                + "or an Nsight Systems SQLite export");
    }

    @Test
    void aFolderThatHoldsNoTraces() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        everyCommandSays(empty, empty + " holds no PyTorch profiler trace (*.json, *.json.gz)");
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("notes.txt"), "hello\n");
        everyCommandSays(other, other + " holds no PyTorch profiler trace (*.json, *.json.gz)");
    }

    @Test
    void theKindsVprofReadsAreNotRefused() throws IOException {
        Cli.Result r = Cli.run("report", TRACE.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("kernels"), r.out());
    }
}
