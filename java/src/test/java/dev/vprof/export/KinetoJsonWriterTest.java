package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.timeline.Timeline;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KinetoJsonWriterTest {

    static JsonNode write(Timeline t) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new KinetoJsonWriter().write(t, t.processes().getFirst(), "vllm.json", out);
        return new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(out.toByteArray());
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
        JsonNode root = write(SampleTimelines.everything().distributed(3, 8));
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
