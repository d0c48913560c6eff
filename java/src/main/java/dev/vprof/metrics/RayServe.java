package dev.vprof.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * vLLM behind Ray Serve: Ray's metrics agent exports vLLM's families with the prefix
 * {@code ray_} ({@code ray_vllm:num_requests_waiting}) and Ray's own labels ({@code Component},
 * {@code NodeAddress}, {@code SessionName}, {@code Version}, {@code WorkerId}) beside vLLM's
 * {@code model_name} and {@code engine}. One endpoint then speaks for several replicas or engines:
 * a replica is one combination of the labels in {@link #REPLICA_LABELS} that its samples carry.
 */
public final class RayServe {
    private RayServe() {}

    /** What Ray's metrics agent puts before an application's metric names. */
    public static final String PREFIX = "ray_";

    /** The labels that tell replicas (Ray's worker and node) and vLLM engines apart, in the order shown. */
    public static final List<String> REPLICA_LABELS = List.of("WorkerId", "NodeAddress", "engine");

    /** Each name, then the same name as Ray Serve exports it. */
    static List<String> withRayPrefix(List<String> names) {
        List<String> out = new ArrayList<>(names.size() * 2);
        out.addAll(names);
        for (String n : names) {
            out.add(PREFIX + n);
        }
        return out;
    }

    /** A replica: the values of its {@link #REPLICA_LABELS} (only those its samples have). */
    public record Replica(Map<String, String> labels) {
        public Replica {
            labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        }

        /** The samples of this replica. */
        public Predicate<Labels> filter() {
            return l -> {
                for (Map.Entry<String, String> e : labels.entrySet()) {
                    if (!e.getValue().equals(l.get(e.getKey()))) {
                        return false;
                    }
                }
                return true;
            };
        }

        /** "WorkerId=ab12…, NodeAddress=10.0.0.2": how a person finds it again. */
        public String describe() {
            StringBuilder sb = new StringBuilder();
            labels.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : ", ").append(k).append('=').append(v));
            return sb.toString();
        }
    }

    /**
     * The replicas the vLLM samples of {@code snapshot} come from: one per distinct combination of
     * the replica labels; fewer than two means one server (nothing to split).
     */
    public static List<Replica> replicas(MetricsSnapshot snapshot) {
        Set<Map<String, String>> seen = new LinkedHashSet<>();
        for (MetricFamily f : snapshot.families()) {
            if (!f.name().startsWith("vllm:") && !f.name().startsWith(PREFIX + "vllm:")) {
                continue;
            }
            for (Sample s : f.samples()) {
                Map<String, String> key = new LinkedHashMap<>();
                for (String l : REPLICA_LABELS) {
                    String v = s.labels().get(l);
                    if (v != null && !v.isEmpty()) {
                        key.put(l, v);
                    }
                }
                if (!key.isEmpty()) {
                    seen.add(key);
                }
            }
        }
        List<Replica> out = new ArrayList<>();
        for (Map<String, String> k : seen) {
            out.add(new Replica(k));
        }
        return out;
    }
}
