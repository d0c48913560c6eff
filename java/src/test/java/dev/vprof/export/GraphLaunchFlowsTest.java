package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.export.PerfettoTraceReader.Slice;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.Timeline;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A CUDA graph launch is one API call whose node kernels all carry its correlation id: the
 * exports draw a flow from the launch to each node kernel (Correlations numbers them), not one.
 */
class GraphLaunchFlowsTest {
    private static final long T0 = 1_700_000_000_000_000_000L;

    /** cudaGraphLaunch (corr 500) with 3 node kernels, and a plain launch (corr 501). */
    static ListTimeline graphLaunch() {
        ListTimeline t = new ListTimeline();
        CpuThread main = t.process(10).thread(10);
        t.apiCall(main, ApiKind.RUNTIME, t.intern("cudaGraphLaunch"), T0, T0 + 500, 500, 311);
        t.apiCall(main, ApiKind.RUNTIME, t.intern("cudaLaunchKernel"), T0 + 600, T0 + 700, 501, 211);
        GpuStream s = t.process(10).device(0).stream(7);
        for (int n = 0; n < 3; n++) {
            t.kernel(s, t.intern("node_" + n), T0 + 1_000 + n * 1_000L, T0 + 1_900 + n * 1_000L, 500,
                    1, 1, 1, 32, 1, 1, 16, 0);
        }
        t.kernel(s, t.intern("eager"), T0 + 5_000, T0 + 5_500, 501, 1, 1, 1, 32, 1, 1, 16, 0);
        return t;
    }

    @Test
    void chromeExportDrawsOneFlowFromTheGraphLaunchToEachNodeKernel() throws IOException {
        JsonNode root = ChromeJsonWriterTest.write(graphLaunch());
        List<JsonNode> starts = ChromeJsonWriterTest.events(root, e -> "s".equals(e.get("ph").asText()));
        List<JsonNode> ends = ChromeJsonWriterTest.events(root, e -> "f".equals(e.get("ph").asText()));
        assertEquals(4, starts.size(), "3 from cudaGraphLaunch, 1 from cudaLaunchKernel");
        assertEquals(4, ends.size());
        Set<Long> startIds = new HashSet<>();
        starts.forEach(e -> startIds.add(e.get("id").asLong()));
        Set<Long> endIds = new HashSet<>();
        ends.forEach(e -> endIds.add(e.get("id").asLong()));
        assertEquals(4, startIds.size(), "each node kernel has its own flow");
        assertEquals(startIds, endIds);
        long fromGraphLaunch = starts.stream().filter(e -> ChromeJsonWriterTest.ns(e.get("ts")) == 0).count();
        assertEquals(3, fromGraphLaunch);
    }

    @Test
    void perfettoExportDrawsOneFlowFromTheGraphLaunchToEachNodeKernel() throws IOException {
        PerfettoTraceReader r = PerfettoWriterTest.roundTrip(graphLaunch(), PerfettoWriter.Options.defaults());
        List<Slice> api = r.slices(r.trackNamed("CUDA API (10)").uuid());
        List<Slice> stream = r.slices(r.trackNamed("Stream 7").uuid());
        assertEquals(3, api.getFirst().flows().size(), "cudaGraphLaunch starts a flow per node");
        Set<Long> nodes = new HashSet<>();
        for (int n = 0; n < 3; n++) {
            assertEquals(1, stream.get(n).flows().size());
            nodes.addAll(stream.get(n).flows());
        }
        assertEquals(new HashSet<>(api.getFirst().flows()), nodes);
        assertEquals(api.get(1).flows(), stream.get(3).flows(), "the plain launch keeps its one flow");
        assertFalse(nodes.containsAll(api.get(1).flows()));
    }
}
