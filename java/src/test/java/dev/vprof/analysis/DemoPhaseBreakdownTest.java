package dev.vprof.analysis;

import static dev.vprof.analysis.IntervalOracle.intersect;
import static dev.vprof.analysis.IntervalOracle.length;
import static dev.vprof.analysis.IntervalOracle.union;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.cli.Cli;
import dev.vprof.otlp.Span;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The phase breakdown of the demo's capture (two GPU workers under the real agent, the simulated
 * server's llm_request spans) as {@code vprof report --section phases --json} prints it, against a
 * tally made here: the phases laid from each span's own latency attributes, the slowest 10 % of
 * requests by the span's length, and per worker and GPU the kernel, copy and set records of the
 * file clipped to the phases and unioned by the interval arithmetic below. Exact to the ns.
 */
@Timeout(180)
class DemoPhaseBreakdownTest {
    @TempDir
    Path dir;

    private static final String[] COLLECTIVES = {
        "nccl", "all_reduce", "allreduce", "cross_device_reduce", "all_gather", "allgather",
        "reduce_scatter", "reducescatter", "all_to_all", "alltoall"
    };

    private record Lane(int pid, int device) {}

    /** Per lane: compute kernels, communication kernels, copies and sets; epoch ns. */
    private record Work(List<long[]> compute, List<long[]> comm, List<long[]> memory) {
        Work() {
            this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }
    }

    @Test
    void theSlowestRequestsPhaseBreakdownAgreesWithTheKernelRecordsInsideThem() throws Exception {
        Path demo = dir.resolve("demo");
        Cli.smallDemo(demo);
        Path capture = demo.resolve("capture.vprof");

        Map<String, List<long[]>> phases = new HashMap<>();
        Map<String, Integer> requests = new HashMap<>();
        Map<Lane, Work> work = new HashMap<>();
        try (CaptureReader reader = CaptureReader.open(capture)) {
            List<Span> reqs = new ArrayList<>(reader.spans().spans().stream()
                    .filter(s -> s.name().equals("llm_request")).toList());
            assertTrue(reqs.size() >= 20, "the demo's requests: " + reqs.size());
            // Slowest first; a stable sort keeps the file's order among equals.
            reqs.sort(Comparator.comparingLong((Span s) -> s.endEpochNs() - s.startEpochNs()).reversed());
            int slow = (int) Math.ceil(reqs.size() * 0.10);
            for (int i = 0; i < reqs.size(); i++) {
                long[][] pd = prefillAndDecode(reqs.get(i));
                String who = i < slow ? "slowest" : "rest";
                phases.computeIfAbsent(who + " prefill", k -> new ArrayList<>()).add(pd[0]);
                phases.computeIfAbsent(who + " decode", k -> new ArrayList<>()).add(pd[1]);
                requests.merge(who + " prefill", 1, Integer::sum);
                requests.merge(who + " decode", 1, Integer::sum);
            }
            Map<Integer, ClockMapping> clocks = reader.clocks();
            reader.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                    assertNotNull(desc, "the agent records each kernel's device");
                    Work w = work.computeIfAbsent(new Lane(pid, desc.deviceId()), l -> new Work());
                    (isCollective(name) ? w.comm() : w.compute()).add(epoch(clocks, pid, start, end));
                }

                @Override
                public void memcpy(int pid, MemcpyEvent m) {
                    work.computeIfAbsent(new Lane(pid, m.deviceId()), l -> new Work()).memory()
                            .add(epoch(clocks, pid, m.start(), m.end()));
                }

                @Override
                public void memset(int pid, MemsetEvent m) {
                    work.computeIfAbsent(new Lane(pid, m.deviceId()), l -> new Work()).memory()
                            .add(epoch(clocks, pid, m.start(), m.end()));
                }
            });
        }
        assertEquals(2, work.size(), "the demo's two workers, a GPU each: " + work.keySet());

        Cli.Result json = Cli.run("report", capture.toString(), "--section", "phases", "--json");
        assertEquals(0, json.code(), json.err());
        JsonNode rows = new ObjectMapper().readTree(json.out()).path("phases").path("rows");
        assertEquals(10.0, new ObjectMapper().readTree(json.out()).path("phases").path("slow_percent").asDouble());
        Set<String> seen = new HashSet<>();
        for (JsonNode row : rows) {
            String phase = row.path("phase").asText();
            Lane lane = new Lane(row.path("pid").asInt(), row.path("device").asInt());
            Work w = work.get(lane);
            assertNotNull(w, "a row of a lane the file has: " + row);
            assertTrue(seen.add(phase + " " + lane), "one row per phase and lane: " + row);
            List<long[]> window = union(phases.get(phase));
            long length = length(window);
            List<long[]> compute = intersect(union(w.compute()), window);
            List<long[]> comm = intersect(union(w.comm()), window);
            List<long[]> kernels = union(concat(compute, comm));
            List<long[]> all = union(concat(kernels, intersect(union(w.memory()), window)));
            String at = phase + " on " + lane;
            assertEquals(requests.get(phase).intValue(), row.path("requests").asInt(), at + ": requests");
            assertEquals(length, row.path("length_ns").asLong(), at + ": the phases' length");
            assertEquals(length(compute), row.path("compute_ns").asLong(), at + ": compute");
            assertEquals(length(kernels) - length(compute), row.path("communication_ns").asLong(),
                    at + ": communication not under compute");
            assertEquals(length(all) - length(kernels), row.path("memory_ns").asLong(), at + ": memory under neither");
            assertEquals(length - length(all), row.path("idle_ns").asLong(), at + ": idle");
            assertEquals(length(intersect(compute, comm)), row.path("overlap_ns").asLong(), at + ": overlap");
            assertTrue(length(compute) > 0, at + ": kernels ran inside");
        }
        // Every phase set on both workers: the slowest requests' prefill and decode included.
        Set<String> expected = new HashSet<>();
        for (String phase : List.of("slowest prefill", "slowest decode", "rest prefill", "rest decode")) {
            for (Lane lane : work.keySet()) {
                expected.add(phase + " " + lane);
            }
        }
        assertEquals(expected, seen);
    }

    /**
     * Prefill and decode of one request as its attributes place them (seconds): the engine's queue,
     * prefill and decode follow each other, and the first token comes at the span's start + ttft, so
     * whatever ttft holds beyond queue + prefill comes before the queue (HTTP, tokenization); phases
     * that would run past the span's end are moved earlier into that time first, then cut at the end.
     */
    private static long[][] prefillAndDecode(Span s) {
        long start = s.startEpochNs();
        long end = s.endEpochNs();
        long queue = ns(s, "gen_ai.latency.time_in_queue");
        long prefill = ns(s, "gen_ai.latency.time_in_model_prefill");
        long decode = ns(s, "gen_ai.latency.time_in_model_decode");
        long ttft = ns(s, "gen_ai.latency.time_to_first_token");
        long before = Math.max(0, ttft - queue - prefill);
        long past = start + before + queue + prefill + decode - end;
        before -= Math.max(0, Math.min(before, past));
        long prefillStart = start + before + queue;
        long decodeStart = prefillStart + prefill;
        long decodeEnd = decodeStart + decode;
        assertTrue(decodeEnd <= end, "the demo's phases fit their span: " + s);
        return new long[][] {{prefillStart, decodeStart}, {decodeStart, decodeEnd}};
    }

    private static long ns(Span s, String key) {
        assertNotNull(s.attribute(key), key + " on " + s);
        return Math.round(s.attribute(key).asDouble() * 1e9);
    }

    private static boolean isCollective(String name) {
        String n = name == null ? "" : name.toLowerCase(Locale.ROOT);
        for (String c : COLLECTIVES) {
            if (n.contains(c)) {
                return true;
            }
        }
        return false;
    }

    private static long[] epoch(Map<Integer, ClockMapping> clocks, int pid, long start, long end) {
        ClockMapping c = clocks.getOrDefault(pid, ClockMapping.identity());
        return new long[] {c.toEpochNs(start), c.toEpochNs(Math.max(start, end))};
    }

    private static List<long[]> concat(List<long[]> a, List<long[]> b) {
        List<long[]> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
