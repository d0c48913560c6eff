package dev.vprof.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The recorder's HTTP endpoints, each on its own listener (loopback unless told otherwise):
 *
 * <ul>
 * <li>control ({@code --control}): {@code POST /dump} asks for a dump (the body, if any, is the
 * reason; {@code ?wait=1} answers once it is written, with its file and verdict);
 * {@code POST /api/v2/alerts} takes alerts as Prometheus sends them to an Alertmanager, so a
 * Prometheus whose {@code alerting} section lists every replica's recorder calls each one when
 * an alert rule fires (docs/watch.md); {@code GET /status} says what the window and the dumps
 * are.</li>
 * <li>metrics ({@code --metrics-listen}): {@code GET /metrics}, Prometheus text exposition of
 * {@link WatchMetrics}.</li>
 * </ul>
 *
 * Bodies are bounded ({@value #MAX_BODY} bytes), every answer is JSON or text with a status that
 * says what happened; nothing a client sends can stop the recording.
 */
final class ControlServer implements AutoCloseable {
    static final int MAX_BODY = 1 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the endpoints ask of the watch. */
    interface Watch {
        Dumps.Outcome dump(Dumps.Trigger trigger, String what);

        String metricsText();

        Map<String, Object> status();
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Watch watch;
    private final Map<String, String> alertMatch;
    private final Duration waitLimit;

    private ControlServer(HttpServer server, ExecutorService executor, Watch watch, Map<String, String> alertMatch,
                          Duration waitLimit) {
        this.server = server;
        this.executor = executor;
        this.watch = watch;
        this.alertMatch = Map.copyOf(alertMatch);
        this.waitLimit = waitLimit;
    }

    /** The control endpoint at {@code address}. {@code waitLimit}: the longest a {@code ?wait=1} answer waits. */
    static ControlServer control(InetSocketAddress address, Watch watch, Map<String, String> alertMatch,
                                 Duration waitLimit) throws IOException {
        ControlServer s = start(address, watch, alertMatch, waitLimit, "--control");
        s.server.createContext("/dump", s::dump);
        s.server.createContext("/api/v2/alerts", s::alerts);
        s.server.createContext("/status", s::status);
        s.server.createContext("/", ex -> s.answer(ex, 404, "text/plain", "not found: the recorder's control endpoint "
                + "takes POST /dump, POST /api/v2/alerts and GET /status\n"));
        return s;
    }

    /** The Prometheus endpoint at {@code address}. */
    static ControlServer metrics(InetSocketAddress address, Watch watch) throws IOException {
        ControlServer s = start(address, watch, Map.of(), Duration.ZERO, "--metrics-listen");
        s.server.createContext("/metrics", ex -> {
            if (!s.method(ex, "GET")) {
                return;
            }
            s.answer(ex, 200, "text/plain; version=0.0.4; charset=utf-8", watch.metricsText());
        });
        s.server.createContext("/", ex -> s.answer(ex, 404, "text/plain", "not found: metrics are at GET /metrics\n"));
        return s;
    }

    private static ControlServer start(InetSocketAddress address, Watch watch, Map<String, String> alertMatch,
                                       Duration waitLimit, String option) throws IOException {
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (BindException e) {
            throw new IOException("cannot listen on " + address.getHostString() + ":" + address.getPort() + " for "
                    + option + ": " + e.getMessage() + "; choose another port (0 for a free one)", e);
        }
        ExecutorService ex = Executors.newFixedThreadPool(2, Thread.ofPlatform().daemon()
                .name("vprof-watch-http-", 0).factory());
        server.setExecutor(ex);
        ControlServer s = new ControlServer(server, ex, watch, alertMatch, waitLimit);
        server.start();
        return s;
    }

    InetSocketAddress address() {
        return server.getAddress();
    }

    /** {@code http://HOST:PORT} of this listener. */
    URI uri() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort());
    }

    private void dump(HttpExchange ex) {
        guard(ex, () -> {
            if (!method(ex, "POST")) {
                return;
            }
            String body = body(ex);
            String query = ex.getRequestURI().getQuery();
            boolean wait = query != null && (query.contains("wait=1") || query.contains("wait=true"));
            String what = body.isBlank() ? "POST /dump from " + ex.getRemoteAddress().getAddress().getHostAddress()
                    : clip(body.strip());
            Dumps.Trigger trigger = what.startsWith("vprof dump") ? Dumps.Trigger.COMMAND : Dumps.Trigger.HTTP;
            Dumps.Outcome o = watch.dump(trigger, what);
            respond(ex, o, wait);
        });
    }

    /**
     * Prometheus' alert notifications (the Alertmanager API v2 body: a JSON array of alerts with
     * labels, annotations, startsAt, endsAt): one dump for the firing alerts that carry every
     * {@code --alert-match} label; resolved ones (endsAt past) are ignored.
     */
    private void alerts(HttpExchange ex) {
        guard(ex, () -> {
            if (!method(ex, "POST")) {
                return;
            }
            JsonNode alerts;
            try {
                alerts = JSON.readTree(body(ex));
            } catch (IOException e) {
                answer(ex, 400, "application/json", json(Map.of("error", "the body is not JSON: " + e.getMessage())));
                return;
            }
            if (alerts == null || !alerts.isArray()) {
                answer(ex, 400, "application/json", json(Map.of("error", "expected a JSON array of alerts")));
                return;
            }
            List<String> firing = new ArrayList<>();
            for (JsonNode a : alerts) {
                if (isFiring(a) && matches(a.path("labels"))) {
                    firing.add(a.path("labels").path("alertname").asText("alert"));
                }
            }
            if (firing.isEmpty()) {
                answer(ex, 200, "application/json", json(Map.of("dump", "none: no firing alert matches")));
                return;
            }
            Dumps.Outcome o = watch.dump(Dumps.Trigger.ALERT, "alert " + String.join(", ", firing));
            // An Alertmanager answers 200 to a notification it took; Prometheus retries other answers.
            if (o instanceof Dumps.Accepted a) {
                answer(ex, 200, "application/json", json(accepted(a.request())));
            } else {
                Dumps.Refused r = (Dumps.Refused) o;
                answer(ex, 200, "application/json", json(Map.of("dump", "none", "refused", r.why())));
            }
        });
    }

    private void status(HttpExchange ex) {
        guard(ex, () -> {
            if (method(ex, "GET")) {
                answer(ex, 200, "application/json", json(watch.status()));
            }
        });
    }

    private boolean isFiring(JsonNode alert) {
        String ends = alert.path("endsAt").asText("");
        if (ends.isEmpty() || ends.startsWith("0001-")) {
            return true;
        }
        try {
            return OffsetDateTime.parse(ends).toInstant().isAfter(Instant.now());
        } catch (DateTimeParseException e) {
            return true;
        }
    }

    private boolean matches(JsonNode labels) {
        for (Map.Entry<String, String> m : alertMatch.entrySet()) {
            if (!m.getValue().equals(labels.path(m.getKey()).asText(null))) {
                return false;
            }
        }
        return true;
    }

    private void respond(HttpExchange ex, Dumps.Outcome o, boolean wait) throws IOException {
        if (o instanceof Dumps.Refused r) {
            if (!Double.isNaN(r.retryInSeconds())) {
                ex.getResponseHeaders().set("Retry-After", Long.toString((long) Math.ceil(r.retryInSeconds())));
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("refused", r.why());
            if (!Double.isNaN(r.retryInSeconds())) {
                m.put("retry_after_s", r.retryInSeconds());
            }
            answer(ex, Double.isNaN(r.retryInSeconds()) ? 503 : 429, "application/json", json(m));
            return;
        }
        Dumps.Request req = ((Dumps.Accepted) o).request();
        if (!wait) {
            answer(ex, 202, "application/json", json(accepted(req)));
            return;
        }
        try {
            DumpFile.Made m = req.done().get(waitLimit.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, Object> out = accepted(req);
            out.put("page", m.page().toString());
            out.put("report", m.text().toString());
            out.put("verdict", m.verdict());
            out.put("kernels", m.kernels());
            out.put("requests", m.requests());
            out.put("start_epoch_ns", m.startEpochNs());
            out.put("end_epoch_ns", m.endEpochNs());
            answer(ex, 200, "application/json", json(out));
        } catch (ExecutionException e) {
            Map<String, Object> out = accepted(req);
            out.put("error", e.getCause() == null ? e.toString() : e.getCause().getMessage());
            answer(ex, 500, "application/json", json(out));
        } catch (TimeoutException e) {
            answer(ex, 202, "application/json", json(accepted(req)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, Object> accepted(Dumps.Request r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dump", r.id());
        m.put("file", r.file().toString());
        m.put("trigger", r.trigger().label());
        m.put("fired", r.what());
        m.put("from_epoch_ns", r.fromEpochNs());
        m.put("to_epoch_ns", r.toEpochNs());
        return m;
    }

    private interface Body {
        void run() throws IOException;
    }

    private void guard(HttpExchange ex, Body b) {
        try (ex) {
            b.run();
        } catch (IOException | RuntimeException e) {
            try {
                answer(ex, 500, "text/plain", "vprof watch could not answer: " + e + "\n");
            } catch (IOException | RuntimeException gone) {
                // the client left or the answer had begun
            }
        }
    }

    private boolean method(HttpExchange ex, String m) throws IOException {
        if (ex.getRequestMethod().equals(m)) {
            return true;
        }
        ex.getResponseHeaders().set("Allow", m);
        answer(ex, 405, "text/plain", "use " + m + " " + ex.getRequestURI().getPath() + "\n");
        return false;
    }

    private static String body(HttpExchange ex) throws IOException {
        try (InputStream in = ex.getRequestBody()) {
            byte[] b = in.readNBytes(MAX_BODY + 1);
            if (b.length > MAX_BODY) {
                throw new IOException("the body is over " + MAX_BODY + " bytes");
            }
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    private static String clip(String s) {
        String one = s.replaceAll("[\\p{Cntrl}]", " ");
        return one.length() > 200 ? one.substring(0, 200) + "..." : one;
    }

    private void answer(HttpExchange ex, int status, String type, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    private static String json(Object o) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(o) + "\n";
        } catch (IOException e) {
            return "{}\n";
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
