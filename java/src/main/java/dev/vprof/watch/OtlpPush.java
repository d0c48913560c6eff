package dev.vprof.watch;

import dev.vprof.VprofVersion;
import dev.vprof.nativelib.Posix;
import dev.vprof.wire.WireType;
import dev.vprof.wire.WireWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code --otlp-metrics URL}: the recorder's metrics ({@link WatchMetrics}, the same series as the
 * Prometheus endpoint) pushed as OTLP/HTTP protobuf to a Collector's {@code /v1/metrics} every
 * interval (counters as cumulative monotonic sums, gauges as gauges), and each dump's summary as
 * one OTLP log record to {@code /v1/logs}. Each push is one request with a 5 s timeout from the
 * watch's ticker thread; a collector that does not answer is said once and counted, never waited
 * for, and the recording goes on.
 */
final class OtlpPush {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** SeverityNumber INFO. */
    private static final int SEVERITY_INFO = 9;

    private final URI metricsUri;
    private final URI logsUri;
    private final Map<String, String> resource;
    private final long startEpochNs;
    private final PrintWriter log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private volatile long sent;
    private volatile long failed;
    private boolean saidFailure;

    /** {@code base}: http://HOST:4318 (its /v1/metrics and /v1/logs), or a URL ending in /v1/metrics. */
    OtlpPush(URI base, Map<String, String> resource, long startEpochNs, PrintWriter log) {
        String b = base.toString().replaceFirst("/v1/metrics/?$", "").replaceFirst("/+$", "");
        this.metricsUri = URI.create(b + "/v1/metrics");
        this.logsUri = URI.create(b + "/v1/logs");
        this.resource = resource;
        this.startEpochNs = startEpochNs;
        this.log = log;
    }

    /** The URL a base given to --otlp-metrics is checked against: http or https with a host. */
    static URI parse(String value) {
        String v = value.contains("://") ? value : "http://" + value;
        URI u = URI.create(v);
        if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
            throw new IllegalArgumentException("--otlp-metrics " + value + " is not an OTLP/HTTP URL; give the "
                    + "collector's base, e.g. http://127.0.0.1:4318");
        }
        return u;
    }

    URI metricsUri() {
        return metricsUri;
    }

    long sent() {
        return sent;
    }

    long failed() {
        return failed;
    }

    void pushMetrics(List<WatchMetrics.Point> points) {
        post(metricsUri, metricsRequest(points, Posix.realtimeNanos()));
    }

    void pushDump(DumpFile.Made m, String trigger, String what) {
        post(logsUri, logRequest(m, trigger, what, Posix.realtimeNanos()));
    }

    private void post(URI uri, byte[] body) {
        HttpRequest req = HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        try {
            HttpResponse<Void> r = http.send(req, HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() / 100 != 2) {
                fail(uri, "HTTP " + r.statusCode());
                return;
            }
            sent++;
        } catch (IOException e) {
            fail(uri, e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fail(URI uri, String why) {
        failed++;
        if (!saidFailure) {
            saidFailure = true;
            log.println("vprof: warning: watch: OTLP push to " + uri + " failed (" + why + "); the recording goes on "
                    + "and later pushes are tried (failures are not said again)");
            log.flush();
        }
    }

    // ---- encoding (opentelemetry/proto/metrics/v1/metrics.proto, logs/v1/logs.proto) ---------------

    /** ExportMetricsServiceRequest { ResourceMetrics { Resource, ScopeMetrics { scope, Metric* } } }. */
    byte[] metricsRequest(List<WatchMetrics.Point> points, long nowEpochNs) {
        WireWriter w = new WireWriter(4096);
        int rm = w.beginMessage(1);
        resource(w);
        int sm = w.beginMessage(2);
        scope(w);
        String open = null;
        int metric = -1;
        int data = -1;
        for (WatchMetrics.Point p : points) {
            if (!p.name().equals(open)) {
                if (open != null) {
                    w.endMessage(data);
                    w.endMessage(metric);
                }
                open = p.name();
                metric = w.beginMessage(2);
                w.string(1, p.name());
                String help = p.help();
                for (WatchMetrics.Point q : points) {
                    if (help == null && q.name().equals(p.name()) && q.help() != null) {
                        help = q.help();
                    }
                }
                if (help != null) {
                    w.string(2, help);
                }
                if (!p.unit().isEmpty()) {
                    w.string(3, p.unit());
                }
                data = w.beginMessage(p.counter() ? 7 : 5);
                if (p.counter()) {
                    w.uint(2, 2); // AGGREGATION_TEMPORALITY_CUMULATIVE
                    w.bool(3, true);
                }
            }
            int dp = w.beginMessage(1); // NumberDataPoint
            for (Map.Entry<String, String> l : p.labels().entrySet()) {
                keyValue(w, 7, l.getKey(), l.getValue());
            }
            if (p.counter()) {
                w.fixed64(2, startEpochNs);
            }
            w.fixed64(3, nowEpochNs);
            w.float64(4, p.value());
            w.endMessage(dp);
        }
        if (open != null) {
            w.endMessage(data);
            w.endMessage(metric);
        }
        w.endMessage(sm);
        w.endMessage(rm);
        return w.toByteArray();
    }

    /** ExportLogsServiceRequest { ResourceLogs { Resource, ScopeLogs { scope, LogRecord } } }: one dump. */
    byte[] logRequest(DumpFile.Made m, String trigger, String what, long nowEpochNs) {
        WireWriter w = new WireWriter(1024);
        int rl = w.beginMessage(1);
        resource(w);
        int sl = w.beginMessage(2);
        scope(w);
        int lr = w.beginMessage(2);
        w.fixed64(1, nowEpochNs);
        w.fixed64(11, nowEpochNs);
        w.uint(2, SEVERITY_INFO);
        w.string(3, "INFO");
        int body = w.beginMessage(5);
        w.string(1, "vprof watch dump " + m.file().getFileName() + " (" + trigger + ": " + what + "): "
                + m.kernels() + " kernels, " + m.requests() + " requests, verdict "
                + (m.verdictTitle() == null ? "none" : m.verdictTitle()));
        w.endMessage(body);
        keyValue(w, 6, "vprof.dump.file", m.file().toString());
        keyValue(w, 6, "vprof.dump.page", m.page().toString());
        keyValue(w, 6, "vprof.dump.trigger", trigger);
        keyValue(w, 6, "vprof.dump.fired", what);
        keyValue(w, 6, "vprof.dump.verdict", m.verdict() == null ? "" : m.verdict());
        intValue(w, 6, "vprof.dump.kernels", m.kernels());
        intValue(w, 6, "vprof.dump.requests", m.requests());
        intValue(w, 6, "vprof.dump.start_unix_nano", m.startEpochNs());
        intValue(w, 6, "vprof.dump.end_unix_nano", m.endEpochNs());
        w.string(12, "vprof.watch.dump");
        w.endMessage(lr);
        w.endMessage(sl);
        w.endMessage(rl);
        return w.toByteArray();
    }

    private void resource(WireWriter w) {
        int r = w.beginMessage(1);
        for (Map.Entry<String, String> e : resource.entrySet()) {
            keyValue(w, 1, e.getKey(), e.getValue());
        }
        w.endMessage(r);
    }

    private static void scope(WireWriter w) {
        int s = w.beginMessage(1);
        w.string(1, "dev.vprof.watch");
        w.string(2, VprofVersion.get());
        w.endMessage(s);
    }

    private static void keyValue(WireWriter w, int field, String key, String value) {
        int kv = w.beginMessage(field);
        w.string(1, key);
        int v = w.beginMessage(2);
        w.string(1, value);
        w.endMessage(v);
        w.endMessage(kv);
    }

    private static void intValue(WireWriter w, int field, String key, long value) {
        int kv = w.beginMessage(field);
        w.string(1, key);
        int v = w.beginMessage(2);
        w.tag(3, WireType.VARINT);
        w.varint(value);
        w.endMessage(v);
        w.endMessage(kv);
    }
}
