package dev.vprof.export;

import dev.vprof.export.sqlite.SqliteWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Rows per second into the SQLite export's file: the sink alone (the walk of a timeline in memory,
 * the big tables' B-tree pages, SQLite's steps for the schema and the small tables, the file on
 * disk), on 1 M kernels ({@link BenchTimeline#kernels}, mangled names the sink demangles), with a
 * runtime launch call per kernel or without ({@code launches}). One operation is one kernel: scores
 * are kernels per second of wall time (with launches, each kernel is two rows). After each iteration
 * it prints the file's bytes per kernel and kernels per second of the writing thread's CPU time: on a
 * shared, loaded machine the wall score counts the time other processes held the core, the CPU
 * figure does not. With {@code -Dvprof.bench.keep=FILE} the last file is kept there, for
 * {@code bench/scripts/sqlite-vs-sqlite3.sh} to have Debian's sqlite3 load the same rows.
 * Run: {@code bench/scripts/jmh.sh SqliteExportBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
public class SqliteExportBenchmark {
    static final int KERNELS = 1_000_000;
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Param({"false", "true"})
    boolean launches;

    BenchTimeline timeline;
    Path dir;
    long bytes;
    long runs;
    long cpuNs;

    @Setup(Level.Trial)
    public void build() throws IOException {
        dir = Files.createTempDirectory("vprof-sqlite-bench");
        timeline = BenchTimeline.kernels(KERNELS, i -> "_ZN2at6native18elementwise_kernelILi128ELi4EZ" + i + "EEviT1_", launches);
    }

    @Setup(Level.Iteration)
    public void reset() {
        bytes = 0;
        runs = 0;
        cpuNs = 0;
    }

    @TearDown(Level.Iteration)
    public void report() {
        if (runs > 0) {
            System.out.printf("%n    bytes/kernel = %.2f (%d bytes per file); kernels/s of CPU = %.0f%n",
                    (double) bytes / runs / KERNELS, bytes / runs, runs * (double) KERNELS / (cpuNs / 1e9));
        }
    }

    @TearDown(Level.Trial)
    public void clean() throws IOException {
        Path last = dir.resolve("b.sqlite");
        String keep = System.getProperty("vprof.bench.keep");
        if (keep != null && Files.exists(last)) {
            Files.move(last, Path.of(keep + (launches ? "-launches" : "") + ".sqlite"), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.deleteIfExists(last);
        Files.deleteIfExists(dir);
    }

    /** The previous file goes before the timed call: removing 75 MB is the file system's time, not the export's. */
    @Setup(Level.Invocation)
    public void removeLast() throws IOException {
        Files.deleteIfExists(dir.resolve("b.sqlite"));
    }

    @Benchmark
    @OperationsPerInvocation(KERNELS)
    public long sqlite() throws IOException {
        Path out = dir.resolve("b.sqlite");
        long cpu = THREADS.getCurrentThreadCpuTime();
        SqliteWriter.Stats s = SqliteWriter.write(timeline, out, SqliteWriter.Facts.none());
        cpuNs += THREADS.getCurrentThreadCpuTime() - cpu;
        runs++;
        bytes += s.bytes();
        return s.kernels();
    }
}
