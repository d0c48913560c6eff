package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.cli.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Perfetto trace that {@code vprof demo} writes, read back with a protobuf decoder: the
 * tracks a person opens it for are there, with the right parents.
 */
@Timeout(180)
class DemoTraceTest {
    @TempDir
    Path dir;

    @Test
    void theDemoTraceHasProcessDeviceStreamRangeRequestAndMetricTracks() throws Exception {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native"));
        assertTrue(Files.isExecutable(nat.resolve("vprof-simgpu")), "the native build is missing: mvn -B verify builds it");
        Cli.Result demo = Cli.ok("demo", "--dir", dir.toString(), "--steady", "8", "--rate", "8", "--burst", "24", "--max-tokens", "12");

        byte[] bytes = Files.readAllBytes(dir.resolve("trace.pftrace"));
        PerfettoTraceReader r = PerfettoTraceReader.read(bytes);
        assertTrue(r.compressedPackets > 0, "the demo's trace uses DEFLATE-compressed packets");

        // One process track per GPU worker, each with its own GPU (worker i on GPU i, as vLLM's
        // tensor-parallel workers), that GPU's streams, and its capture range.
        List<PerfettoTraceReader.Track> workers = r.tracks.values().stream()
                .filter(t -> t.pid() != null && t.tid() == null && t.processName() != null
                        && t.processName().contains("vprof-simgpu"))
                .toList();
        assertEquals(2, workers.size(), "two GPU workers: " + r.tracks.values());
        Set<String> gpusUsed = new java.util.HashSet<>();
        for (PerfettoTraceReader.Track w : workers) {
            List<PerfettoTraceReader.Track> children = r.children(w.uuid());
            // "GPU N (NVIDIA H200 ...)" once the agent sent the device's properties
            List<PerfettoTraceReader.Track> busy = children.stream()
                    .filter(t -> t.name() != null && t.name().startsWith("GPU ") && !r.children(t.uuid()).isEmpty())
                    .toList();
            assertEquals(1, busy.size(), "one GPU with streams under " + w + ": " + children);
            PerfettoTraceReader.Track gpu = busy.getFirst();
            gpusUsed.add(gpu.name().split(" ")[1]);
            List<PerfettoTraceReader.Track> streams = r.children(gpu.uuid());
            assertTrue(streams.size() >= 2, "several streams under " + gpu.name() + ": " + streams);
            long kernels = streams.stream().mapToLong(s -> r.slices(s.uuid()).size()).sum();
            assertTrue(kernels > 0, "kernels on the streams of " + w);
            assertTrue(children.stream().anyMatch(t -> "Capture ranges".equals(t.name())), "a capture-range track");
        }
        assertEquals(Set.of("0", "1"), gpusUsed, "each worker on its own GPU");

        // Requests on lanes, each llm_request with queue, prefill and decode children.
        PerfettoTraceReader.Track requests = r.trackNamed("Requests");
        List<PerfettoTraceReader.Slice> onLanes = r.children(requests.uuid()).stream()
                .flatMap(l -> r.slices(l.uuid()).stream()).toList();
        long llmRequests = onLanes.stream().filter(s -> s.name().equals("llm_request") && s.depth() == 0).count();
        assertEquals(8 + 24, llmRequests, "one llm_request per request sent; the demo said:\n" + demo.out() + demo.err());
        Set<String> phases = onLanes.stream().filter(s -> s.depth() == 1).map(PerfettoTraceReader.Slice::name)
                .collect(Collectors.toSet());
        assertEquals(Set.of("queue", "prefill", "decode"), phases);
        assertTrue(r.children(requests.uuid()).size() > 1, "overlapping requests need several lanes");

        // Counter tracks for a gauge, a counter rate and a histogram quantile, under Metrics.
        PerfettoTraceReader.Track metrics = r.trackNamed("Metrics");
        Set<String> counters = r.children(metrics.uuid()).stream().filter(PerfettoTraceReader.Track::counter)
                .map(PerfettoTraceReader.Track::name).collect(Collectors.toSet());
        assertTrue(counters.contains("vllm:num_requests_waiting"), counters.toString());
        assertTrue(counters.stream().anyMatch(n -> n.startsWith("vllm:generation_tokens") && n.contains("rate")), counters.toString());
        assertTrue(counters.stream().anyMatch(n -> n.startsWith("vllm:time_to_first_token_seconds p99")), counters.toString());
        assertFalse(r.events.isEmpty());
    }
}
