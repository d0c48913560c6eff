package dev.vprof.export;

import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * SQLite's prepared batches in one transaction, the indexes after the load, the file on disk), on
 * 1 M kernels (4 streams of one GPU, 16 kernel names, grid and block set), with a runtime launch
 * call per kernel or without ({@code launches}). One operation is one kernel: scores are kernels per
 * second of wall time (with launches, each kernel is two rows). After each iteration it prints the
 * file's bytes per kernel and kernels per second of the writing thread's CPU time (SQLite runs on
 * that thread): on a shared, loaded machine the wall score counts the time other processes held
 * the core, the CPU figure does not. Run: {@code bench/scripts/jmh.sh SqliteExportBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
public class SqliteExportBenchmark {
    static final int KERNELS = 1_000_000;
    static final long T0 = 1_735_689_600_000_000_123L;

    @Param({"false", "true"})
    boolean launches;

    BenchTimeline timeline;
    Path dir;
    long bytes;
    long runs;
    long cpuNs;
    static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    @Setup(Level.Trial)
    public void build() throws IOException {
        dir = Files.createTempDirectory("vprof-sqlite-bench");
        timeline = new BenchTimeline();
        GpuDevice gpu = timeline.layout().process(1, "bench", java.util.List.of("bench")).device(0);
        CpuThread host = timeline.layout().process(1).thread(1);
        int launch = timeline.layout().intern("cudaLaunchKernel");
        int[] names = new int[16];
        for (int i = 0; i < names.length; i++) {
            names[i] = timeline.layout().intern("_ZN2at6native18elementwise_kernelILi128ELi4EZ" + i + "EEviT1_");
        }
        long[] cursor = {T0, T0, T0, T0};
        for (int i = 0; i < KERNELS; i++) {
            int s = i & 3;
            long dur = 2_000 + (i * 7919L) % 30_000;
            long start = cursor[s] + 300 + (i * 104729L) % 2_000;
            timeline.kernel(gpu.stream(s + 7), names[(i >>> 2) & 15], start, start + dur, i + 1,
                    108 + (i & 7), 1, 1, 256, 1, 1, 64, 0);
            if (launches) {
                timeline.apiCall(host, ApiKind.RUNTIME, launch, start - 5_000, start - 3_000, i + 1, 211);
            }
            cursor[s] = start + dur;
        }
        timeline.sorted();
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
        Files.deleteIfExists(dir.resolve("b.sqlite"));
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
