package dev.vprof.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The recorder's metrics as the Prometheus exposition and as OTLP, the OTLP side decoded by the
 * OpenTelemetry project's own generated classes (opentelemetry-proto), posted to a collector
 * stand-in over HTTP.
 */
class OtlpPushTest {
    private static final List<WatchMetrics.Point> POINTS = List.of(
            new WatchMetrics.Point("vprof_gpu_busy_seconds_total", "busy", true, "s", Map.of("device", "0"), 1.25),
            new WatchMetrics.Point("vprof_gpu_busy_seconds_total", null, true, "s", Map.of("device", "1"), 0.5),
            new WatchMetrics.Point("vprof_window_seconds", "window", false, "s", Map.of(), 61.5),
            new WatchMetrics.Point("vprof_dumps_total", "dumps", true, "", Map.of("trigger", "a\"b\\c"), 2));

    @Test
    void theExpositionHasOneHelpAndTypePerFamilyAndEscapesLabelValues() {
        String text = WatchMetrics.exposition(POINTS);
        assertEquals("""
                # HELP vprof_gpu_busy_seconds_total busy
                # TYPE vprof_gpu_busy_seconds_total counter
                vprof_gpu_busy_seconds_total{device="0"} 1.25
                vprof_gpu_busy_seconds_total{device="1"} 0.5
                # HELP vprof_window_seconds window
                # TYPE vprof_window_seconds gauge
                vprof_window_seconds 61.5
                # HELP vprof_dumps_total dumps
                # TYPE vprof_dumps_total counter
                vprof_dumps_total{trigger="a\\"b\\\\c"} 2
                """, text);
    }

    @Test
    void metricsAndADumpsLogRecordReachTheCollectorAsOtlpProtobuf() throws Exception {
        Map<String, byte[]> got = new ConcurrentHashMap<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        collector.createContext("/", ex -> {
            got.put(ex.getRequestURI().getPath(), ex.getRequestBody().readAllBytes());
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        collector.start();
        try {
            StringWriter log = new StringWriter();
            OtlpPush push = new OtlpPush(URI.create("http://127.0.0.1:" + collector.getAddress().getPort()),
                    Map.of("service.name", "vprof-watch"), 1_000L, new PrintWriter(log, true));
            push.pushMetrics(POINTS);
            push.pushDump(new DumpFile.Made(Path.of("/d/dump-1.vprof"), Path.of("/d/dump-1.html"), Path.of("/d/dump-1.txt"),
                    10L, 20L, 2, 0, 100, 345, 64, "queue_bound", "queue-bound", 0), "condition", "ttft_p99 > 500ms");
            assertEquals(2, push.sent(), log.toString());

            ExportMetricsServiceRequest m = ExportMetricsServiceRequest.parseFrom(got.get("/v1/metrics"));
            assertEquals("vprof-watch", m.getResourceMetrics(0).getResource().getAttributes(0).getValue().getStringValue());
            List<Metric> metrics = m.getResourceMetrics(0).getScopeMetrics(0).getMetricsList();
            assertEquals(3, metrics.size(), "one Metric per family: " + metrics);
            Metric busy = metrics.get(0);
            assertEquals("vprof_gpu_busy_seconds_total", busy.getName());
            assertEquals("s", busy.getUnit());
            assertTrue(busy.hasSum() && busy.getSum().getIsMonotonic());
            assertEquals(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE, busy.getSum().getAggregationTemporality());
            Map<String, Double> byDevice = new HashMap<>();
            for (NumberDataPoint p : busy.getSum().getDataPointsList()) {
                byDevice.put(attr(p.getAttributesList(), "device"), p.getAsDouble());
                assertEquals(1_000L, p.getStartTimeUnixNano());
            }
            assertEquals(Map.of("0", 1.25, "1", 0.5), byDevice);
            assertTrue(metrics.get(1).hasGauge());
            assertEquals(61.5, metrics.get(1).getGauge().getDataPoints(0).getAsDouble());

            ExportLogsServiceRequest l = ExportLogsServiceRequest.parseFrom(got.get("/v1/logs"));
            LogRecord r = l.getResourceLogs(0).getScopeLogs(0).getLogRecords(0);
            assertEquals("/d/dump-1.vprof", attr(r.getAttributesList(), "vprof.dump.file"));
            assertEquals("queue_bound", attr(r.getAttributesList(), "vprof.dump.verdict"));
            assertEquals("ttft_p99 > 500ms", attr(r.getAttributesList(), "vprof.dump.fired"));
            long kernels = r.getAttributesList().stream().filter(kv -> kv.getKey().equals("vprof.dump.kernels"))
                    .findFirst().orElseThrow().getValue().getIntValue();
            assertEquals(345, kernels);
            assertTrue(r.getBody().getStringValue().contains("verdict queue-bound"), r.getBody().getStringValue());
            assertEquals("vprof.watch.dump", r.getEventName());
        } finally {
            collector.stop(0);
        }
    }

    @Test
    void aCollectorThatIsNotThereIsSaidOnceAndCounted() {
        StringWriter log = new StringWriter();
        OtlpPush push = new OtlpPush(URI.create("http://127.0.0.1:1"), Map.of(), 0, new PrintWriter(log, true));
        push.pushMetrics(POINTS);
        push.pushMetrics(POINTS);
        assertEquals(2, push.failed());
        assertEquals(1, log.toString().lines().count(), log.toString());
    }

    private static String attr(List<KeyValue> kvs, String key) {
        return kvs.stream().filter(kv -> kv.getKey().equals(key)).findFirst().orElseThrow().getValue().getStringValue();
    }
}
