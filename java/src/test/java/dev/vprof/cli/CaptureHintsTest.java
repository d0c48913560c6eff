package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.vprof.region.AgentState;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture that recorded nothing because its range never opened, or whose
 * {@code --trigger} failed, must not pass for a good one.
 */
@Timeout(120)
class CaptureHintsTest {
    @TempDir
    Path dir;

    private E2e e2e;
    private Process target;

    @BeforeEach
    void startATargetThatNeverOpensARange() throws Exception {
        e2e = E2e.nativeParts();
        target = e2e.startTarget(dir.resolve("target.log"), "--duration", "60s", "--step-us", "2000");
        Path region = E2e.awaitRegion(target.pid());
        E2e.await("the agent", 10_000, () -> E2e.stateOf(region) == AgentState.DORMANT);
    }

    @AfterEach
    void stopTarget() throws Exception {
        E2e.stopTree(target.pid());
    }

    private Cli.Result attach(String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("attach", "--pid",
                Long.toString(target.pid()), "--duration", "1500ms", "-o", dir.resolve("c.vprof").toString()));
        args.addAll(java.util.List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void aProfilerRangeThatNeverOpenedEndsWithALoudHint() {
        Cli.Result r = E2e.ok(attach("--capture-range=cudaProfilerApi"));
        assertTrue(r.err().contains("0 ranges, 0 kernels"), r.err());
        assertTrue(r.err().contains("vprof: warning: no capture range opened")
                && r.err().contains("did you pass --trigger, or start vLLM with --profiler-config '{\"profiler\":\"cuda\"}'?"),
                r.err());
    }

    @Test
    void anNvtxRangeThatNeverOpenedNamesTheRangeItWaitedFor() {
        Cli.Result r = E2e.ok(attach("--capture-range=nvtx:decode@vllm"));
        assertTrue(r.err().contains("no NVTX range 'decode@vllm' was pushed"), r.err());
    }

    @Test
    void aCaptureWhoseRangeOpenedHasNoHint() {
        Cli.Result r = E2e.ok(attach());
        assertTrue(r.err().contains("1 range") && !r.err().contains("no capture range opened"), r.err());
    }

    /**
     * A vLLM started without its profiler answers /start_profile with 404: attach stops at once
     * with the reason (nothing would be captured) and leaves no file, so that the retry with the
     * profiler enabled, to the same -o and without --force, is not refused for a capture of
     * nothing (it used to leave a finished, empty capture that blocked the retry).
     */
    @Test
    void aRefusedTriggerStopsAtOnceAndLeavesNoFile() throws Exception {
        AtomicInteger posts = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            posts.incrementAndGet();
            ex.sendResponseHeaders(404, -1);
            ex.close();
        });
        server.start();
        try {
            String url = "127.0.0.1:" + server.getAddress().getPort();
            Cli.Result r = attach("--capture-range=cudaProfilerApi", "--trigger", url);
            assertEquals(ExitCode.CANNOT.code(), r.code(), r.err());
            assertEquals(1, posts.get(), "one POST /start_profile; no /stop_profile for a start that failed");
            assertTrue(r.err().contains("404 Not Found") && r.err().contains("--profiler-config")
                    && r.err().contains("no file was left at"), r.err());
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(List.of(), left.filter(p -> p.getFileName().toString().contains("c.vprof")).toList(),
                        "neither the capture nor a temporary file of it");
            }
        } finally {
            server.stop(0);
        }
    }

    /** /start_profile worked, /stop_profile did not: the capture is kept, and marked. */
    @Test
    void aTriggerThatFailsToStopMarksTheCaptureLoudly() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/start_profile", ex -> {
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.createContext("/stop_profile", ex -> {
            ex.sendResponseHeaders(500, -1);
            ex.close();
        });
        server.start();
        try {
            Cli.Result r = E2e.ok(attach("--trigger", "127.0.0.1:" + server.getAddress().getPort()));
            assertTrue(r.err().contains("stop_profile answered HTTP 500")
                    && r.err().contains("vprof: warning: --trigger FAILED"), r.err());
            Cli.Result rep = E2e.ok(Cli.run("report", "--json", dir.resolve("c.vprof").toString()));
            assertTrue(new ObjectMapper().readTree(rep.out()).get("warnings").get(0).asText()
                    .startsWith("--trigger FAILED during this capture (1 POST"), rep.out());
        } finally {
            server.stop(0);
        }
    }
}
