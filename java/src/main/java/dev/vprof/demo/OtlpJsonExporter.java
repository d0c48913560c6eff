package dev.vprof.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Exports the simulated server's spans as OTLP/HTTP JSON, batched, the way vLLM's
 * OpenTelemetry SDK exports them to a collector. A bounded queue: when the
 * collector is slow the server drops spans and counts them instead of blocking.
 */
final class OtlpJsonExporter implements AutoCloseable {
    /** One finished span; ids as lowercase hex, attributes String/Long/Double. */
    record SpanData(String traceId, String spanId, String parentSpanId, String name,
                    long startEpochNs, long endEpochNs, Map<String, Object> attributes) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private final URI endpoint;
    private final String serviceName;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final BlockingQueue<SpanData> queue = new ArrayBlockingQueue<>(10_000);
    private final Thread thread;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean running = true;

    OtlpJsonExporter(URI endpoint, String serviceName) {
        this.endpoint = endpoint;
        this.serviceName = serviceName;
        this.thread = Thread.ofPlatform().daemon().name("otlp-export").start(this::loop);
    }

    void export(SpanData span) {
        if (!queue.offer(span)) dropped.incrementAndGet();
    }

    long dropped() { return dropped.get(); }

    long failedBatches() { return failed.get(); }

    private void loop() {
        List<SpanData> batch = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                SpanData first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                batch.add(first);
                queue.drainTo(batch, 511);
                post(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void post(List<SpanData> batch) throws InterruptedException {
        try {
            HttpRequest req = HttpRequest.newBuilder(endpoint)
                    .timeout(Duration.ofSeconds(5))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body(batch))))
                    .build();
            HttpResponse<Void> resp = http.send(req, HttpResponse.BodyHandlers.discarding());
            if (resp.statusCode() / 100 != 2) failed.incrementAndGet();
        } catch (IOException e) {
            failed.incrementAndGet();
        }
    }

    private ObjectNode body(List<SpanData> batch) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode rs = root.putArray("resourceSpans").addObject();
        attribute(rs.putObject("resource").putArray("attributes"), "service.name", serviceName);
        ObjectNode ss = rs.putArray("scopeSpans").addObject();
        ss.putObject("scope").put("name", "vllm.llm_engine");
        ArrayNode spans = ss.putArray("spans");
        for (SpanData s : batch) {
            ObjectNode o = spans.addObject();
            o.put("traceId", s.traceId());
            o.put("spanId", s.spanId());
            if (s.parentSpanId() != null) o.put("parentSpanId", s.parentSpanId());
            o.put("name", s.name());
            o.put("kind", 2); // SPAN_KIND_SERVER, as vLLM sets for llm_request
            o.put("startTimeUnixNano", Long.toString(s.startEpochNs()));
            o.put("endTimeUnixNano", Long.toString(s.endEpochNs()));
            ArrayNode attrs = o.putArray("attributes");
            s.attributes().forEach((k, v) -> attribute(attrs, k, v));
            o.putObject("status").put("code", 1);
        }
        return root;
    }

    private static void attribute(ArrayNode attrs, String key, Object value) {
        ObjectNode kv = attrs.addObject();
        kv.put("key", key);
        ObjectNode v = kv.putObject("value");
        switch (value) {
            case Long l -> v.put("intValue", Long.toString(l)); // OTLP/JSON: 64-bit ints as strings
            case Integer i -> v.put("intValue", Integer.toString(i));
            case Double d -> v.put("doubleValue", d);
            default -> v.put("stringValue", value.toString());
        }
    }

    /** Stops the exporter, waiting up to 5 s for the spans in flight; an interrupt ends the wait and stays set. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
