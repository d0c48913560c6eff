package dev.vprof.html;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;

/**
 * The system Chromium, headless, driven through its DevTools protocol over one loopback WebSocket
 * (flattened sessions): each page opens in a new tab with the console, the log, the network and
 * JavaScript dialogs watched from before it loads. For the page tests and the first-paint script
 * ({@link FirstPaint}).
 */
final class Chromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** What one page did while loading, and what the probe found in it. */
    record PageLoad(String url, List<String> consoleErrors, List<String> requests, List<String> dialogs,
                    JsonNode probe, Path screenshot) {
        /** Requests other than the page's own document. */
        List<String> networkRequests() {
            return requests.stream().filter(r -> !r.equals(url)).toList();
        }
    }

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();

    /** The browser to use: $VPROF_CHROMIUM, else Debian's chromium; empty when neither exists. */
    static Optional<Path> find() {
        String env = System.getenv("VPROF_CHROMIUM");
        for (String c : new String[] {env, "/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
            if (c != null && !c.isEmpty() && Files.isExecutable(Path.of(c))) {
                return Optional.of(Path.of(c));
            }
        }
        return Optional.empty();
    }

    /**
     * A started browser; without one, the test fails under CI=true and is skipped elsewhere, the
     * reason being how to install it and {@code unchecked}, what goes unchecked without it.
     */
    static Chromium launchOrSkip(Path userDataDir, String unchecked) throws IOException, InterruptedException {
        Optional<Path> exe = find();
        if (exe.isEmpty()) {
            String why = "chromium is not installed (apt-get install -y chromium): " + unchecked;
            if ("true".equals(System.getenv("CI"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        return launch(exe.get(), userDataDir);
    }

    static Chromium launch(Path exe, Path userDataDir) throws IOException, InterruptedException {
        Files.createDirectories(userDataDir);
        Path log = userDataDir.resolveSibling(userDataDir.getFileName() + ".log");
        Process p = new ProcessBuilder(exe.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + userDataDir, "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "about:blank")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Path portFile = userDataDir.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<String> lines = List.of();
        while (System.nanoTime() < deadline) {
            if (Files.exists(portFile)) {
                lines = Files.readAllLines(portFile);
                if (lines.size() >= 2) {
                    break;
                }
            }
            if (!p.isAlive()) {
                throw new IOException("chromium exited (" + p.exitValue() + "): " + Files.readString(log));
            }
            Thread.sleep(50);
        }
        if (lines.size() < 2) {
            p.destroyForcibly();
            throw new IOException("chromium wrote no DevToolsActivePort within " + WAIT + ": " + Files.readString(log));
        }
        return new Chromium(p, URI.create("ws://127.0.0.1:" + lines.get(0).trim() + lines.get(1).trim()));
    }

    private Chromium(Process process, URI browser) {
        this.process = process;
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(browser, new WebSocket.Listener() {
            private final StringBuilder text = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    receive(text.toString());
                    text.setLength(0);
                }
                ws.request(1);
                return null;
            }
        }).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    }

    private void receive(String message) {
        try {
            JsonNode m = JSON.readTree(message);
            if (m.has("id")) {
                CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
                if (f != null) {
                    f.complete(m);
                }
            } else {
                events.add(m);
                if ("Page.javascriptDialogOpening".equals(m.path("method").asText())) {
                    // Answer it from here, or the page would wait for a person.
                    send(m.path("sessionId").asText(), "Page.handleJavaScriptDialog",
                            JSON.createObjectNode().put("accept", true));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("DevTools sent what is not JSON: " + message, e);
        }
    }

    private CompletableFuture<JsonNode> send(String session, String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        ObjectNode m = JSON.createObjectNode().put("id", id).put("method", method);
        m.set("params", params == null ? JSON.createObjectNode() : params);
        if (session != null) {
            m.put("sessionId", session);
        }
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        pending.put(id, f);
        socket.sendText(m.toString(), true);
        return f;
    }

    private JsonNode call(String session, String method, ObjectNode params) {
        JsonNode r = send(session, method, params).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
        if (r.has("error")) {
            throw new IllegalStateException(method + " failed: " + r.get("error"));
        }
        return r.path("result");
    }

    /**
     * Loads {@code page} in a new tab 1300 px wide, waits for its load event and a little more (for
     * late console messages), runs {@code probe} (a JavaScript expression whose value, or its promise's, is JSON), and
     * keeps a full-page screenshot at {@code screenshot}.
     */
    PageLoad load(Path page, String probe, Path screenshot) throws IOException, InterruptedException {
        String url = page.toUri().toString();
        String target = call(null, "Target.createTarget", JSON.createObjectNode().put("url", "about:blank"))
                .path("targetId").asText();
        String s = call(null, "Target.attachToTarget", JSON.createObjectNode().put("targetId", target)
                .put("flatten", true)).path("sessionId").asText();
        try {
            for (String domain : new String[] {"Page", "Runtime", "Log", "Network"}) {
                call(s, domain + ".enable", null);
            }
            call(s, "Emulation.setDeviceMetricsOverride", JSON.createObjectNode().put("width", 1300).put("height", 900)
                    .put("deviceScaleFactor", 1).put("mobile", false));
            int from = events.size();
            call(s, "Page.navigate", JSON.createObjectNode().put("url", url));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (mine(from, s).stream().noneMatch(e -> "Page.loadEventFired".equals(e.path("method").asText()))) {
                if (System.nanoTime() > deadline) {
                    throw new IOException(url + " did not finish loading within " + WAIT);
                }
                Thread.sleep(20);
            }
            Thread.sleep(300);
            JsonNode value = call(s, "Runtime.evaluate", JSON.createObjectNode().put("expression", probe)
                    .put("returnByValue", true).put("awaitPromise", true)).path("result").path("value");
            JsonNode shot = call(s, "Page.captureScreenshot", JSON.createObjectNode().put("format", "png")
                    .put("captureBeyondViewport", true));
            Files.createDirectories(screenshot.toAbsolutePath().getParent());
            Files.write(screenshot, Base64.getDecoder().decode(shot.path("data").asText()));
            List<String> errors = new ArrayList<>();
            List<String> requests = new ArrayList<>();
            List<String> dialogs = new ArrayList<>();
            for (JsonNode e : mine(from, s)) {
                JsonNode p = e.path("params");
                switch (e.path("method").asText()) {
                    case "Runtime.consoleAPICalled" -> {
                        if ("error".equals(p.path("type").asText()) || "assert".equals(p.path("type").asText())) {
                            errors.add("console: " + p.path("args"));
                        }
                    }
                    case "Runtime.exceptionThrown" -> errors.add("exception: " + p.path("exceptionDetails"));
                    case "Log.entryAdded" -> {
                        if ("error".equals(p.path("entry").path("level").asText())) {
                            errors.add("log: " + p.path("entry").path("text").asText());
                        }
                    }
                    case "Network.requestWillBeSent" -> requests.add(p.path("request").path("url").asText());
                    case "Page.javascriptDialogOpening" -> dialogs.add(p.path("message").asText());
                    default -> { }
                }
            }
            return new PageLoad(url, errors, requests, dialogs, value, screenshot);
        } finally {
            call(null, "Target.closeTarget", JSON.createObjectNode().put("targetId", target));
        }
    }

    private List<JsonNode> mine(int from, String session) {
        List<JsonNode> out = new ArrayList<>();
        for (int i = from; i < events.size(); i++) {
            JsonNode e = events.get(i);
            if (session.equals(e.path("sessionId").asText())) {
                out.add(e);
            }
        }
        return out;
    }

    @Override
    public void close() {
        try {
            try {
                send(null, "Browser.close", null).get(5, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
                // already gone, or closing without an answer: the process is waited for below
            }
            socket.abort();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            // A resource's close must not throw InterruptedException: the flag is kept, the browser killed.
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
