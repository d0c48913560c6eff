package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class KinetoJsonWriterTest {

    static JsonNode write(ListTimeline t) throws IOException {
        return parse(text(t, new KinetoRanks.Rank(0, 1, KinetoRanks.Source.ORDER), List.of()));
    }

    static String text(ListTimeline t, KinetoRanks.Rank rank, List<ProfilerSteps.Step> steps) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new KinetoJsonWriter().write(t, t.processes().getFirst(), rank, steps, "vllm.json", out);
        return out.toString(StandardCharsets.UTF_8);
    }

    static JsonNode parse(String text) throws IOException {
        return new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(text);
    }

    static List<JsonNode> byCat(JsonNode root, String cat) {
        List<JsonNode> out = new ArrayList<>();
        root.get("traceEvents").forEach(e -> {
            if (cat.equals(e.path("cat").asText())) {
                out.add(e);
            }
        });
        return out;
    }

    @Test
    void topLevelCarriesTheFieldsHtaReads() throws IOException {
        String text = text(SampleTimelines.everything(), new KinetoRanks.Rank(3, 8, KinetoRanks.Source.RANK), List.of());
        JsonNode root = parse(text);
        assertEquals(1, root.get("schemaVersion").asInt());
        assertEquals(SampleTimelines.T0, root.get("baseTimeNanoseconds").asLong());
        assertEquals("vllm.json", root.get("traceName").asText());
        assertEquals(3, root.get("distributedInfo").get("rank").asInt());
        assertEquals(8, root.get("distributedInfo").get("world_size").asInt());
        JsonNode dev = root.get("deviceProperties").get(0);
        assertEquals(0, dev.get("id").asInt());
        assertEquals("NVIDIA H100 80GB HBM3", dev.get("name").asText());
        assertEquals(9, dev.get("computeMajor").asInt());
        assertEquals(132, dev.get("numSms").asInt());
    }

    @Test
    void theRankIsInPyTorchsTextFormAndIsTheFirstThingTheRankPatternFinds() throws IOException {
        String text = text(SampleTimelines.everything(), new KinetoRanks.Rank(3, 8, KinetoRanks.Source.RANK), List.of());
        Matcher m = Pattern.compile("\"rank\": (\\d+)").matcher(text);
        assertTrue(m.find(), "no \"rank\": N in the text");
        assertEquals("3", m.group(1));
        assertTrue(text.contains("\"distributedInfo\": {\"backend\": \"\", \"rank\": 3, \"world_size\": 8}"), text.substring(0, 200));
        assertTrue(text.indexOf("\"distributedInfo\"") < text.indexOf("\"traceEvents\""), "in the header, before any event");
    }

    @Test
    void devicePropertiesUseKinetosFieldNamesAndLeaveOutWhatWasNotRecorded() throws IOException {
        ListTimeline t = SampleTimelines.everything();
        TimelineProcess p = t.processes().getFirst();
        p.device(0).limits(new GpuDevice.Limits(32, 1024, 2048, 65536, 65536, 49152, 233472));
        p.device(3); // a device the capture knows only by ordinal
        JsonNode props = write(t).get("deviceProperties");
        assertEquals(2, props.size());
        JsonNode h100 = props.get(0);
        assertEquals(85_000_000_000L, h100.get("totalGlobalMem").asLong());
        assertEquals(0, h100.get("computeMinor").asInt());
        assertEquals(1024, h100.get("maxThreadsPerBlock").asInt());
        assertEquals(2048, h100.get("maxThreadsPerMultiprocessor").asInt());
        assertEquals(65536, h100.get("regsPerBlock").asInt());
        assertEquals(65536, h100.get("regsPerMultiprocessor").asInt());
        assertEquals(32, h100.get("warpSize").asInt());
        assertEquals(49152, h100.get("sharedMemPerBlock").asInt());
        assertEquals(233472, h100.get("sharedMemPerMultiprocessor").asInt());
        assertFalse(h100.has("sharedMemPerBlockOptin"), "CUPTI's device record has no opt-in limit: left out, not 0");
        JsonNode bare = props.get(1);
        assertEquals(3, bare.get("id").asInt());
        assertEquals(List.of("id"), List.copyOf(iterable(bare.fieldNames())), "unknown properties are left out");
    }

    private static <T> List<T> iterable(java.util.Iterator<T> it) {
        List<T> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void copiesAndSetsAreNamedAsKinetoNamesThem() throws IOException {
        JsonNode root = write(SampleTimelines.everything());
        assertEquals("Memcpy HtoD (Pinned -> Device)", byCat(root, "gpu_memcpy").getFirst().get("name").asText());
        assertEquals("Memset (Device)", byCat(root, "gpu_memset").getFirst().get("name").asText());
    }

    @Test
    void stepsBecomeProfilerStepUserAnnotationsOnTheirThread() throws IOException {
        ListTimeline t = SampleTimelines.everything();
        List<ProfilerSteps.Step> steps = List.of(
                new ProfilerSteps.Step(0, 4242, SampleTimelines.T0, SampleTimelines.T0 + 5_000),
                new ProfilerSteps.Step(1, 4242, SampleTimelines.T0 + 5_000, SampleTimelines.T0 + 10_000));
        JsonNode root = parse(text(t, new KinetoRanks.Rank(0, 1, KinetoRanks.Source.ORDER), steps));
        List<JsonNode> annotated = byCat(root, "user_annotation").stream()
                .filter(e -> e.get("name").asText().startsWith("ProfilerStep#")).toList();
        assertEquals(List.of("ProfilerStep#0", "ProfilerStep#1"), annotated.stream().map(e -> e.get("name").asText()).toList());
        JsonNode second = annotated.get(1);
        assertEquals(4242, second.get("pid").asInt());
        assertEquals(4242, second.get("tid").asInt());
        assertEquals(5, second.get("ts").decimalValue().intValueExact());
        assertEquals(5, second.get("dur").decimalValue().intValueExact());
        assertFalse(second.get("args").has("stream"), "a host event: HTA takes events without a stream as CPU ops");
    }

    @Test
    void gpuWorkUsesKinetoCategoriesAndDeviceStreamIds() throws IOException {
        JsonNode root = write(SampleTimelines.everything());
        List<JsonNode> kernels = byCat(root, "kernel");
        assertEquals(3, kernels.size());
        JsonNode gemm = kernels.getFirst();
        assertEquals(0, gemm.get("pid").asInt(), "pid is the device ordinal");
        assertEquals(7, gemm.get("tid").asInt(), "tid is the stream");
        JsonNode args = gemm.get("args");
        for (String f : List.of("device", "stream", "correlation", "grid", "block", "External id")) {
            assertTrue(args.has(f), "kernel args lack " + f + ": " + args);
        }
        assertEquals(101, args.get("correlation").asLong());
        assertEquals(7, args.get("stream").asInt());
        assertEquals("[256,1,1]", args.get("block").toString());
        assertEquals(1, gemm.get("ts").decimalValue().intValueExact(), "µs after baseTimeNanoseconds");
        assertEquals(1, byCat(root, "gpu_memcpy").size());
        assertEquals(1, byCat(root, "gpu_memset").size());
        assertEquals(1 << 20, byCat(root, "gpu_memcpy").getFirst().get("args").get("bytes").asLong());
    }

    @Test
    void hostCallsAndAnnotationsUseKinetoCategoriesAndLinkByCorrelation() throws IOException {
        JsonNode root = write(SampleTimelines.everything());
        List<JsonNode> runtime = byCat(root, "cuda_runtime");
        assertEquals(4, runtime.size());
        assertEquals(1, byCat(root, "cuda_driver").size());
        assertEquals(Set.of("forward", "attention"), Set.copyOf(byCat(root, "user_annotation").stream().map(e -> e.get("name").asText()).toList()));
        JsonNode launch = runtime.getFirst();
        assertEquals(4242, launch.get("pid").asInt());
        assertEquals(211, launch.get("args").get("cbid").asInt());
        assertEquals(101, launch.get("args").get("External id").asLong());
        List<JsonNode> flows = byCat(root, "ac2g");
        assertEquals(8, flows.size(), "four launches, each an s and an f");
        assertTrue(flows.stream().anyMatch(f -> "f".equals(f.get("ph").asText()) && "e".equals(f.get("bp").asText())));
    }
}
