package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ChunkInfo;
import dev.vprof.metrics.VllmFixture;
import dev.vprof.nativelib.Posix;
import dev.vprof.otlp.OtlpGrpc;
import dev.vprof.otlp.OtlpProtobuf;
import dev.vprof.otlp.TestSpans;
import dev.vprof.output.Leftovers;
import dev.vprof.testing.NotGzip;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hostile-input campaign as a table: each row is a damaged input, an output in the way, a
 * malformed request or a signal, run through the real command line (in-process; the signal rows
 * as their own JVM). Every row asserts the exit code from {@link ExitCode}, one sentence on stderr
 * naming the right thing (the input or the output) without a stack trace, no temporary file left
 * in the row's folder or the temporary folder, an output that was in the way left as it was, and
 * a target process still running where there is one.
 *
 * <p>What could not be made here: a read-only folder, since the tests may run as root (for whom
 * permissions do not apply); {@code /sys} stands for it, a folder even root cannot create files
 * in. A full disk needs a small tmpfs, which only root can mount: those rows are skipped
 * elsewhere.
 */
@Timeout(60)
class CampaignTest {
    private static final Path TRACE = Path.of("../fixtures/real/hta/trace_diff/control/control.json.gz").toAbsolutePath();
    private static final Path OTHER_TRACE = Path.of("../fixtures/real/hta/trace_diff/test").toAbsolutePath();
    private static final Path NSYS_2022 = NsysInputTest.NSYS_2022.toAbsolutePath();
    private static final Path NSYS_2026 = NsysInputTest.NSYS_2026.toAbsolutePath();

    @TempDir
    static Path shared;
    /** A whole capture (the trace imported), and its bytes, which the damaged copies start from. */
    static Path good;
    static byte[] goodBytes;
    static List<ChunkInfo> chunks;

    @BeforeAll
    static void aWholeCapture() throws IOException {
        good = shared.resolve("good.vprof");
        Cli.Result r = Cli.run("import", TRACE.toString(), "-o", good.toString());
        assertEquals(0, r.code(), r.err());
        goodBytes = Files.readAllBytes(good);
        try (CaptureReader reader = CaptureReader.open(good)) {
            chunks = List.copyOf(reader.chunks());
        }
    }

    /** What a row did: its result, what it must say, and the output that must not appear or must stay as it was. */
    record Outcome(Cli.Result result, ExitCode expected, String names, Path output, byte[] outputBefore,
                   List<String> mustNotSay) {
        Outcome(Cli.Result result, ExitCode expected, String names, Path output) {
            this(result, expected, names, output, null, List.of());
        }

        Outcome before(byte[] bytes) {
            return new Outcome(result, expected, names, output, bytes, mustNotSay);
        }

        Outcome notSaying(String... words) {
            return new Outcome(result, expected, names, output, outputBefore, List.of(words));
        }
    }

    /** One row: given a fresh folder, runs its case. */
    interface Case {
        Outcome run(Path dir) throws Exception;
    }

    private static Arguments row(String name, Case c) {
        return Arguments.of(name, c);
    }

    // ---- the common checks ------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void aHostileInputGetsOneSentenceTheRightExitCodeAndLeavesNothing(String name, Case c, @TempDir Path dir)
            throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String before = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", tmp.toString());
        Outcome o;
        try {
            o = c.run(dir);
        } finally {
            System.setProperty("java.io.tmpdir", before);
        }
        Cli.Result r = o.result();
        String what = name + ": exit " + r.code() + "\nstderr: " + r.err() + "\nstdout: " + r.out();
        assertEquals(o.expected().code(), r.code(), what);
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat ") || r.err().contains("at dev.vprof"),
                "no stack trace: " + what);
        List<String> sentences = r.err().lines().filter(l -> !l.isBlank() && !l.startsWith("vprof: warning:")
                && !l.startsWith("vprof: note:") && !l.startsWith("\r")).toList();
        if (o.expected() == ExitCode.OK) {
            assertTrue(sentences.stream().noneMatch(l -> l.contains("error")), "no error: " + what);
        } else {
            assertEquals(1, sentences.size(), "one sentence: " + what);
        }
        if (o.names() != null) {
            assertTrue((r.err() + r.out()).contains(o.names()), "names '" + o.names() + "': " + what);
        }
        for (String word : o.mustNotSay()) {
            assertFalse(r.err().contains(word), "does not say '" + word + "': " + what);
        }
        if (o.output() != null) {
            if (o.outputBefore() != null) {
                assertTrue(Arrays.equals(o.outputBefore(), Files.readAllBytes(o.output())), "left as it was: " + o.output());
            } else if (o.expected() != ExitCode.OK) {
                assertFalse(Files.exists(o.output()), "nothing under the output's name: " + what);
            }
        }
        assertEquals(List.of(), leftovers(dir), "no temporary file: " + what);
        assertEquals(List.of(), leftovers(tmp), "nothing in the temporary folder: " + what);
    }

    private static List<Path> leftovers(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> Leftovers.isTemporary(p) || p.getFileName().toString().endsWith(".part")
                    || p.getFileName().toString().endsWith(".tmp") || p.getFileName().toString().startsWith("vprof-trace-"))
                    .toList();
        }
    }

    // ---- inputs ------------------------------------------------------------------------------------

    private static Path write(Path dir, String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(b)) {
            z.write(bytes);
        }
        return b.toByteArray();
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        b[0] = 0x42; // not gzip's, SQLite's or a capture's first byte
        return b;
    }

    private static Path fifo(Path dir, String name) throws Exception {
        Path f = dir.resolve(name);
        Process p = new ProcessBuilder("mkfifo", f.toString()).start();
        assertEquals(0, p.waitFor());
        return f;
    }

    /** The whole capture, cut after {@code n} bytes. */
    private static byte[] cut(long n) {
        return Arrays.copyOf(goodBytes, (int) n);
    }

    private static ChunkInfo largestRecords() {
        return chunks.stream().filter(c -> c.kind() == CaptureFormat.KIND_RECORDS)
                .max((a, b) -> Integer.compare(a.length(), b.length())).orElseThrow();
    }

    /** Damaged copies of the whole capture, by name. */
    private static byte[] damaged(String kind) {
        return switch (kind) {
            case "cut at byte 8" -> cut(8);
            case "cut at byte 16" -> cut(CaptureFormat.FILE_HEADER_SIZE);
            case "metadata only" -> cut(chunks.get(1).offset());
            case "cut mid-chunk" -> cut(largestRecords().offset() + largestRecords().length() / 2);
            case "never closed" -> cut(goodBytes.length - CaptureFormat.TRAILER_SIZE);
            case "bad chunk checksum" -> {
                byte[] b = goodBytes.clone();
                ChunkInfo c = largestRecords();
                int at = (int) (c.offset() + CaptureFormat.CHUNK_HEADER_SIZE + c.length() / 2);
                b[at] ^= 0x5a;
                yield b;
            }
            case "format version from the future" -> {
                byte[] b = goodBytes.clone();
                ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 99);
                yield b;
            }
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /** What each damage must be called, and the exit code: incomplete or damaged is read-partly, a newer format cannot be read. */
    private static ExitCode codeOf(String kind) {
        return kind.equals("format version from the future") ? ExitCode.CANNOT : ExitCode.READ_PARTLY;
    }

    private static final List<String> DAMAGES = List.of("cut at byte 8", "cut at byte 16", "metadata only",
            "cut mid-chunk", "never closed", "bad chunk checksum", "format version from the future");

    private static Stream<Arguments> captureRows() {
        List<Arguments> rows = new ArrayList<>();
        for (String kind : DAMAGES) {
            rows.add(row("capture " + kind + ": report", d -> {
                Path f = write(d, "bad.vprof", damaged(kind));
                Cli.Result r = Cli.run("report", f.toString());
                if (kind.equals("never closed")) {
                    // Its writer is gone: incomplete, and the sentence says how much was recovered.
                    assertTrue(r.err().contains(f + " was read only partly: it was never closed by its writer, which is no "
                            + "longer running") && r.err().contains("; what is shown covers the " + chunks.size() + " whole chunks read"), r.err());
                }
                return new Outcome(r, codeOf(kind), f.toString(), null).notSaying("(0 bytes");
            }));
            rows.add(row("capture " + kind + ": export", d -> {
                Path f = write(d, "bad.vprof", damaged(kind));
                Path out = d.resolve("o.pftrace");
                Cli.Result r = Cli.run("export", f.toString(), "-o", out.toString());
                // A capture with records left is exported with the damage said; one without is not.
                ExitCode code = codeOf(kind);
                return new Outcome(r, code, f.toString(), code == ExitCode.READ_PARTLY && Files.exists(out) ? null : out)
                        .notSaying("(0 bytes");
            }));
            rows.add(row("capture " + kind + ": diff against the whole capture", d -> {
                Path f = write(d, "bad.vprof", damaged(kind));
                return new Outcome(Cli.run("diff", good.toString(), f.toString()),
                        codeOf(kind), f.toString(), null);
            }));
        }
        // Never closed, its writer still running (it holds the writer's flock, as CaptureWriter
        // does): a live capture, read as far as it goes and said so, not called damaged.
        rows.add(row("capture never closed, its writer alive: report reads it as live", d -> {
            Path f = write(d, "live.vprof", damaged("never closed"));
            return whileWritten(f, () -> new Outcome(Cli.run("report", f.toString()), ExitCode.OK,
                    f + " is a live capture", null).notSaying("never closed"));
        }));
        rows.add(row("capture never closed, its writer alive: export reads it as live", d -> {
            Path f = write(d, "live.vprof", damaged("never closed"));
            Path out = d.resolve("o.pftrace");
            return whileWritten(f, () -> new Outcome(Cli.run("export", f.toString(), "-o", out.toString()), ExitCode.OK,
                    f + " is a live capture", out).notSaying("never closed"));
        }));
        return rows.stream();
    }

    /** Runs {@code body} while this JVM holds the capture writer's lock on {@code f} (its writer still running). */
    private static Outcome whileWritten(Path f, Callable<Outcome> body) throws Exception {
        int fd = Posix.openReadOnly(f.toString());
        assertTrue(fd >= 0, "open " + f);
        try {
            assumeTrue(Posix.tryFlock(fd, true) == Posix.Lock.TAKEN, "this file system has no flock");
            return body.call();
        } finally {
            Posix.close(fd);
        }
    }

    private static Stream<Arguments> traceRows() {
        return Stream.of(
                row("trace: an empty .json", d -> {
                    Path f = write(d, "empty.json", new byte[0]);
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f + " is an empty file", null);
                }),
                row("trace: random bytes named .json.gz", d -> {
                    Path f = write(d, "random.json.gz", random(4096, 5));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f + " is named .gz but not gzip",
                            null);
                }),
                row("trace: gzip that is not JSON", d -> {
                    Path f = write(d, "zip.json.gz", gzip("PK\u0003\u0004 not JSON".getBytes(StandardCharsets.ISO_8859_1)));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f + " is gzip data that is not JSON",
                            null);
                }),
                row("trace: a wrong gzip CRC (one dur changed)", d -> {
                    byte[] gz = Files.readAllBytes(TRACE);
                    byte[] json = new GZIPInputStream(new ByteArrayInputStream(gz)).readAllBytes();
                    byte[] bad = gzip(json);
                    bad[bad.length - 6] ^= 0x01; // the CRC32 in the trailer
                    Path f = write(d, "crc.json.gz", bad);
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f.toString(), null);
                }),
                row("trace: a .json.gz cut in half", d -> {
                    byte[] gz = Files.readAllBytes(TRACE);
                    Path f = write(d, "half.json.gz", Arrays.copyOf(gz, gz.length / 2));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f.toString(), null);
                }),
                row("trace: JSON cut in half", d -> {
                    byte[] json = new GZIPInputStream(Files.newInputStream(TRACE)).readAllBytes();
                    Path f = write(d, "half.json", Arrays.copyOf(json, json.length / 2));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f.toString(), null);
                }),
                row("trace: JSON that is not a trace", d -> {
                    Path f = write(d, "config.json", "{\"model\": \"llama\", \"layers\": 32}".getBytes(StandardCharsets.UTF_8));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f.toString(), null);
                }),
                row("trace: JSON nested 100000 deep", d -> {
                    Path f = write(d, "deep.json", ("{\"traceEvents\":" + "[".repeat(100_000)).getBytes(StandardCharsets.UTF_8));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f.toString(), null);
                }),
                row("trace: a FIFO named x.json, report", d -> {
                    Path f = fifo(d, "x.json");
                    return new Outcome(quick(() -> Cli.run("report", f.toString()), f), ExitCode.CANNOT,
                            f + " is a FIFO (named pipe), not a file", null);
                }),
                row("trace: a FIFO named x.json, import", d -> {
                    Path f = fifo(d, "x.json");
                    Path out = d.resolve("o.vprof");
                    return new Outcome(quick(() -> Cli.run("import", f.toString(), "-o", out.toString()), f), ExitCode.CANNOT,
                            f + " is a FIFO", out);
                }),
                row("trace: a FIFO named x.json, export", d -> {
                    Path f = fifo(d, "x.json");
                    Path out = d.resolve("o.pftrace");
                    return new Outcome(quick(() -> Cli.run("export", f.toString(), "-o", out.toString()), f), ExitCode.CANNOT,
                            f + " is a FIFO", out);
                }),
                row("trace: /dev/null", d -> new Outcome(Cli.run("report", "/dev/null"), ExitCode.CANNOT,
                        "/dev/null is a device, not a file", null)),
                row("trace: /dev/zero, import", d -> {
                    Path out = d.resolve("o.vprof");
                    return new Outcome(Cli.run("import", "/dev/zero", "-o", out.toString()), ExitCode.CANNOT,
                            "/dev/zero is a device", out);
                }),
                row("trace: a text file", d -> {
                    Path f = write(d, "notes.txt", "hello\n".getBytes(StandardCharsets.UTF_8));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f + " is not a vprof capture", null);
                }),
                row("trace: a folder without traces", d -> {
                    Path f = Files.createDirectories(d.resolve("empty"));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT,
                            f + " holds no PyTorch profiler trace", null);
                }),
                row("trace: a file that does not exist", d -> {
                    Path f = d.resolve("missing.json");
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f.toString(), null);
                }),
                row("trace: a Perfetto trace as input", d -> {
                    Path p = d.resolve("t.pftrace");
                    assertEquals(0, Cli.run("export", good.toString(), "-o", p.toString()).code());
                    return new Outcome(Cli.run("report", p.toString()), ExitCode.CANNOT, p + " is a Perfetto trace", null);
                }),
                row("trace: a merge's tar archive as input", d -> {
                    Path tar = d.resolve("m.tar");
                    assertEquals(0, Cli.run("merge", "--force", good.toString(), good.toString(), "-o", tar.toString()).code());
                    return new Outcome(Cli.run("report", tar.toString()), ExitCode.CANNOT, tar + " is a tar archive", null);
                }),
                row("trace: an nsys export named .json.gz", d -> {
                    Path f = Files.copy(NSYS_2022, d.resolve("run.json.gz"));
                    // Read as what its bytes are (an Nsight Systems export), never called "bad magic".
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.OK, null, null).notSaying("bad magic");
                }),
                row("trace: an nsys export named .vprof", d -> {
                    Path f = Files.copy(NSYS_2022, d.resolve("run.vprof"));
                    Cli.Result r = Cli.run("report", f.toString());
                    // Either read as what it is, or refused naming it as an Nsight Systems export: never "bad magic".
                    return new Outcome(r, r.code() == 0 ? ExitCode.OK : ExitCode.CANNOT, null, null).notSaying("bad magic");
                }),
                row("trace: a folder of traces is read (the table's control row)", d -> new Outcome(
                        Cli.run("report", OTHER_TRACE.toString()), ExitCode.OK, "kernels", null)));
    }

    private static Stream<Arguments> nsysRows() {
        return Stream.of(
                row("nsys: an empty .sqlite", d -> {
                    Path f = Files.createFile(d.resolve("empty.sqlite"));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f + " is an empty file", null);
                }),
                row("nsys: random bytes named .sqlite", d -> {
                    Path f = write(d, "random.sqlite", random(64 << 10, 26));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f.toString(), null);
                }),
                row("nsys: a 2026 export cut in half", d -> {
                    byte[] whole = Files.readAllBytes(NSYS_2026);
                    Path f = write(d, "cut.sqlite", Arrays.copyOf(whole, whole.length / 2));
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT, f + " is cut short", null);
                }),
                row("nsys: another program's database", d -> {
                    Path f = d.resolve("notes.sqlite");
                    try (var c = DriverManager.getConnection("jdbc:sqlite:" + f); var st = c.createStatement()) {
                        st.execute("CREATE TABLE notes (id INTEGER, body TEXT)");
                    }
                    return new Outcome(Cli.run("report", f.toString()), ExitCode.CANNOT,
                            f + " is an SQLite database but not an Nsight Systems export", null);
                }),
                row("nsys: an export without StringIds", d -> {
                    Path f = Files.copy(NSYS_2022, d.resolve("nostrings.sqlite"));
                    try (var c = DriverManager.getConnection("jdbc:sqlite:" + f); var st = c.createStatement()) {
                        st.execute("DROP TABLE StringIds");
                    }
                    return new Outcome(Cli.run("export", f.toString(), "-o", d.resolve("o.pftrace").toString()),
                            ExitCode.CANNOT, "without its StringIds table", d.resolve("o.pftrace"));
                }),
                row("nsys: a cut export, diffed", d -> {
                    byte[] whole = Files.readAllBytes(NSYS_2022);
                    Path f = write(d, "cut.sqlite", Arrays.copyOf(whole, whole.length / 2));
                    return new Outcome(Cli.run("diff", NSYS_2022.toString(), f.toString()), ExitCode.CANNOT,
                            f + " is cut short", null);
                }));
    }

    // ---- outputs -----------------------------------------------------------------------------------

    /** The command of {@code kind} writing {@code out}, from {@code in}. */
    private static String[] writing(String kind, Path in, Path out, String... more) {
        List<String> args = new ArrayList<>(switch (kind) {
            case "import" -> List.of("import", TRACE.toString(), "-o", out.toString());
            case "export perfetto", "export chrome", "export kineto", "export sqlite" -> List.of("export", in.toString(),
                    "-o", out.toString(), "--format", kind.substring("export ".length()));
            case "merge" -> List.of("merge", in.toString(), good.toString(), "-o", out.toString());
            case "report --html" -> List.of("report", in.toString(), "--html", out.toString());
            case "diff --html" -> List.of("diff", in.toString(), good.toString(), "--html", out.toString());
            default -> throw new IllegalArgumentException(kind);
        });
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static String extension(String kind) {
        return OutputKinds.extension(kind.replace("export ", ""));
    }

    private static final List<String> WRITERS = List.of("import", "export perfetto", "export chrome", "export kineto",
            "export sqlite", "merge", "report --html", "diff --html");

    private static Stream<Arguments> outputRows() {
        List<Arguments> rows = new ArrayList<>();
        for (String kind : WRITERS) {
            rows.add(row(kind + ": an existing output without --force", d -> {
                Path out = Files.writeString(d.resolve("o" + extension(kind)), "someone's file");
                Cli.Result r = Cli.run(writing(kind, good, out));
                return new Outcome(r, ExitCode.CANNOT, out + " already exists", out).before(Files.readAllBytes(out))
                        .notSaying(good.toString() + ":");
            }));
            rows.add(row(kind + ": a directory as the output", d -> {
                Path out = Files.createDirectories(d.resolve("o" + extension(kind)));
                return new Outcome(Cli.run(writing(kind, good, out, "--force")), ExitCode.CANNOT, out.toString(), null);
            }));
        }
        for (String kind : List.of("import", "export perfetto", "report --html")) {
            rows.add(row(kind + ": a FIFO as the output", d -> {
                Path out = fifo(d, "o" + extension(kind));
                Cli.Result r = quick(() -> Cli.run(writing(kind, good, out)), out);
                return new Outcome(r, ExitCode.CANNOT, out.toString(), null);
            }));
            rows.add(row(kind + ": a folder that does not exist", d -> {
                Path out = d.resolve("no/such/o" + extension(kind));
                return new Outcome(Cli.run(writing(kind, good, out)), ExitCode.CANNOT, out.getParent().toString(), out);
            }));
            rows.add(row(kind + ": a folder no one may write (/sys)", d -> {
                Path out = Path.of("/sys/vprof-campaign" + extension(kind));
                return new Outcome(Cli.run(writing(kind, good, out)), ExitCode.CANNOT, "/sys", out)
                        .notSaying(good + ":", TRACE + ":");
            }));
            rows.add(row(kind + ": a full disk", d -> {
                Path small = smallDisk(d);
                Path out = small.resolve("o" + extension(kind));
                try {
                    Cli.Result r = Cli.run(writing(kind, good, out));
                    // Checked before the small disk goes: nothing under the name, no temporary file on it.
                    assertFalse(Files.exists(out), r.err());
                    assertEquals(List.of(), leftovers(small), r.err());
                    return new Outcome(r, ExitCode.CANNOT, out.getParent().toString(), out).notSaying("cannot read");
                } finally {
                    unmount(small);
                }
            }));
        }
        rows.add(row("export: its input as its own output", d -> {
            Path in = Files.copy(good, d.resolve("in.vprof"));
            Path out = d.resolve("in.vprof");
            return new Outcome(Cli.run("export", in.toString(), "-o", out.toString(), "--format", "chrome", "--force"),
                    ExitCode.CANNOT, "over its own input", out).before(goodBytes);
        }));
        rows.add(row("import: --force X -o X", d -> {
            Path in = Files.copy(TRACE, d.resolve("t.json.gz"));
            byte[] bytes = Files.readAllBytes(in);
            return new Outcome(Cli.run("import", "--force", in.toString(), "-o", in.toString()), ExitCode.CANNOT,
                    "over its own input", in).before(bytes);
        }));
        rows.add(row("merge: --force a b -o b", d -> {
            Path a = Files.copy(good, d.resolve("a.vprof"));
            Path b = Files.copy(good, d.resolve("b.vprof"));
            return new Outcome(Cli.run("merge", "--force", a.toString(), b.toString(), "-o", b.toString()), ExitCode.CANNOT,
                    "over its own input", b).before(goodBytes);
        }));
        rows.add(row("report --html: the page onto its own input", d -> {
            Path in = Files.copy(good, d.resolve("in.vprof"));
            return new Outcome(Cli.run("report", in.toString(), "--html", in.toString(), "--force"), ExitCode.CANNOT,
                    "over its own input", in).before(goodBytes);
        }));
        rows.add(row("report --html: an existing page names --html, not -o", d -> {
            Path out = Files.writeString(d.resolve("r.html"), "an earlier page");
            return new Outcome(Cli.run("report", good.toString(), "--html", out.toString()), ExitCode.CANNOT, "--html", out)
                    .before(Files.readAllBytes(out)).notSaying(" -o");
        }));
        rows.add(row("export: an unrelated OUT.part is left alone", d -> {
            Path part = Files.writeString(d.resolve("e.json.part"), "not vprof's");
            Path out = d.resolve("e.json");
            Cli.Result r = Cli.run("export", good.toString(), "-o", out.toString());
            assertEquals("not vprof's", Files.readString(part));
            Files.delete(part); // the sweep for leftovers must not count it
            return new Outcome(r, ExitCode.OK, "wrote " + out, out);
        }));
        rows.add(row("merge: a dead merge's work folder is removed, saying so", d -> {
            // What a SIGKILLed merge leaves: its work folder of per-node traces beside the archive.
            Path stale = Files.createDirectories(d.resolve(".m.tar.vprof-tmp-" + deadPid() + "-1048577"));
            Files.writeString(stale.resolve("node0.vprof"), "half a node");
            Path out = d.resolve("m.tar");
            Cli.Result r = Cli.run("merge", "--force", good.toString(), good.toString(), "-o", out.toString());
            assertFalse(Files.exists(stale), "removed");
            return new Outcome(r, ExitCode.OK, "wrote " + out, out);
        }));
        rows.add(row("export: a dead vprof's temporary file is removed, saying so", d -> {
            Path stale = Files.writeString(d.resolve(".e.pftrace.vprof-tmp-" + deadPid() + "-1"), "half a trace");
            Path out = d.resolve("e.pftrace");
            Cli.Result r = Cli.run("export", good.toString(), "-o", out.toString());
            assertFalse(Files.exists(stale), "removed");
            return new Outcome(r, ExitCode.OK, "wrote " + out, out);
        }));
        rows.add(row("export: two exports racing for one -o", d -> race(d, "e.json",
                out -> new String[] {"export", good.toString(), "-o", out.toString()})));
        rows.add(row("import: two imports racing for one -o", d -> race(d, "i.vprof",
                out -> new String[] {"import", TRACE.toString(), "-o", out.toString()})));
        rows.add(row("demo --dir over an earlier demo", d -> {
            Path page = Files.writeString(d.resolve("report.html"), "an earlier demo's page");
            return new Outcome(Cli.run("demo", "--dir", d.toString(), "--no-torch-path"), ExitCode.CANNOT,
                    "holds an earlier demo's files", page).before(Files.readAllBytes(page));
        }));
        return rows.stream();
    }

    /** Two runs of one command at once into one output: one whole file and one refusal; the refusal is the row's. */
    private static Outcome race(Path d, String name, Function<Path, String[]> command) throws Exception {
        Path out = d.resolve(name);
        CompletableFuture<Cli.Result> a = async(() -> Cli.run(command.apply(out)));
        CompletableFuture<Cli.Result> b = async(() -> Cli.run(command.apply(out)));
        Cli.Result ra = a.get(50, TimeUnit.SECONDS);
        Cli.Result rb = b.get(50, TimeUnit.SECONDS);
        List<Integer> codes = new ArrayList<>(List.of(ra.code(), rb.code()));
        Collections.sort(codes);
        assertEquals(List.of(ExitCode.OK.code(), ExitCode.CANNOT.code()), codes, ra.err() + rb.err());
        assertTrue(Files.isRegularFile(out) && Files.size(out) > 0, "one whole file");
        Cli.Result refused = ra.code() == ExitCode.OK.code() ? rb : ra;
        return new Outcome(refused, ExitCode.CANNOT, out.toString(), out).before(Files.readAllBytes(out));
    }

    // ---- diff, merge ---------------------------------------------------------------------------------

    private static Stream<Arguments> diffAndMergeRows() {
        return Stream.of(
                row("diff: a capture against a truncated copy of itself is not comparable", d -> {
                    Path f = write(d, "cut.vprof", damaged("cut mid-chunk"));
                    Cli.Result r = Cli.run("diff", "--json", good.toString(), f.toString());
                    assertFalse(r.out().contains("\"comparable\" : true") || r.out().contains("\"comparable\":true"), r.out());
                    return new Outcome(r, ExitCode.READ_PARTLY, f.toString(), null).notSaying("REGRESSED");
                }),
                row("diff: a side that does not exist", d -> {
                    Path f = d.resolve("missing.vprof");
                    return new Outcome(Cli.run("diff", good.toString(), f.toString()), ExitCode.CANNOT, f.toString(), null);
                }),
                row("diff: a FIFO side", d -> {
                    Path f = fifo(d, "x.json");
                    return new Outcome(quick(() -> Cli.run("diff", good.toString(), f.toString()), f), ExitCode.CANNOT,
                            f + " is a FIFO", null);
                }),
                row("merge: a damaged input", d -> {
                    Path f = write(d, "cut.vprof", damaged("format version from the future"));
                    Path out = d.resolve("m.tar");
                    return new Outcome(Cli.run("merge", good.toString(), f.toString(), "-o", out.toString()),
                            ExitCode.CANNOT, f.toString(), out);
                }),
                row("merge: an input that does not exist", d -> {
                    Path f = d.resolve("missing.vprof");
                    Path out = d.resolve("m.tar");
                    return new Outcome(Cli.run("merge", good.toString(), f.toString(), "-o", out.toString()),
                            ExitCode.CANNOT, f.toString(), out);
                }));
    }

    // ---- the metrics scraper, the OTLP receiver, the trigger, a target -------------------------------

    private static Stream<Arguments> networkRows() {
        return Stream.of(
                row("triage: KV-cache usage +Inf", d -> triage(f -> f.kvCacheUsage = Double.POSITIVE_INFINITY,
                        "vllm:kv_cache_usage_perc{")),
                row("triage: KV-cache usage 7.5 (a ratio above 1)", d -> triage(f -> f.kvCacheUsage = 7.5,
                        "vllm:kv_cache_usage_perc{")),
                row("triage: -5 requests waiting", d -> triage(f -> f.waiting = -5, "vllm:num_requests_waiting{")),
                row("triage: NaN requests running", d -> triage(f -> f.running = Double.NaN, "vllm:num_requests_running{")),
                row("OTLP/HTTP: a body shorter than its Content-Length (the sender done)", d -> receiver(d, (http, grpc) ->
                        answered(http, "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\n"
                                + "Content-Length: 1000\r\n\r\nshort", true, "400", 1000))),
                row("OTLP/HTTP: a body that stops arriving is answered at the read timeout", d -> receiver(d, (http, grpc) ->
                        answered(http, "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\n"
                                + "Content-Length: 1000\r\n\r\nshort", false, "400", 3500))),
                row("OTLP/HTTP: bytes that are not HTTP", d -> receiver(d, (http, grpc) ->
                        answeredAtOnce(http, "\u0016\u0003\u0001 not http at all\r\n\r\n", "400"))),
                row("OTLP/gRPC: a message flagged compressed that is not gzip", d -> receiver(d, (http, grpc) -> {
                    ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", grpc).usePlaintext()
                            .compressorRegistry(NotGzip.registry()).build();
                    try {
                        long t0 = System.nanoTime();
                        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
                                ch, OtlpGrpc.EXPORT, CallOptions.DEFAULT.withCompression("gzip")
                                        .withDeadlineAfter(10, TimeUnit.SECONDS), OtlpProtobuf.encodeRequest(TestSpans.mixed(1))));
                        long ms = (System.nanoTime() - t0) / 1_000_000;
                        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getStatus().toString());
                        assertTrue(ms < 3000, "answered after " + ms + " ms");
                    } finally {
                        ch.shutdownNow();
                    }
                })),
                row("OTLP/gRPC: HTTP/1.1 to the gRPC port", d -> receiver(d, (http, grpc) ->
                        answeredAtOnce(grpc, "POST /opentelemetry.proto.collector.trace.v1.TraceService/Export HTTP/1.1\r\n"
                                + "Host: x\r\nContent-Length: 0\r\n\r\n", null))),
                row("OTLP/HTTP: four idle sockets do not delay a valid export", d -> receiver(d, (http, grpc) -> {
                    List<Socket> idle = new ArrayList<>();
                    try {
                        for (int i = 0; i < 4; i++) {
                            Socket s = new Socket(InetAddress.getLoopbackAddress(), http);
                            s.getOutputStream().write("POST /v1/traces HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
                            idle.add(s);
                        }
                        answeredAtOnce(http, "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\n"
                                + "Content-Length: 0\r\n\r\n", "200");
                    } finally {
                        for (Socket s : idle) {
                            s.close();
                        }
                    }
                })),
                row("capture: a refused --trigger leaves no -o file", d -> {
                    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
                    server.createContext("/", ex -> {
                        ex.sendResponseHeaders(404, -1);
                        ex.close();
                    });
                    server.start();
                    try {
                        Path out = d.resolve("c.vprof");
                        Cli.Result r = Cli.run("capture", "--trigger", "127.0.0.1:" + server.getAddress().getPort(),
                                "--duration", "2s", "-o", out.toString());
                        return new Outcome(r, ExitCode.CANNOT, "404 Not Found", out);
                    } finally {
                        server.stop(0);
                    }
                }),
                row("capture: --trigger at a port where nothing listens", d -> {
                    Path out = d.resolve("c.vprof");
                    Cli.Result r = Cli.run("capture", "--trigger", "127.0.0.1:" + freePort(), "--duration", "2s",
                            "-o", out.toString());
                    return new Outcome(r, ExitCode.CANNOT, "cannot connect", out);
                }),
                row("attach: a process without vprof's agent is left running", d -> target(pid -> {
                    Path out = d.resolve("a.vprof");
                    return new Outcome(Cli.run("attach", "--pid", Long.toString(pid), "--duration", "1s", "-o", out.toString()),
                            ExitCode.CANNOT, Long.toString(pid), out);
                })),
                row("attach: an existing -o is refused before the target is touched", d -> target(pid -> {
                    Path out = Files.writeString(d.resolve("a.vprof"), "an earlier capture");
                    return new Outcome(Cli.run("attach", "--pid", Long.toString(pid), "--duration", "1s", "-o", out.toString()),
                            ExitCode.CANNOT, out + " already exists", out).before(Files.readAllBytes(out));
                })));
    }

    private static Outcome triage(Consumer<VllmFixture> later, String series) throws Exception {
        VllmFixture f = new VllmFixture();
        f.finish(100, "stop", 0.01, 0.05, 2.0, 500, 100);
        f.kvCacheUsage = 0.3;
        int[] calls = {0};
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.createContext("/metrics", ex -> {
            byte[] body;
            synchronized (f) {
                if (calls[0]++ > 0) {
                    later.accept(f);
                }
                body = f.text().getBytes(StandardCharsets.UTF_8);
            }
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        s.start();
        try {
            Cli.Result r = Cli.run("triage", "--url", "http://127.0.0.1:" + s.getAddress().getPort(), "--window", "300ms",
                    "--interval", "100ms");
            assertFalse(r.out().contains("KV-CACHE PRESSURE"), "no verdict from an impossible value: " + r.out());
            for (String impossible : List.of("750%", "Infinity", "waiting max = -")) {
                assertFalse(r.out().contains(impossible), r.out());
            }
            return new Outcome(r, ExitCode.OK, series, null);
        } finally {
            s.stop(0);
        }
    }

    interface Abuse {
        void at(int httpPort, int grpcPort) throws Exception;
    }

    /** A capture receiving OTLP on two free ports while {@code abuse} runs; no JUL record with a stack trace meanwhile. */
    private static Outcome receiver(Path d, Abuse abuse) throws Exception {
        int http = freePort();
        int grpc = freePort();
        Path out = d.resolve("spans.vprof");
        List<LogRecord> thrown = Collections.synchronizedList(new ArrayList<>());
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getThrown() != null) {
                    thrown.add(r);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("");
        root.addHandler(h);
        try {
            CompletableFuture<Cli.Result> run = async(() -> Cli.run("capture",
                    "--otlp-http", "127.0.0.1:" + http, "--otlp-grpc", "127.0.0.1:" + grpc, "--duration", "4s",
                    "-o", out.toString()));
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!listening(http) || !listening(grpc)) {
                assertTrue(System.nanoTime() < until, "the receiver never listened");
                Thread.sleep(50);
            }
            abuse.at(http, grpc);
            Cli.Result r = run.get(50, TimeUnit.SECONDS);
            assertEquals(List.of(), thrown.stream().map(x -> x.getMessage() + ": " + x.getThrown()).toList(),
                    "nothing logged with a stack trace");
            assertTrue(Files.isRegularFile(out), "the capture is written whole");
            return new Outcome(r, ExitCode.OK, null, out);
        } finally {
            root.removeHandler(h);
        }
    }

    private static boolean listening(int port) {
        try {
            new Socket(InetAddress.getLoopbackAddress(), port).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends {@code request}; the answer (or the close) must come within a second, with {@code status} when given. */
    private static void answeredAtOnce(int port, String request, String status) throws IOException {
        answered(port, request, false, status, 1000);
    }

    /**
     * Sends {@code request} (then shuts the sending side when {@code done}: the sender has nothing
     * more); the answer, with {@code status} when given, must come within {@code withinMs}.
     */
    private static void answered(int port, String request, boolean done, String status, long withinMs) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(8000);
            long t0 = System.nanoTime();
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            if (done) {
                s.shutdownOutput();
            }
            InputStream in = s.getInputStream();
            byte[] buf = new byte[256];
            int n = in.read(buf);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(n > 0, "an answer, not only a close, after " + ms + " ms");
            assertTrue(ms < withinMs, "answered after " + ms + " ms");
            if (status != null) {
                String line = n > 0 ? new String(buf, 0, n, StandardCharsets.ISO_8859_1) : "";
                assertTrue(line.startsWith("HTTP/1.1 " + status), "answer: " + line);
            }
        }
    }

    interface WithTarget {
        Outcome run(long pid) throws Exception;
    }

    /** A process vprof is pointed at: it must still run afterwards. */
    private static Outcome target(WithTarget body) throws Exception {
        Process p = new ProcessBuilder("sleep", "60").start();
        try {
            Outcome o = body.run(p.pid());
            assertTrue(p.isAlive(), "the target still runs");
            return o;
        } finally {
            p.destroy();
        }
    }

    // ---- help text ---------------------------------------------------------------------------------

    private static Stream<Arguments> helpRows() {
        return Stream.of(
                row("help: simulate --help names vprof simulate, not vprof-simgpu", d -> {
                    // The help is the simulator's own, printed by the native process to the real
                    // stdout: run as its own JVM to read it.
                    Path log = d.resolve("help.log");
                    Process p = new ProcessBuilder(java(List.of("simulate", "--help"))).redirectErrorStream(true)
                            .redirectOutput(log.toFile()).start();
                    assertTrue(p.waitFor(40, TimeUnit.SECONDS));
                    String out = Files.readString(log);
                    assertTrue(out.startsWith("Usage: vprof simulate") && !out.contains("vprof-simgpu [OPTIONS]"), out);
                    return new Outcome(new Cli.Result(p.exitValue(), out, ""), ExitCode.OK, null, null);
                }),
                row("help: bench --help without <placeholders> of fields", d -> {
                    Cli.Result r = Cli.run("bench", "--help");
                    assertFalse(r.out().contains("<maxTokens>"), r.out());
                    return new Outcome(r, ExitCode.OK, "Usage: vprof bench", null);
                }),
                row("help: capture --help says nothing of attach under --torch-traces", d -> {
                    Cli.Result r = Cli.run("capture", "--help");
                    assertFalse(r.out().contains("With it, attach needs no agent"), r.out());
                    return new Outcome(r, ExitCode.OK, "Usage: vprof capture", null);
                }),
                row("help: the top-level help says report reads traces and nsys exports", d -> {
                    Cli.Result r = Cli.run("--help");
                    String reportLine = r.out().lines().filter(l -> l.strip().startsWith("report")).findFirst().orElse("");
                    assertTrue(reportLine.contains("PyTorch profiler traces"), reportLine);
                    return new Outcome(r, ExitCode.OK, null, null);
                }),
                row("help: selftest --help fits its width (it wrapped badly)", d -> {
                    Cli.Result r = Cli.run("selftest", "--help");
                    int width = Main.commandLine().getCommandSpec().usageMessage().width();
                    assertEquals(List.of(), r.out().lines().filter(l -> l.length() > width).toList(), "lines over " + width);
                    return new Outcome(r, ExitCode.OK, "Usage: vprof selftest", null);
                }),
                row("help: an unknown option is one usage sentence", d -> new Outcome(
                        Cli.run("report", "--no-such-option", good.toString()), ExitCode.CANNOT, "--no-such-option", null)));
    }

    // ---- signals (each its own JVM) -------------------------------------------------------------------

    private static Stream<Arguments> signalRows() {
        return Stream.of(
                row("signal: SIGINT during a report of a trace leaves no converted capture", d ->
                        interrupted(d, "INT", null, "report", TRACE.toString())),
                row("signal: SIGINT during an export of a trace", d ->
                        interrupted(d, "INT", d.resolve("e.json"), "export", TRACE.toString(), "-o", d.resolve("e.json").toString())),
                row("signal: SIGTERM during an import", d ->
                        interrupted(d, "TERM", d.resolve("i.vprof"), "import", TRACE.toString(), "-o", d.resolve("i.vprof").toString())),
                row("signal: SIGINT during a merge leaves no archive and no work folder", d ->
                        interrupted(d, "INT", d.resolve("m.tar"), "merge", "--force", good.toString(), good.toString(), "-o",
                                d.resolve("m.tar").toString())),
                row("signal: SIGINT during an import", d ->
                        interrupted(d, "INT", d.resolve("i.vprof"), "import", TRACE.toString(), "-o", d.resolve("i.vprof").toString())),
                row("signal: SIGHUP during report --html", d ->
                        interrupted(d, "HUP", d.resolve("r.html"), "report", TRACE.toString(), "--html", d.resolve("r.html").toString())),
                // A trace against itself: a diff that ends before the signal then exits OK (no change),
                // where two unlike traces exit NOT_COMPARABLE with a whole report, not one sentence.
                row("signal: SIGINT during a diff of two traces", d ->
                        interrupted(d, "INT", null, "diff", TRACE.toString(), TRACE.toString())),
                row("signal: kill -INT stops a capture whose SIGINT was inherited as ignored", d -> {
                    Path out = d.resolve("c.vprof");
                    Path log = d.resolve("c.log");
                    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
                    String cmd = "trap '' INT; exec '" + java + "' --enable-native-access=ALL-UNNAMED -Djava.io.tmpdir="
                            + System.getProperty("java.io.tmpdir") + " -cp '" + System.getProperty("java.class.path") + "' "
                            + Main.class.getName() + " capture --otlp-http 127.0.0.1:0 --otlp-grpc off -o " + out;
                    Process p = new ProcessBuilder("bash", "-c", cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                            .start();
                    try {
                        long until = System.nanoTime() + Duration.ofSeconds(40).toNanos();
                        while (!Files.readString(log).contains("listening")) {
                            assertTrue(System.nanoTime() < until && p.isAlive(), "the capture never started: "
                                    + Files.readString(log));
                            Thread.sleep(100);
                        }
                        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
                        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "kill -INT ended it");
                    } finally {
                        p.destroyForcibly();
                    }
                    String err = Files.readString(log);
                    assertTrue(Files.isRegularFile(out), "the capture is kept: " + err);
                    return new Outcome(new Cli.Result(p.exitValue(), "", err), ExitCode.OK, "Ctrl-C (SIGINT)", out);
                }));
    }

    /**
     * Runs the command as its own JVM and stops it with {@code signal} once it has read for a while;
     * a run that finished first is whole, one that was stopped leaves nothing, and says so.
     */
    private static Outcome interrupted(Path d, String signal, Path out, String... args) throws Exception {
        Path log = d.resolve("run.log");
        List<String> cmd = java(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        // Once it reads its input, vprof's handlers are in place: a signal before them finds the
        // JVM's own (143, 129) or, when this JVM came with SIGINT ignored (a background job), is lost.
        List<Path> inputs = Stream.of(args).filter(a -> !a.startsWith("-")).map(Path::of).filter(Files::exists)
                .map(Path::toAbsolutePath).toList();
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (p.isAlive() && !reads(p.pid(), inputs) && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        Thread.sleep(150); // then part of the reading
        new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(40, TimeUnit.SECONDS), "SIG" + signal + " ended it");
        Cli.Result r = new Cli.Result(p.exitValue(), "", Files.readString(log));
        if (r.code() == ExitCode.OK.code()) {
            return new Outcome(r, ExitCode.OK, null, out); // it finished first: whole, and nothing left
        }
        return new Outcome(r, ExitCode.INTERRUPTED, null, out);
    }

    /** The command line of {@code vprof ARGS} as its own JVM, with this test's classes and temporary folder. */
    private static List<String> java(List<String> args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        String nativeDir = System.getProperty("vprof.native.dir");
        if (nativeDir != null) {
            cmd.add(1, "-Dvprof.native.dir=" + nativeDir); // where the build put the simulator
        }
        cmd.addAll(args);
        return cmd;
    }

    /** Whether process {@code pid} has one of {@code inputs} (or a file in one of those folders) open. */
    private static boolean reads(long pid, List<Path> inputs) {
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    Path open = Files.readSymbolicLink(fd);
                    return inputs.stream().anyMatch(open::startsWith);
                } catch (IOException e) {
                    return false; // closed meanwhile
                }
            });
        } catch (IOException e) {
            return false; // ended, or not yet there
        }
    }

    // ---- helpers -----------------------------------------------------------------------------------

    /** Runs {@code run}, which must not wait for a writer at {@code fifo}; opening it for writing frees a stuck reader. */
    private static Cli.Result quick(Supplier<Cli.Result> run, Path fifo) {
        try {
            return assertTimeoutPreemptively(Duration.ofSeconds(10), run::get, "waited on the FIFO " + fifo);
        } finally {
            // Opened for reading and writing, a FIFO's open(2) never waits (Linux's fifo(7)); for
            // writing only it waits for a reader, forever when the command refused the FIFO, and
            // on a virtual thread that held one of the JVM's few carrier threads (open(2) is not
            // compensated), which starved every virtual thread after it, the OTLP receiver's too.
            try {
                FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE).close();
            } catch (IOException e) {
                // gone already: nobody was waiting on it
            }
        }
    }

    /** Runs {@code run} on a thread of its own (the common pool has one thread on two cores, and a capture holds it for seconds). */
    private static <T> CompletableFuture<T> async(Supplier<T> run) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                f.complete(run.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A pid no process has now (the leftovers of a killed vprof carry such a pid). */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    /** A 64 KiB tmpfs under {@code d}: a full disk, where this user may mount one (root). */
    private static Path smallDisk(Path d) throws Exception {
        assumeTrue(Posix.getuid() == 0, "mounting a small tmpfs needs root");
        Path small = Files.createDirectories(d.resolve("small"));
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", small.toString())
                .redirectErrorStream(true).start();
        String out = new String(m.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(m.waitFor() == 0, "mount -t tmpfs: " + out);
        return small;
    }

    private static void unmount(Path small) throws Exception {
        new ProcessBuilder("umount", "-l", small.toString()).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
    }

    /** Every row; {@code -Dcampaign.rows=WORDS} keeps those whose name contains WORDS (to rerun a few while fixing them). */
    static Stream<Arguments> rows() {
        String only = System.getProperty("campaign.rows", "");
        return Stream.of(captureRows(), traceRows(), nsysRows(), outputRows(), diffAndMergeRows(), networkRows(),
                helpRows(), signalRows()).flatMap(s -> s).filter(a -> ((String) a.get()[0]).contains(only));
    }
}
