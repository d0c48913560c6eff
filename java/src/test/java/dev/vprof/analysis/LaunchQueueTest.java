package dev.vprof.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.source.CaptureSources;
import dev.vprof.trace.TraceOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The launch-to-start delay per stream of a real trace against the trace's own JSON: each kernel
 * joined here to the {@code cuda_runtime} launch call with its correlation id.
 */
class LaunchQueueTest {
    @Test
    void eachStreamsDelaysEqualTheTracesLaunchToStartTimes() throws Exception {
        Path trace = TraceOracle.REAL.resolve("hta/trace_filter/sampled_rank-0.json.gz");
        JsonNode events = TraceOracle.tree(trace).get("traceEvents");
        Map<Long, Long> launch = new HashMap<>();
        for (JsonNode e : events) {
            if (e.path("cat").asText().equals("cuda_runtime") && e.path("name").asText().contains("Launch")) {
                launch.put(e.path("args").path("correlation").asLong(), TraceOracle.ns(e.get("ts")));
            }
        }
        Map<Integer, List<Long>> byStream = new TreeMap<>();
        for (JsonNode e : events) {
            if (e.path("cat").asText().equals("kernel") && e.path("ph").asText().equals("X")) {
                Long l = launch.get(e.path("args").path("correlation").asLong());
                if (l != null) {
                    byStream.computeIfAbsent(e.path("args").path("stream").asInt(), s -> new ArrayList<>())
                            .add(TraceOracle.ns(e.get("ts")) - l);
                }
            }
        }
        assertTrue(!byStream.isEmpty(), "the trace has launches");
        Analyses.Result r;
        try (CaptureReader reader = CaptureSources.open(trace)) {
            r = Analyses.run(reader, KernelNames.demangled());
        }
        Map<Integer, LaunchQueue.Row> got = new TreeMap<>();
        for (LaunchQueue.Row row : r.launches().rows()) {
            got.put(row.stream(), row);
        }
        assertEquals(byStream.keySet(), got.keySet(), "the same streams");
        for (Map.Entry<Integer, List<Long>> e : byStream.entrySet()) {
            List<Long> d = e.getValue();
            Collections.sort(d);
            SummaryStats s = got.get(e.getKey()).delays();
            assertEquals(d.size(), s.count(), "stream " + e.getKey());
            assertEquals(d.getFirst(), s.min(), "min of stream " + e.getKey());
            assertEquals(d.getLast(), s.max(), "max of stream " + e.getKey());
            long median = d.get((d.size() + 1) / 2 - 1);
            if (s.exact()) {
                assertEquals(median, s.median(), "median of stream " + e.getKey());
            } else { // past 1024 kernels of a stream: the log histogram's bound
                assertEquals((double) median, (double) s.median(), 0.004 * median + 1, "median of stream " + e.getKey());
            }
            assertEquals(d.stream().mapToLong(Long::longValue).sum(), s.total(), "total of stream " + e.getKey());
        }
    }
}
