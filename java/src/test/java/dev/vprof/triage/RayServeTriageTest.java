package dev.vprof.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.vprof.testing.TextServer;
import dev.vprof.cli.TriageCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * An endpoint shaped as Ray Serve's: vLLM's families prefixed {@code ray_vllm:} with Ray's labels
 * (Component, NodeAddress, SessionName, Version, WorkerId) beside model_name and engine, two
 * replicas, and the second one's queue growing at every read while the first drains its work.
 */
class RayServeTriageTest {
    private static final String HEALTHY_WORKER = "5f1c2a0e9b7d";
    private static final String QUEUED_WORKER = "c83e9d41aa02";

    private static String labels(String worker, String node) {
        return "Component=\"ray::ServeReplica:qwen:LLMServer\",NodeAddress=\"" + node + "\",SessionName=\"session_2026-12-01_15-00-00_123456_1\","
                + "Version=\"2.49.0\",WorkerId=\"" + worker + "\",engine=\"0\",model_name=\"Qwen/Qwen2.5-7B-Instruct\"";
    }

    /** The exposition at read {@code n}: replica 1 finishes 10 requests a read with none waiting; replica 2 queues 6 more a read. */
    private static String exposition(int n) {
        StringBuilder b = new StringBuilder();
        String a = labels(HEALTHY_WORKER, "10.0.0.11"), q = labels(QUEUED_WORKER, "10.0.0.12");
        b.append("# HELP ray_vllm:num_requests_waiting Number of requests waiting to be processed.\n");
        b.append("# TYPE ray_vllm:num_requests_waiting gauge\n");
        b.append("ray_vllm:num_requests_waiting{").append(a).append("} 0.0\n");
        b.append("ray_vllm:num_requests_waiting{").append(q).append("} ").append(6.0 * n).append('\n');
        b.append("# HELP ray_vllm:num_requests_running Number of requests in model execution batches.\n");
        b.append("# TYPE ray_vllm:num_requests_running gauge\n");
        b.append("ray_vllm:num_requests_running{").append(a).append("} 4.0\n");
        b.append("ray_vllm:num_requests_running{").append(q).append("} 32.0\n");
        b.append("# HELP ray_vllm:request_success_total Count of successfully processed requests.\n");
        b.append("# TYPE ray_vllm:request_success_total counter\n");
        b.append("ray_vllm:request_success_total{").append(a).append(",finished_reason=\"stop\"} ").append(10.0 * n + 100).append('\n');
        b.append("ray_vllm:request_success_total{").append(q).append(",finished_reason=\"stop\"} ").append(2.0 * n + 100).append('\n');
        return b.toString();
    }

    private static HttpServer server() throws Exception {
        int[] calls = {0};
        return TextServer.metrics(() -> {
            synchronized (calls) {
                return exposition(calls[0]++);
            }
        });
    }

    /** Triage against a fresh endpoint; asserts that it exits 0 and gives back what it printed. */
    private static String triage(boolean json) throws Exception {
        HttpServer s = server();
        try {
            String[] r = run(s.getAddress().getPort(), json);
            assertEquals("0", r[0], r[2]);
            return r[1];
        } finally {
            s.stop(0);
        }
    }

    private static String[] run(int port, boolean json) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new TriageCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        String url = "127.0.0.1:" + port;
        int exit = json ? cl.execute("--url", url, "--window", "1s", "--interval", "200ms", "--json")
                : cl.execute("--url", url, "--window", "1s", "--interval", "200ms");
        return new String[] {Integer.toString(exit), out.toString(), err.toString()};
    }

    @Test
    void theQueueBoundReplicaIsNamedAndTheOtherIsHealthy() throws Exception {
        String out = triage(false);
        assertFalse(out.contains("NO VLLM METRICS"), out);
        // the whole endpoint: its queue grows (the sum of both replicas' waiting)
        assertTrue(out.startsWith("vprof triage") && out.contains("Verdict: " + Verdict.QUEUE_BOUND.title().toUpperCase(Locale.ROOT)), out);
        String perReplica = out.substring(out.indexOf("Per replica (2"));
        String healthyLine = perReplica.lines().filter(l -> l.contains("WorkerId=" + HEALTHY_WORKER)).findFirst().orElseThrow();
        String queuedLine = perReplica.lines().filter(l -> l.contains("WorkerId=" + QUEUED_WORKER)).findFirst().orElseThrow();
        assertTrue(healthyLine.contains(Verdict.HEALTHY.title().toUpperCase(Locale.ROOT)), healthyLine);
        assertTrue(queuedLine.contains(Verdict.QUEUE_BOUND.title().toUpperCase(Locale.ROOT)), queuedLine);
        assertTrue(queuedLine.contains("NodeAddress=10.0.0.12"), queuedLine);
        String off = perReplica.lines().filter(l -> l.startsWith("Replica off:")).findFirst().orElseThrow();
        assertTrue(off.contains(QUEUED_WORKER) && !off.contains(HEALTHY_WORKER), off);
    }

    @Test
    void theJsonHasAVerdictPerReplica() throws Exception {
        String out = triage(true);
        JsonNode root = new ObjectMapper().readTree(out);
        JsonNode replicas = root.get("replicas");
        assertEquals(2, replicas.size(), out);
        for (JsonNode rep : replicas) {
            boolean queued = rep.get("labels").get("WorkerId").asText().equals(QUEUED_WORKER);
            assertEquals(queued ? Verdict.QUEUE_BOUND.key() : Verdict.HEALTHY.key(), rep.get("verdict").asText(), rep.toString());
            assertEquals(queued, rep.get("off").asBoolean());
        }
    }
}
