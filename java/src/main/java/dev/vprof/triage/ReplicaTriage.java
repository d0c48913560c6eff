package dev.vprof.triage;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.RayServe;
import dev.vprof.metrics.VllmMetrics;
import dev.vprof.metrics.WindowStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The verdict per replica where one endpoint speaks for several (Ray Serve's replicas, vLLM's
 * data-parallel engines: {@link RayServe#replicas}), beside the verdict for the whole: a replica
 * that is queue-bound while its siblings are healthy is a routing or placement problem that the
 * sum over all of them hides.
 */
public final class ReplicaTriage {
    private ReplicaTriage() {}

    public record ReplicaVerdict(RayServe.Replica replica, Assessment assessment) {}

    /** One assessment per replica of the last scrape, in its order; empty for one server. */
    public static List<ReplicaVerdict> assess(List<MetricsSnapshot> scrapes, double windowSeconds,
                                              Triage.Thresholds t, URI metricsUrl) {
        List<RayServe.Replica> replicas = RayServe.replicas(scrapes.getLast());
        List<ReplicaVerdict> out = new ArrayList<>();
        if (replicas.size() < 2) {
            return out;
        }
        boolean vllm = VllmMetrics.isVllm(scrapes.getLast());
        for (RayServe.Replica r : replicas) {
            WindowStats w = WindowStats.compute(scrapes, windowSeconds, r.filter());
            out.add(new ReplicaVerdict(r, Triage.assess(w, vllm, t, metricsUrl)));
        }
        return out;
    }

    /** The replicas whose verdict is not healthy, while at least one other is. */
    public static List<ReplicaVerdict> off(List<ReplicaVerdict> verdicts) {
        List<ReplicaVerdict> bad = verdicts.stream().filter(v -> v.assessment().verdict() != Verdict.HEALTHY).toList();
        return bad.size() < verdicts.size() ? bad : List.of();
    }

    /** The text section after the whole verdict. Label values come from the server and are shown escaped. */
    public static String text(List<ReplicaVerdict> verdicts) {
        if (verdicts.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\nPer replica (").append(verdicts.size()).append(", told apart by ")
                .append(String.join("/", RayServe.REPLICA_LABELS)).append("):\n");
        for (ReplicaVerdict v : verdicts) {
            Finding f = v.assessment().findings().getFirst();
            sb.append("  ").append(escape(v.replica().describe())).append(": ")
                    .append(f.verdict().title().toUpperCase(Locale.ROOT)).append(" - ")
                    .append(f.summary()).append('\n');
        }
        for (ReplicaVerdict v : off(verdicts)) {
            sb.append("Replica off: ").append(escape(v.replica().describe())).append(" is ")
                    .append(v.assessment().verdict().title().toUpperCase(Locale.ROOT))
                    .append(" while the others are not; look at how requests are routed to it and what runs on its node\n");
        }
        return sb.toString();
    }

    /** The whole verdict's JSON object with a {@code replicas} array added (absent for one server). */
    public static String json(String wholeJson, List<ReplicaVerdict> verdicts) {
        if (verdicts.isEmpty()) {
            return wholeJson;
        }
        try {
            ObjectMapper m = new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT);
            ObjectNode root =
                    (ObjectNode) m.readTree(wholeJson);
            ArrayNode arr = root.putArray("replicas");
            List<ReplicaVerdict> bad = off(verdicts);
            for (ReplicaVerdict v : verdicts) {
                ObjectNode o = arr.addObject();
                ObjectNode labels = o.putObject("labels");
                v.replica().labels().forEach(labels::put);
                o.put("verdict", v.assessment().verdict().key());
                o.put("summary", v.assessment().findings().getFirst().summary());
                o.put("off", bad.contains(v));
            }
            return m.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Control characters and non-ASCII as \\uXXXX, so a label cannot move the terminal's cursor. */
    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || c > 0x7e) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.length() > 200 ? sb.substring(0, 200) + "..." : sb.toString();
    }
}
