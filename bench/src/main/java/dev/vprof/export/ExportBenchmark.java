package dev.vprof.export;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Export speed and size on one synthetic timeline of 1 M kernels ({@link BenchTimeline#kernels}, no API
 * calls so no flows).
 *
 * <p>One operation is one kernel: scores are kernels per second. A kernel in Perfetto is one slice,
 * i.e. two TrackEvent packets (begin and end); in Chrome JSON it is one {@code X} event. Output goes
 * to a byte counter, so disk speed is not measured; bytes per kernel are printed at the end of each
 * trial ("bytes/kernel"). Run:
 * {@code java -jar bench/target/benchmarks.jar ExportBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ExportBenchmark {
    static final int KERNELS = 1_000_000;

    BenchTimeline timeline;
    final CountingSink sink = new CountingSink();
    long runs;

    @Setup(Level.Trial)
    public void build() {
        timeline = BenchTimeline.kernels(KERNELS, i -> "void at::native::elementwise_kernel<128, 4, kernel_" + i + ">(int, F)",
                false);
    }

    @Setup(Level.Iteration)
    public void resetCounter() {
        sink.bytes = 0;
        runs = 0;
    }

    @TearDown(Level.Iteration)
    public void report() {
        if (runs > 0) {
            System.out.printf("%n    bytes/kernel = %.2f (%d bytes per run)%n", (double) sink.bytes / runs / KERNELS, sink.bytes / runs);
        }
    }

    @Benchmark
    @OperationsPerInvocation(KERNELS)
    public long perfettoLean() throws IOException {
        runs++;
        return new PerfettoWriter(PerfettoWriter.Options.lean()).write(timeline, sink).bytes();
    }

    @Benchmark
    @OperationsPerInvocation(KERNELS)
    public long perfettoWithArgs() throws IOException {
        runs++;
        return new PerfettoWriter(PerfettoWriter.Options.defaults()).write(timeline, sink).bytes();
    }

    @Benchmark
    @OperationsPerInvocation(KERNELS)
    public long perfettoLeanUncompressed() throws IOException {
        runs++;
        return new PerfettoWriter(PerfettoWriter.Options.lean().uncompressed()).write(timeline, sink).bytes();
    }

    @Benchmark
    @OperationsPerInvocation(KERNELS)
    public long chromeJson() throws IOException {
        runs++;
        return new ChromeJsonWriter().write(timeline, sink).bytes();
    }

    /** Counts bytes and drops them. */
    static final class CountingSink extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
