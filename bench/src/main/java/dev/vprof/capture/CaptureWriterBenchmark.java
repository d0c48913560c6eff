package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
 * Records per second that {@link CaptureWriter#records} takes in: 32-byte KERNEL records,
 * copied from a MemorySegment (as the drain does from the ring) into RECORDS chunks with
 * their CRC32C, and written with a FileChannel. The scores are records/s. Target 20 M/s.
 *
 * <p>{@code target=file} writes a real file in java.io.tmpdir (page cache; about 640 MB a
 * second at target speed, deleted after each iteration); {@code target=devnull} measures
 * the writer without the file system.
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * java --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar CaptureWriterBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CaptureWriterBenchmark {

    private static final int MAX_BATCH = 4096;

    @Param({"file", "devnull"})
    public String target;

    private MemorySegment ring;
    private CaptureWriter writer;
    private Path path;

    @Setup(Level.Trial)
    public void fillRing() {
        ring = Arena.ofAuto().allocate(MAX_BATCH * VprofRing.KernelRecord.SIZE, 8);
        for (int i = 0; i < MAX_BATCH; i++) {
            long at = i * VprofRing.KernelRecord.SIZE;
            ring.set(ValueLayout.JAVA_INT, at + VprofRing.RecordHeader.LENGTH, (int) VprofRing.KernelRecord.SIZE);
            ring.set(ValueLayout.JAVA_INT, at + VprofRing.RecordHeader.TYPE, (int) VprofRing.REC_KERNEL);
            ring.set(ValueLayout.JAVA_LONG, at + VprofRing.KernelRecord.START, 1_000_000L * i);
            ring.set(ValueLayout.JAVA_LONG, at + VprofRing.KernelRecord.END, 1_000_000L * i + 5_000);
            ring.set(ValueLayout.JAVA_INT, at + VprofRing.KernelRecord.CORRELATION_ID, i);
            ring.set(ValueLayout.JAVA_INT, at + VprofRing.KernelRecord.DESC_ID, 1 + i % 100);
        }
    }

    @Setup(Level.Iteration)
    public void openWriter() throws IOException {
        path = target.equals("devnull") ? Path.of("/dev/null") : Files.createTempFile("vprof-bench", ".vprof");
        writer = CaptureWriter.create(path,
                new CaptureMetadata("bench", 0, "bench", List.of(), Map.of()));
    }

    @TearDown(Level.Iteration)
    public void closeWriter() throws IOException {
        writer.close();
        if (!target.equals("devnull")) {
            Files.deleteIfExists(path);
        }
    }

    /** A drain that finds 64 records at a time (a lightly loaded ring). */
    @Benchmark
    @OperationsPerInvocation(64)
    public void records64() throws IOException {
        writer.records(1, ring, 0, 64 * VprofRing.KernelRecord.SIZE);
    }

    /** A drain that finds 4096 records at a time (128 KiB: a busy ring). */
    @Benchmark
    @OperationsPerInvocation(MAX_BATCH)
    public void records4096() throws IOException {
        writer.records(1, ring, 0, MAX_BATCH * VprofRing.KernelRecord.SIZE);
    }
}
