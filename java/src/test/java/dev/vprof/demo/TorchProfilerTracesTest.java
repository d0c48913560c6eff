package dev.vprof.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated torch profiler writes, through vprof's Kineto writer, what a real PyTorch trace
 * has: the top level (distributedInfo with its backend, deviceProperties, baseTimeNanoseconds, the
 * versions), and per step an annotation, each kernel's launch and args as Kineto writes them
 * (External id, queued, occupancy...), linked by correlation. Read back as a plain Jackson tree.
 */
class TorchProfilerTracesTest {
    @TempDir
    Path dir;

    @Test
    void eachWorkersTraceHasWhatARealOneHas() throws IOException {
        long t0 = 1_700_000_000_123_000_000L;
        TorchProfilerTraces p = new TorchProfilerTraces(dir, List.of(4242L, 4243L));
        p.start(t0);
        p.step(new TorchProfilerTraces.Step(t0 + 1_000_000, 5_000_000, 2, 300, 6));
        p.step(new TorchProfilerTraces.Step(t0 + 7_000_000, 4_000_000, 0, 0, 8));
        List<Path> files = p.stop(t0 + 20_000_000);
        assertEquals(2, files.size());
        JsonNode root = TraceOracle.tree(files.get(1));
        assertEquals("nccl", root.get("distributedInfo").get("backend").asText());
        assertEquals(1, root.get("distributedInfo").get("rank").asInt());
        assertEquals(2, root.get("distributedInfo").get("world_size").asInt());
        assertEquals(1_700_000_000_000_000_000L, root.get("baseTimeNanoseconds").asLong());
        assertEquals(132, root.get("deviceProperties").get(0).get("numSms").asInt());
        assertEquals(26, root.get("cupti_version").asInt());
        long kernels = 0;
        long steps = 0;
        long launches = 0;
        for (JsonNode e : root.get("traceEvents")) {
            switch (e.path("cat").asText()) {
                case "kernel" -> {
                    kernels++;
                    JsonNode a = e.get("args");
                    for (String k : List.of("External id", "queued", "device", "context", "stream", "correlation",
                            "registers per thread", "shared memory", "blocks per SM", "warps per SM", "grid", "block",
                            "est. achieved occupancy %")) {
                        assertTrue(a.has(k), k + " in " + e);
                    }
                    assertEquals(1, e.get("pid").asInt(), "a kernel's pid is its device");
                }
                case "user_annotation" -> steps++;
                case "cuda_runtime" -> launches++;
                default -> { }
            }
        }
        assertEquals(2, steps);
        assertEquals(kernels + 2, launches, "a launch per kernel and per step's copy");
        assertTrue(kernels > 0);
    }
}
