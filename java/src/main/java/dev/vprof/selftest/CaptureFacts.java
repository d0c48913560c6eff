package dev.vprof.selftest;

import dev.vprof.bindings.CuptiCallbackIds;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.RecordVisitor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the GPU self-test reads from a capture beyond {@code vprof report}'s counts, per range:
 * each kernel's launch shapes (a moved field in a CUPTI record would show here first, R8), graph
 * and node ids, how a graph launch's node kernels share its correlation id and whether an API
 * record carries that id, stream ids, and kept records whose timestamps are invalid (there must be
 * none: the agent rejects them). One streaming pass; every set is bounded, so a 10^6-kernel capture
 * costs a few MB.
 */
final class CaptureFacts implements RecordVisitor {
    /** At most this many distinct values are kept per set (the count goes on). */
    static final int SET_LIMIT = 4096;
    /** At most this many correlation ids are grouped per range. */
    static final int GROUP_LIMIT = 200_000;

    /** Whether a runtime or driver callback id is a graph launch, by the generated names of cupti_abi.h's ids. */
    private static boolean graphLaunch(boolean runtime, int cbid) {
        String name = runtime ? CuptiCallbackIds.runtimeName(cbid) : CuptiCallbackIds.driverName(cbid);
        return name != null && (name.equals(runtime ? "cudaGraphLaunch" : "cuGraphLaunch")
                || name.equals(runtime ? "cudaGraphLaunch_ptsz" : "cuGraphLaunch_ptsz"));
    }

    /** One kernel name's facts within a range. */
    static final class Kernel {
        long count;
        long graphKernels;   // graph id != 0
        long withNodeId;     // graph node id != 0
        long invalidKept;    // start == 0, end == 0 or end < start: the agent should have rejected it
        long minNs = Long.MAX_VALUE;
        long maxNs;
        final Set<String> shapes = new TreeSet<>();
        final Set<Integer> graphIds = new TreeSet<>();
        final Set<Long> nodeIds = new HashSet<>();
        final Set<Integer> streams = new TreeSet<>();
        /** Graph kernels per correlation id: a graph launch's node kernels share its id. */
        final Map<Integer, Integer> perCorrelation = new HashMap<>();

        void add(long start, long end, int corr, KernelDesc d) {
            count++;
            long ns = end - start;
            if (start == 0 || end == 0 || end < start) {
                invalidKept++;
            } else {
                minNs = Math.min(minNs, ns);
                maxNs = Math.max(maxNs, ns);
            }
            if (d == null) {
                return;
            }
            if (shapes.size() < 16) {
                shapes.add(d.gridX() + "x" + d.gridY() + "x" + d.gridZ() + "/" + d.blockX() + "x" + d.blockY() + "x"
                        + d.blockZ());
            }
            bounded(streams, d.streamId());
            if (d.fromGraph()) {
                graphKernels++;
                bounded(graphIds, d.graphId());
                if (d.graphNodeId() != 0) {
                    withNodeId++;
                    bounded(nodeIds, d.graphNodeId());
                }
                if (perCorrelation.size() < GROUP_LIMIT || perCorrelation.containsKey(corr)) {
                    perCorrelation.merge(corr, 1, Integer::sum);
                }
            }
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("count", count);
            m.put("graph_kernels", graphKernels);
            m.put("with_node_id", withNodeId);
            m.put("invalid_kept", invalidKept);
            m.put("min_ns", count == invalidKept ? null : minNs);
            m.put("max_ns", count == invalidKept ? null : maxNs);
            m.put("shapes", shapes);
            m.put("graph_ids", graphIds);
            m.put("distinct_node_ids", nodeIds.size());
            m.put("streams", streams.size());
            Map<Integer, Long> groupSizes = new TreeMap<>();
            perCorrelation.values().forEach(n -> groupSizes.merge(n, 1L, Long::sum));
            m.put("graph_launch_groups", perCorrelation.size());
            m.put("group_sizes", groupSizes);
            return m;
        }
    }

    /** One range's facts (index 0: records outside every range). */
    static final class Range {
        final int index;
        String source = "none";
        final Map<String, Kernel> kernels = new TreeMap<>();
        long memcpys;
        long memsets;
        final Map<String, Long> api = new TreeMap<>();
        final Set<Integer> runtimeGraphLaunchIds = new HashSet<>();
        final Set<Integer> driverGraphLaunchIds = new HashSet<>();
        /** API records in order: ids must grow with the calls' start times (docs/design.md §4). */
        long apiRecords;
        long apiIdsOutOfOrder;
        private long lastApiStart = Long.MIN_VALUE;
        private int lastApiCorr;

        Range(int index) {
            this.index = index;
        }

        Kernel kernel(String name) {
            return kernels.computeIfAbsent(name, n -> new Kernel());
        }

        /** Graph launch groups (correlation ids of graph kernels) whose id an API record carries. */
        long groupsMatchingApi(Set<Integer> ids) {
            Set<Integer> groups = new HashSet<>();
            kernels.values().forEach(k -> groups.addAll(k.perCorrelation.keySet()));
            groups.retainAll(ids);
            return groups.size();
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("index", index);
            m.put("source", source);
            Map<String, Object> ks = new LinkedHashMap<>();
            kernels.forEach((n, k) -> ks.put(n, k.json()));
            m.put("kernels", ks);
            m.put("memcpys", memcpys);
            m.put("memsets", memsets);
            m.put("api", api);
            m.put("api_records", apiRecords);
            m.put("api_ids_out_of_order", apiIdsOutOfOrder);
            m.put("graph_launch_groups_with_runtime_api_id", groupsMatchingApi(runtimeGraphLaunchIds));
            m.put("graph_launch_groups_with_driver_api_id", groupsMatchingApi(driverGraphLaunchIds));
            return m;
        }
    }

    private final Map<Integer, Range> ranges = new TreeMap<>();
    private final Map<Integer, Integer> openByPid = new HashMap<>();
    private final Map<Integer, Integer> lateByPid = new HashMap<>();

    private CaptureFacts() {}

    static CaptureFacts of(Path capture) throws IOException {
        CaptureFacts f = new CaptureFacts();
        try (CaptureReader reader = CaptureReader.open(capture)) {
            reader.forEachRecord(f);
        }
        return f;
    }

    /** The facts of the range with this index (0: outside every range); an empty one if none. */
    Range range(int index) {
        return ranges.getOrDefault(index, new Range(index));
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        ranges.forEach((i, r) -> m.put(Integer.toString(i), r.json()));
        return m;
    }

    private Range current(int pid) {
        Integer late = lateByPid.get(pid);
        int index = late != null ? late : openByPid.getOrDefault(pid, 0);
        return ranges.computeIfAbsent(index, Range::new);
    }

    private static <T> void bounded(Set<T> set, T value) {
        if (set.size() < SET_LIMIT) {
            set.add(value);
        }
    }

    @Override
    public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
        current(pid).kernel(name).add(start, end, correlationId, desc);
    }

    @Override
    public void memcpy(int pid, MemcpyEvent m) {
        current(pid).memcpys++;
    }

    @Override
    public void memset(int pid, MemsetEvent m) {
        current(pid).memsets++;
    }

    @Override
    public void api(int pid, ApiEvent a) {
        Range r = current(pid);
        boolean runtime = a.domain() == VprofRing.API_RUNTIME;
        r.api.merge((runtime ? "runtime:" : "driver:") + a.cbid(), 1L, Long::sum);
        if (runtime && graphLaunch(true, a.cbid()) && r.runtimeGraphLaunchIds.size() < GROUP_LIMIT) {
            r.runtimeGraphLaunchIds.add(a.correlationId());
        }
        if (!runtime && graphLaunch(false, a.cbid()) && r.driverGraphLaunchIds.size() < GROUP_LIMIT) {
            r.driverGraphLaunchIds.add(a.correlationId());
        }
        // Records come in buffer order, not call order: judge ids only where the starts are in order.
        r.apiRecords++;
        if (a.start() >= r.lastApiStart) {
            if (r.lastApiStart != Long.MIN_VALUE && Integer.compareUnsigned(a.correlationId(), r.lastApiCorr) < 0) {
                r.apiIdsOutOfOrder++;
            }
            r.lastApiStart = a.start();
            r.lastApiCorr = a.correlationId();
        }
    }

    @Override
    public void range(int pid, RangeEvent e) {
        if (e.isLateBegin()) {
            lateByPid.put(pid, e.index());
        } else if (e.isLateEnd()) {
            lateByPid.remove(pid);
        } else if (e.isBegin()) {
            openByPid.put(pid, e.index());
            ranges.computeIfAbsent(e.index(), Range::new).source = e.sourceName();
        } else {
            openByPid.remove(pid);
        }
    }
}
