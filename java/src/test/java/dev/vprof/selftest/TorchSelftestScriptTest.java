package dev.vprof.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * torch_selftest.py's logic without PyTorch: the script runs against a stand-in `torch` package
 * (test resources, torchstub/) that logs every call, so the order of torch.profiler runs and
 * cudaProfilerStart/Stop, what each counts, and the JSON the self-test reads are checked here.
 * The script must also compile (python3 -m py_compile).
 */
class TorchSelftestScriptTest {
    @TempDir
    Path dir;

    private Path script;
    private Path log;

    @BeforeEach
    void copyTheScriptAndTheStub() throws Exception {
        assumeTrue(Toolchain.onPath("python3") != null, "no python3 on this machine");
        script = dir.resolve("torch_selftest.py");
        try (InputStream in = GpuSelftest.class.getResourceAsStream("/dev/vprof/selftest/torch_selftest.py")) {
            Files.copy(in, script);
        }
        for (String f : List.of("torch/__init__.py", "torch/profiler.py", "sitecustomize.py")) {
            Path to = dir.resolve("stub").resolve(f);
            Files.createDirectories(to.getParent());
            try (InputStream in = getClass().getResourceAsStream("torchstub/" + f)) {
                Files.copy(in, to);
            }
        }
        log = dir.resolve("calls.log");
    }

    private SelfCli.Result run(String mode) throws Exception {
        return SelfCli.run(List.of("python3", script.toString(), mode),
                Map.of("PYTHONPATH", dir.resolve("stub").toString(), "TORCH_STUB_LOG", log.toString()), 60, dir, mode);
    }

    /** The log without the kernels: the order of what the script did. */
    private List<String> steps() throws Exception {
        return Files.readAllLines(log).stream().filter(l -> !l.startsWith("kernel ") && !l.equals("synchronize")
                && !l.startsWith("manual_seed")).toList();
    }

    /** Kernels logged between each begin and the end that follows it. */
    private List<Integer> kernelsBetween(String begin, String end) throws Exception {
        List<Integer> out = new ArrayList<>();
        int n = -1;
        for (String l : Files.readAllLines(log)) {
            if (l.equals(begin)) {
                n = 0;
            } else if (l.equals(end) && n >= 0) {
                out.add(n);
                n = -1;
            } else if (n >= 0 && l.startsWith("kernel ") && !l.startsWith("kernel Memcpy")) {
                n++;
            }
        }
        return out;
    }

    @Test
    void theScriptCompiles() throws Exception {
        SelfCli.Result r = SelfCli.run(List.of("python3", "-m", "py_compile", script.toString()), Map.of(), 60, dir,
                "py_compile");
        assertEquals(0, r.exitCode(), r.stderr());
    }

    @Test
    void vprofModeBracketsOneWorkloadWithTheProfilerApi() throws Exception {
        SelfCli.Result r = run("vprof");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals(List.of("cudaProfilerStart", "cudaProfilerStop"), steps());
        assertEquals(List.of(60), kernelsBetween("cudaProfilerStart", "cudaProfilerStop"));
        assertEquals("vprof", r.lastJsonLine().path("mode").asText());
    }

    @Test
    void torchModeCountsKernelsOnlyNotCopiesOrSets() throws Exception {
        SelfCli.Result r = run("torch");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals(List.of("profile enter", "profile exit"), steps());
        JsonNode k = r.lastJsonLine().path("kernels");
        assertEquals(3, k.size(), k.toString());
        assertEquals(20, k.path("sgemm").asInt());
        assertEquals(20, k.path("silu").asInt());
        assertEquals(20, k.path("layer_norm").asInt());
    }

    @Test
    void sameProcessRunsTorchProfilerBeforeARangeThenInsideTheNext() throws Exception {
        SelfCli.Result r = run("same-process");
        assertEquals(0, r.exitCode(), r.stderr());
        // Each range begins after the previous one's drain window (2 s) has passed.
        assertEquals(List.of("profile enter", "profile exit", "cudaProfilerStart", "cudaProfilerStop", "sleep 2.5",
                "cudaProfilerStart", "profile enter", "profile exit", "cudaProfilerStop", "sleep 2.5"), steps());
        assertEquals(List.of(60, 60), kernelsBetween("cudaProfilerStart", "cudaProfilerStop"));
        assertEquals(List.of(60, 60), kernelsBetween("profile enter", "profile exit"));
        JsonNode j = r.lastJsonLine();
        assertEquals(60, TorchCheck.total(j.path("torch_before")));
        assertEquals(60, TorchCheck.total(j.path("torch_during")));
    }
}
