package dev.vprof.analysis;

import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.Sink;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.otlp.Span;
import dev.vprof.time.Clocks;
import dev.vprof.time.Intervals;
import dev.vprof.time.Selection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The temporal breakdown inside request phases: per process and device, the GPU's idle, compute,
 * communication and memory time inside the union of the prefill windows of the slowest
 * {@value #SLOW_PERCENT} % of requests (by end-to-end time, {@link Selection#slowest}, the report's
 * choice), of their decode windows, and of the other requests' prefill and decode. Work counts by
 * the part of it inside the phases (clipped), so the four figures add up to the phases' length. Epoch
 * times (the pass's fitted clocks); a copy or set is placed by {@code clocks} as a kernel is.
 */
public final class PhaseBreakdown implements Sink {
    public static final double SLOW_PERCENT = 10;

    /** The phase sets, in order. */
    public static final List<String> PHASES = List.of("slowest prefill", "slowest decode", "rest prefill",
            "rest decode");

    /** A phase set's figures on one device; {@code requests}: how many requests the set's phases are of. */
    public record Row(String phase, int requests, TemporalBreakdown.Row figures) {}

    private record Key(int phase, int pid, int device) {}

    private final Clocks clocks;
    private final List<Intervals> phases;
    private final long[] lengths;
    private final int[] requests;
    private final Map<Key, Lane> lanes = new LinkedHashMap<>();

    private PhaseBreakdown(Clocks clocks, List<Intervals> phases, int[] requests) {
        this.clocks = clocks;
        this.phases = List.copyOf(phases);
        this.lengths = new long[phases.size()];
        for (int i = 0; i < phases.size(); i++) {
            lengths[i] = phases.get(i).totalNs();
        }
        this.requests = requests;
    }

    /** The breakdown of {@code reader}'s requests (its spans); null when it has none. */
    public static PhaseBreakdown of(CaptureReader reader, Clocks clocks) {
        if (!reader.hasSpans()) {
            return null;
        }
        List<Span> spans = reader.spans().spans();
        List<RequestSlice> reqs = RequestPhases.split(spans).requests();
        if (reqs.isEmpty()) {
            return null;
        }
        long[] e2e = new long[reqs.size()];
        for (int i = 0; i < e2e.length; i++) {
            e2e[i] = reqs.get(i).endEpochNs() - reqs.get(i).startEpochNs();
        }
        boolean[] slow = Selection.slowest(SLOW_PERCENT).pick(e2e);
        List<List<long[]>> pairs = new ArrayList<>();
        for (int i = 0; i < PHASES.size(); i++) {
            pairs.add(new ArrayList<>());
        }
        int[] counts = new int[PHASES.size()];
        for (int i = 0; i < reqs.size(); i++) {
            int base = slow[i] ? 0 : 2;
            RequestSlice.Phase p = reqs.get(i).phase(RequestPhases.PREFILL);
            RequestSlice.Phase d = reqs.get(i).phase(RequestPhases.DECODE);
            pairs.get(base).add(new long[] {p.startEpochNs(), p.endEpochNs()});
            pairs.get(base + 1).add(new long[] {d.startEpochNs(), d.endEpochNs()});
            counts[base]++;
            counts[base + 1]++;
        }
        List<Intervals> phases = new ArrayList<>();
        for (List<long[]> p : pairs) {
            phases.add(Intervals.union(p, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        return new PhaseBreakdown(clocks, phases, counts);
    }

    @Override
    public void kernel(Kernel k) {
        add(k.pid(), k.device(), WorkClass.ofKernel(k.name()), k.startEpochNs(), k.endEpochNs());
    }

    @Override
    public void memcpy(int pid, MemcpyEvent m) {
        add(pid, m.deviceId(), WorkClass.MEMORY, clocks.epochNs(pid, m.start()),
                clocks.epochNs(pid, Math.max(m.start(), m.end())));
    }

    @Override
    public void memset(int pid, MemsetEvent m) {
        add(pid, m.deviceId(), WorkClass.MEMORY, clocks.epochNs(pid, m.start()),
                clocks.epochNs(pid, Math.max(m.start(), m.end())));
    }

    private void add(int pid, int device, WorkClass c, long start, long end) {
        for (int p = 0; p < phases.size(); p++) {
            Key key = new Key(p, pid, device);
            phases.get(p).forEachInside(start, end,
                    (s, t) -> lanes.computeIfAbsent(key, x -> new Lane()).add(c, s, t));
        }
    }

    /** Each phase set's figures per device that ran work inside it (ends the pass). */
    public List<Row> rows() {
        List<Row> out = new ArrayList<>();
        for (Map.Entry<Key, Lane> e : lanes.entrySet()) {
            Key k = e.getKey();
            out.add(new Row(PHASES.get(k.phase), requests[k.phase],
                    e.getValue().row(k.pid, k.device, TemporalBreakdown.WHOLE, lengths[k.phase])));
        }
        out.sort((a, b) -> PHASES.indexOf(a.phase()) - PHASES.indexOf(b.phase()));
        return out;
    }
}
