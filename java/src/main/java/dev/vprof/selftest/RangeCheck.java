package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Judges one capture range: what the self-test program says it launched there (a {@code ranges[]}
 * entry of its result line, see selftest_cases.c) against what {@code vprof report --json} says
 * the range holds and what {@link CaptureFacts} read from the file. Pure: no process, no GPU, so
 * its verdicts are tested on recorded outputs (RangeCheckTest).
 */
final class RangeCheck {
    /** Kernel names the self-test program launches; anything else in a graph is CUDA's own (a memset node run as a kernel). */
    static final String OURS = "vprof_selftest_";

    /**
     * Warnings about this CUPTI rather than this range (the run's facts state them): an unverified
     * record layout (its effects show in the counts and the grid and block row), per-thread buffers
     * CUPTI kept on, kernel tracing kept on for 13.0 GA. A range that carries only these is fine.
     */
    static final Set<String> CUPTI_CAVEATS = Set.of("unverified_record_layout", "per_thread_buffers_on",
            "kernel_tracing_kept_on");

    /** How node kernels of graphs instantiated before the range are judged. */
    enum Graphs {
        /** Every node kernel, with its ids: the graph was instantiated with kernel tracing on. */
        EXACT,
        /**
         * R2: instantiated while the agent was dormant. CUPTI may deliver every node kernel, or none;
         * none is right only when the agent said so (graph_kernels_not_delivered). Anything else is a
         * silent loss.
         */
        DELIVERED_OR_LOUD
    }

    /** The rows, and for {@link Graphs#DELIVERED_OR_LOUD} which outcome each graph had. */
    record Result(List<Row> rows, Map<String, String> graphOutcomes) {
        boolean failed() {
            return rows.stream().anyMatch(Row::failed);
        }
    }

    private final String label;
    private final JsonNode want;
    private final JsonNode got;
    private final CaptureFacts.Range facts;
    private final Map<String, String> shapes;
    private final List<Row> rows = new ArrayList<>();
    private final Map<String, String> outcomes = new TreeMap<>();
    private final Set<String> allowedWarnings = new HashSet<>();
    private boolean allowRejected;

    /**
     * @param label  the rows' prefix ("graph-dormant r1")
     * @param want   the program's expectation for this range
     * @param got    the report's range with this index (null: there is none)
     * @param facts  the capture's facts of this range
     * @param shapes kernel name to "GRIDx1x1/BLOCKx1x1", as the program launches them
     */
    RangeCheck(String label, JsonNode want, JsonNode got, CaptureFacts.Range facts, Map<String, String> shapes) {
        this.label = label;
        this.want = want;
        this.got = got;
        this.facts = facts;
        this.shapes = shapes;
    }

    /** Warning codes that are expected here (besides those an R2 outcome brings). */
    RangeCheck allowWarnings(String... codes) {
        allowedWarnings.addAll(List.of(codes));
        return this;
    }

    /** Records rejected as invalid are counted, not a failure (the stress case: 0 silent losses is the check). */
    RangeCheck allowRejected() {
        allowRejected = true;
        return this;
    }

    Result check(Graphs graphs) {
        if (got == null) {
            rows.add(Row.of(label + ": range recorded", "a range", "none in the capture", false));
            return new Result(rows, outcomes);
        }
        JsonNode f = got.path("fidelity");
        Set<String> graphKernelNames = new HashSet<>();
        for (JsonNode g : want.path("graphs")) {
            graphKernelNames.add(g.path("kernel").asText());
        }
        for (var e : want.path("kernels").properties()) {
            if (graphs == Graphs.DELIVERED_OR_LOUD && graphKernelNames.contains(e.getKey())) {
                continue; // judged with its graph below
            }
            rows.add(Row.count(label + ": " + e.getKey(), e.getValue().asLong(), reported(e.getKey())));
        }
        rows.add(Row.count(label + ": kernel launches the agent counted", want.path("kernel_launches").asLong(),
                f.path("kernel_launches").asLong()));
        if (want.path("graph_launches").asLong() > 0 || f.path("graph_launches").asLong() > 0) {
            rows.add(Row.count(label + ": graph launches the agent counted", want.path("graph_launches").asLong(),
                    f.path("graph_launches").asLong()));
        }
        boolean anyDelivered = graphs(graphs);
        if (facts.apiRecords > 0) {
            // docs/design.md §4: range membership by launch order needs ids that grow with the calls.
            rows.add(Row.count(label + ": API records whose correlation id is below an earlier call's", 0,
                    facts.apiIdsOutOfOrder));
        }
        copiesAndSets(anyDelivered);
        losses(f);
        shapes();
        return new Result(rows, outcomes);
    }

    /** The report's count of a kernel name in this range. */
    private long reported(String name) {
        for (JsonNode k : got.path("top_kernels")) {
            if (name.equals(k.path("name").asText())) {
                return k.path("count").asLong();
            }
        }
        return 0;
    }

    private List<String> warnings() {
        List<String> w = new ArrayList<>();
        got.path("fidelity").path("warnings").forEach(x -> w.add(x.asText()));
        return w;
    }

    /** Node kernels and their ids, per graph; true when some graph's node kernels came. */
    private boolean graphs(Graphs mode) {
        boolean anyDelivered = false;
        for (JsonNode g : want.path("graphs")) {
            String name = g.path("kernel").asText();
            long nodes = g.path("kernel_nodes").asLong();
            long launches = g.path("launches").asLong();
            long expected = nodes * launches;
            long count = reported(name);
            CaptureFacts.Kernel k = facts.kernels.get(name);
            if (mode == Graphs.DELIVERED_OR_LOUD) {
                String check = label + ": " + name + " (instantiated while dormant)";
                String wantText = expected + ", or 0 with graph_kernels_not_delivered";
                if (count == expected && expected > 0) {
                    outcomes.put(name, "delivered");
                    rows.add(new Row(check, wantText, "DELIVERED: " + count, CheckOutcome.OK));
                } else if (count == 0 && warnings().contains("graph_kernels_not_delivered")
                        && got.path("fidelity").path("graph_kernels").asLong() == 0) {
                    outcomes.put(name, "not delivered");
                    allowedWarnings.add("graph_kernels_not_delivered");
                    allowedWarnings.add("drain_timeout"); // the drain waited for node kernels that never came
                    rows.add(new Row(check, wantText, "NOT DELIVERED by CUPTI, said loudly", CheckOutcome.OK));
                } else {
                    outcomes.put(name, count == 0 ? "silently lost" : "partly delivered");
                    rows.add(new Row(check, wantText, count + (count == 0 ? ", and no warning: a silent loss"
                            : ": partly delivered"), CheckOutcome.MISMATCH));
                }
            }
            if (count > 0 || mode == Graphs.EXACT) {
                anyDelivered |= count > 0;
                rows.add(ids(name, nodes, launches, k));
                if (facts.apiRecords > 0) {
                    rows.add(apiIds(name, launches));
                }
            }
        }
        return anyDelivered;
    }

    /** Every node kernel with a graph id and a node id; one group of `nodes` per launch, by correlation id. */
    private Row ids(String name, long nodes, long launches, CaptureFacts.Kernel k) {
        String check = label + ": " + name + " graph and node ids";
        String wantText = launches + " launches x " + nodes + " nodes, ids on all";
        if (k == null) {
            return Row.of(check, wantText, "no such kernel in the capture", false);
        }
        long groups = k.perCorrelation.size();
        Set<Integer> sizes = new LinkedHashSet<>(k.perCorrelation.values());
        boolean ok = k.graphKernels == k.count && k.withNodeId == k.count && k.nodeIds.size() == nodes
                && groups == launches && sizes.equals(Set.of((int) nodes));
        String actual = groups + " launches x " + sizes + " nodes (" + k.nodeIds.size() + " node ids), "
                + (k.count - k.graphKernels) + " without graph id, " + (k.count - k.withNodeId) + " without node id";
        return Row.of(check, wantText, actual, ok);
    }

    /** A graph launch's node kernels carry its correlation id: an API record of the launch has it too. */
    private Row apiIds(String name, long launches) {
        CaptureFacts.Kernel k = facts.kernels.get(name);
        Set<Integer> groups = k == null ? Set.of() : k.perCorrelation.keySet();
        long runtime = groups.stream().filter(facts.runtimeGraphLaunchIds::contains).count();
        long driver = groups.stream().filter(facts.driverGraphLaunchIds::contains).count();
        String which = runtime == groups.size() && !groups.isEmpty() ? "cudaGraphLaunch's"
                : driver == groups.size() && !groups.isEmpty() ? "cuGraphLaunch's"
                : "runtime " + runtime + ", driver " + driver + " of " + groups.size();
        return Row.of(label + ": " + name + " correlation ids", launches + " ids, each a launch's",
                which, runtime == launches || driver == launches);
    }

    /** Copies and sets: eager ones exactly; graph copy and memset nodes delivered with the kernels or not at all. */
    private void copiesAndSets(boolean anyDelivered) {
        long copyNodes = 0;
        long setNodes = 0;
        for (JsonNode g : want.path("graphs")) {
            copyNodes += g.path("copy_nodes").asLong() * g.path("launches").asLong();
            setNodes += g.path("memset_nodes").asLong() * g.path("launches").asLong();
        }
        long eager = want.path("memcpys").asLong() - copyNodes;
        long copies = got.path("memcpys").asLong();
        if (copyNodes == 0) {
            rows.add(Row.count(label + ": memcpys", eager, copies));
        } else {
            boolean all = copies == eager + copyNodes;
            boolean none = copies == eager && !anyDelivered;
            rows.add(Row.of(label + ": memcpys (" + copyNodes + " of them graph nodes)", (eager + copyNodes)
                    + (eager + copyNodes == eager ? "" : ", or " + eager + " with no node delivered"),
                    copies + (all ? "" : none ? " (copy nodes not delivered either)" : ""), all || none));
        }
        if (setNodes > 0) {
            long sets = got.path("memsets").asLong();
            Map<String, Long> others = new TreeMap<>();
            facts.kernels.forEach((n, k) -> {
                if (!n.startsWith(OURS) && k.graphKernels > 0) {
                    others.put(n, k.graphKernels);
                }
            });
            long asKernels = others.values().stream().mapToLong(Long::longValue).sum();
            String actual;
            boolean ok;
            if (sets == setNodes && asKernels == 0) {
                actual = sets + " memset records";
                ok = true;
            } else if (sets == 0 && asKernels == setNodes) {
                actual = "as " + asKernels + " kernels " + others.keySet();
                ok = true;
            } else if (sets == 0 && asKernels == 0 && !anyDelivered) {
                actual = "not delivered either";
                ok = true;
            } else {
                actual = sets + " memset records, " + asKernels + " other graph kernels " + others;
                ok = false;
            }
            rows.add(Row.of(label + ": memset nodes", setNodes + " (as memsets or as kernels)", actual, ok));
        }
    }

    private void losses(JsonNode f) {
        long lost = got.path("ring_drops").asLong() + got.path("cupti_drops").asLong()
                + got.path("zero_timestamp_kernels").asLong();
        rows.add(Row.count(label + ": records lost (ring, CUPTI, zero timestamps)", 0, lost));
        rows.add(Row.count(label + ": kernels missing at the drain's end", 0, f.path("kernels_missing").asLong()));
        List<String> unexpected = new ArrayList<>(warnings());
        unexpected.removeAll(allowedWarnings);
        unexpected.removeAll(CUPTI_CAVEATS);
        rows.add(Row.of(label + ": warnings", allowedWarnings.isEmpty() ? "none" : "none besides " + allowedWarnings,
                warnings().isEmpty() ? "none" : warnings().toString(), unexpected.isEmpty()));
        long rejected = 0;
        for (JsonNode v : f.path("rejected")) {
            rejected += v.asLong();
        }
        if (allowRejected) {
            rows.add(Row.info(label + ": rejected as invalid, by reason", f.path("rejected").toString()));
        } else {
            rows.add(Row.of(label + ": rejected as invalid", "0", rejected == 0 ? "0"
                    : rejected + " " + f.path("rejected"), rejected == 0));
        }
        long invalidKept = facts.kernels.values().stream().mapToLong(k -> k.invalidKept).sum();
        rows.add(Row.count(label + ": kept kernels with invalid timestamps", 0, invalidKept));
    }

    /** Every launched kernel's grid and block as the records say: a moved record field shows here (R8). */
    private void shapes() {
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (var e : want.path("kernels").properties()) {
            CaptureFacts.Kernel k = facts.kernels.get(e.getKey());
            String shape = shapes.get(e.getKey());
            if (k == null || k.count == 0 || shape == null) {
                continue;
            }
            checked++;
            if (!k.shapes.equals(Set.of(shape))) {
                wrong.add(e.getKey() + " " + k.shapes + " (launched " + shape + ")");
            }
        }
        if (checked > 0) {
            rows.add(Row.of(label + ": grid and block in the records", "as launched, " + checked + " kernels",
                    wrong.isEmpty() ? "as launched" : String.join("; ", wrong), wrong.isEmpty()));
        }
    }
}
