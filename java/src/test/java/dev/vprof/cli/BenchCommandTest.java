package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.vprof.testing.TextServer;
import dev.vprof.metrics.HttpFailures;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** `vprof bench` against servers that do not serve. */
class BenchCommandTest {

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } // closed: nothing listens there now
    }

    private static void assertStopsWithTriagesWording(Cli.Result r, int port) {
        assertEquals(2, r.code(), r.err());
        assertEquals("", r.out(), "no table of NaN: " + r.out());
        assertEquals(1, r.err().strip().lines().count(), "one line, not one per request: " + r.err());
        assertTrue(r.err().contains("cannot reach http://127.0.0.1:" + port), r.err());
        assertTrue(r.err().contains("connection refused (is the server running and listening on 127.0.0.1:" + port
                + "?)"), "the words triage uses: " + r.err());
        assertTrue(r.err().contains(HttpFailures.CHECK_THE_URL), r.err());
        assertFalse(r.err().contains("Exception"), "no Java exception names: " + r.err());
    }

    @Test
    void aDeadServerStopsTheRunAtTheFirstConnectionError() throws Exception {
        int port = freePort();
        assertStopsWithTriagesWording(Cli.run("bench", "--url", "http://127.0.0.1:" + port, "--num-prompts", "20",
                "--request-rate", "50"), port);
        assertStopsWithTriagesWording(Cli.run("bench", "--url", "http://127.0.0.1:" + port, "--num-prompts", "20"),
                port);
    }

    @Test
    void aDeadServerWithProfileStopsAtStartProfile() throws Exception {
        int port = freePort();
        assertStopsWithTriagesWording(Cli.run("bench", "--url", "http://127.0.0.1:" + port, "--profile",
                "--num-prompts", "5"), port);
    }

    @Test
    void aServerThatFailsEveryRequestGetsATableWithoutNaN() throws Exception {
        HttpServer s = TextServer.start("/", 500, "application/json", () -> "{\"error\":\"model not loaded\"}\n");
        try {
            Cli.Result r = Cli.run("bench", "--url", "http://127.0.0.1:" + s.getAddress().getPort(),
                    "--num-prompts", "3");
            assertEquals(ExitCode.NOT_EXPECTED.code(), r.code(), "failed requests: " + r.err());
            assertTrue(r.out().contains("Failed requests:                        3"), r.out());
            assertFalse(r.out().contains("NaN"), r.out());
            assertTrue(r.out().contains("Median TTFT (ms):                       n/a"), r.out());
            assertTrue(r.out().contains("HTTP 500: {\"error\":\"model not loaded\"}"), r.out());
        } finally {
            s.stop(0);
        }
    }
}
