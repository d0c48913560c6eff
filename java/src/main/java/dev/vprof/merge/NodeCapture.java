package dev.vprof.merge;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.NodeEvidence;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.capture.TimeSync;
import dev.vprof.capture.WindowChunk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a merge needs of one node's capture, read in one bounded pass: the node's identity and
 * clock evidence ({@link NodeEvidence}), its processes and ranks, its GPUs, per process the end
 * times (epoch ns, ascending) of its collectives, at most {@link #MAX_COLLECTIVES} each, and its
 * wall-clock window: the capture's own (WINDOW), or where it has none the span of its kernels
 * (-1, -1 when it has neither).
 */
public record NodeCapture(
        Path path,
        String host,
        Map<String, String> node,
        Map<String, Long> end,
        List<ProcessInfo> processes,
        List<DeviceProperties> devices,
        Map<Integer, long[]> collectiveEnds,
        long windowStartNs,
        long windowEndNs) {

    /** Enough for any offset fit; a longer capture keeps its first ones. */
    static final int MAX_COLLECTIVES = 1 << 20;

    /** Reads {@code reader}'s capture (opened by the caller through CaptureSources). */
    public static NodeCapture read(CaptureReader reader) {
        Optional<CaptureMetadata> md = reader.metadata();
        Map<String, String> node = new LinkedHashMap<>();
        md.map(CaptureMetadata::options).ifPresent(o -> o.forEach((k, v) -> {
            if (k.startsWith("node.")) {
                node.put(k, v);
            }
        }));
        Map<String, Long> end = new LinkedHashMap<>();
        reader.window().map(WindowChunk::counts).ifPresent(c -> c.forEach((k, v) -> {
            if (k.startsWith("node_end_")) {
                end.put(k, v);
            }
        }));
        Map<Integer, ClockMapping> clocks = reader.clocks();
        Map<Integer, long[]> ends = new TreeMap<>();
        Map<Integer, Integer> counts = new TreeMap<>();
        Map<String, DeviceProperties> devices = new LinkedHashMap<>();
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        reader.forEachRecord(new RecordVisitor() {
            @Override
            public void kernel(int pid, long start, long endNs, int corr, KernelDesc desc, String name) {
                ClockMapping c = clocks.getOrDefault(pid, ClockMapping.identity());
                span[0] = Math.min(span[0], c.toEpochNs(start));
                span[1] = Math.max(span[1], c.toEpochNs(endNs));
                if (!Collectives.isCollective(name)) {
                    return;
                }
                long[] a = ends.computeIfAbsent(pid, p -> new long[64]);
                int n = counts.getOrDefault(pid, 0);
                if (n >= MAX_COLLECTIVES) {
                    return;
                }
                if (n == a.length) {
                    a = Arrays.copyOf(a, n * 2);
                    ends.put(pid, a);
                }
                a[n] = c.toEpochNs(endNs);
                counts.put(pid, n + 1);
            }

            @Override
            public void device(int pid, DeviceProperties d) {
                devices.putIfAbsent(d.uuid() != null ? d.uuid() : pid + ":" + d.id(), d);
            }
        });
        Map<Integer, long[]> sorted = new TreeMap<>();
        ends.forEach((pid, a) -> {
            long[] s = Arrays.copyOf(a, counts.get(pid));
            Arrays.sort(s);
            sorted.put(pid, s);
        });
        String host = node.getOrDefault(NodeEvidence.HOSTNAME, md.map(CaptureMetadata::host).orElse(""));
        long from = -1, to = -1;
        Optional<WindowChunk> w = reader.window();
        if (w.isPresent() && w.get().hasEnd() && w.get().endEpochNs() >= w.get().startEpochNs()) {
            from = w.get().startEpochNs();
            to = w.get().endEpochNs();
        } else if (span[0] <= span[1]) {
            from = w.map(WindowChunk::startEpochNs).filter(s -> s <= span[0]).orElse(span[0]);
            to = span[1];
        }
        return new NodeCapture(reader.path(), host == null ? "" : host.strip(), node, end,
                List.copyOf(reader.processes()), new ArrayList<>(devices.values()), sorted, from, to);
    }

    /** The name a person knows this node by: its hostname, or where the capture names none, its file. */
    public String label() {
        if (!host.isBlank()) {
            return host;
        }
        Path name = path.getFileName();
        return name != null ? name.toString() : path.toString();
    }

    /** Whether the capture says when it ran on its wall clock. */
    public boolean hasWindow() {
        return windowStartNs >= 0 && windowEndNs >= windowStartNs;
    }

    /** The global ranks (RANK) of its processes, ascending. */
    public SortedSet<Integer> ranks() {
        SortedSet<Integer> r = new TreeSet<>();
        processes.forEach(p -> {
            if (p.rank() != null) {
                r.add(p.rank());
            }
        });
        return r;
    }

    /** The run identity its front end's environment carried ({@link NodeEvidence#RUN_IDENTITY}), by name. */
    public Map<String, String> runIdentity() {
        Map<String, String> id = new LinkedHashMap<>();
        for (String v : NodeEvidence.RUN_IDENTITY) {
            String value = node.get(NodeEvidence.RANK_ENV + v);
            if (value != null) {
                id.put(v, value);
            }
        }
        return id;
    }

    /** The kernel's maximum error of this node's wall clock in µs, the larger of start and end; -1 if unknown or unsynchronised. */
    public long maxErrorUs() {
        String sync = node.get(NodeEvidence.SYNC);
        if (sync == null || !Boolean.parseBoolean(sync) || end.getOrDefault(NodeEvidence.END_SYNC, 1L) == 0L) {
            return -1;
        }
        long start = Long.parseLong(node.getOrDefault(NodeEvidence.MAX_ERROR, "-1"));
        long atEnd = end.getOrDefault(NodeEvidence.END_MAX_ERROR, start);
        return start < 0 ? -1 : Math.max(start, atEnd);
    }

    /** What adjtimex said, in words. */
    public String timeSyncWords() {
        String sync = node.get(NodeEvidence.SYNC);
        if (sync == null) {
            return "time sync unknown (a capture without node evidence)";
        }
        long maxUs = Long.parseLong(node.getOrDefault(NodeEvidence.MAX_ERROR, "0"));
        return new TimeSync(Integer.parseInt(node.getOrDefault(NodeEvidence.SYNC_STATE, "0")),
                Boolean.parseBoolean(sync) ? 0 : TimeSync.STA_UNSYNC, maxUs, 0).describe();
    }

    /** The process with the lowest rank (or the first), which names this node's file. */
    public Optional<ProcessInfo> firstRank() {
        return processes.stream().min((a, b) -> Integer.compare(a.rank() == null ? Integer.MAX_VALUE : a.rank(),
                b.rank() == null ? Integer.MAX_VALUE : b.rank()));
    }

    public int collectiveCount() {
        return collectiveEnds.values().stream().mapToInt(a -> a.length).sum();
    }
}
