package dev.vprof.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A real PyTorch profiler trace (HTA's A100 control trace, 34.8 MB of JSON once decompressed,
 * read from the page cache) imported into a {@code .vprof}: parse, convert, spill and write, the
 * whole of {@link TorchTraceImport#write}. The score is ms per import; MB/s of JSON is the JSON's
 * size (printed at setup) over it. Target 150 MB/s. {@code cpuOps=false} is {@code --no-cpu-ops}.
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * bench/scripts/jmh.sh TorchTraceImportBenchmark      (from the repository root: it reads fixtures/real)
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx256m"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TorchTraceImportBenchmark {

    @Param({"true", "false"})
    public boolean cpuOps;

    private Path dir;
    private Path json;
    private Path out;

    @Setup(Level.Trial)
    public void decompress() throws IOException {
        Path src = Path.of(System.getProperty("vprof.trace", "fixtures/real/hta/trace_diff/control/control.json.gz"));
        dir = Files.createTempDirectory("vprof-trace-bench");
        json = dir.resolve("trace.json");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(src))) {
            Files.copy(in, json);
        }
        out = dir.resolve("trace.vprof");
        System.out.println("trace: " + src + ", " + Files.size(json) + " bytes of JSON");
    }

    @Benchmark
    public long importTrace() throws IOException {
        TorchTraceImport.Result r = TorchTraceImport.write(out, List.of(json),
                new TorchTraceOptions(TorchTraceOptions.DEFAULT_MAX_BYTES, cpuOps), List.of());
        return r.kernels();
    }

    @TearDown(Level.Trial)
    public void remove() throws IOException {
        Files.deleteIfExists(out);
        Files.deleteIfExists(json);
        Files.deleteIfExists(dir);
    }
}
