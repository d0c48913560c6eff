package dev.vprof.analysis;

import dev.vprof.aggregate.BusyTime;
import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.Sink;
import dev.vprof.aggregate.Steps;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each GPU's time goes, per process (a rank) and device, over the capture and per step: idle,
 * compute, communication, memory (copies and sets), and the overlap of compute with communication,
 * each work item classed by {@link WorkClass}. A sink of the one aggregation pass.
 *
 * <p>Time is counted once, in that order of precedence: compute is the union of the compute
 * kernels; communication the time in the union of collectives that no compute kernel covers; memory
 * the time of copies and sets that neither covers; idle the rest of the span (the first work's start
 * to the last work's end). The four add up to the span. The overlap is the time both a compute
 * kernel and a collective run. Each is a union length ({@link BusyTime}: C, M, C∪M, all): compute
 * = |C|, communication = |C∪M| − |C|, memory = |all| − |C∪M|, overlap = |C| + |M| − |C∪M|. Memory is
 * bounded by the processes, devices and steps, not by the work: four reorder windows per lane.
 * Steps come from an earlier pass; a copy or set gets its step by the same rule as a kernel.
 */
public final class TemporalBreakdown implements Sink {
    /** The step of the whole-capture lane. */
    public static final int WHOLE = -1;

    /** One lane's figures, ns. {@code step} is {@link #WHOLE} for the capture. */
    public record Row(int pid, int device, int step, long spanNs, long idleNs, long computeNs,
                      long communicationNs, long memoryNs, long overlapNs, boolean approximate) {}

    private record Key(int pid, int device, int step) {}

    private final Steps steps;
    private final Map<Key, Lane> lanes = new LinkedHashMap<>();
    private Lane last;
    private int lastPid = Integer.MIN_VALUE;
    private int lastDevice = Integer.MIN_VALUE;

    /** Over the capture only. */
    public TemporalBreakdown() {
        this(null);
    }

    /** Over the capture and per step of {@code steps} (null or empty: the capture only). */
    public TemporalBreakdown(Steps steps) {
        this.steps = steps == null || steps.isEmpty() ? null : steps;
    }

    @Override
    public void kernel(Kernel k) {
        WorkClass c = WorkClass.ofKernel(k.name());
        long end = Math.max(k.startNs(), k.endNs());
        whole(k.pid(), k.device()).add(c, k.startNs(), end);
        if (steps != null && k.step() >= 0) {
            lane(k.pid(), k.device(), k.step()).add(c, k.startNs(), end);
        }
    }

    @Override
    public void memcpy(int pid, MemcpyEvent m) {
        memory(pid, m.deviceId(), m.start(), m.end(), m.correlationId());
    }

    @Override
    public void memset(int pid, MemsetEvent m) {
        memory(pid, m.deviceId(), m.start(), m.end(), m.correlationId());
    }

    private void memory(int pid, int device, long start, long end, int correlationId) {
        long e = Math.max(start, end);
        whole(pid, device).add(WorkClass.MEMORY, start, e);
        if (steps != null) {
            int s = steps.stepOf(pid, start, correlationId);
            if (s >= 0) {
                lane(pid, device, s).add(WorkClass.MEMORY, start, e);
            }
        }
    }

    private Lane whole(int pid, int device) {
        if (pid == lastPid && device == lastDevice) {
            return last;
        }
        last = lane(pid, device, WHOLE);
        lastPid = pid;
        lastDevice = device;
        return last;
    }

    private Lane lane(int pid, int device, int step) {
        return lanes.computeIfAbsent(new Key(pid, device, step), x -> new Lane());
    }

    /** Every lane's figures (ends the pass), the whole-capture lanes first, in order of first work. */
    public List<Row> rows() {
        List<Row> whole = new ArrayList<>();
        List<Row> perStep = new ArrayList<>();
        for (Map.Entry<Key, Lane> e : lanes.entrySet()) {
            Key k = e.getKey();
            Row r = e.getValue().row(k.pid, k.device, k.step, -1);
            (r.step() == WHOLE ? whole : perStep).add(r);
        }
        perStep.sort((a, b) -> a.step() != b.step() ? Integer.compare(a.step(), b.step())
                : a.pid() != b.pid() ? Integer.compare(a.pid(), b.pid()) : Integer.compare(a.device(), b.device()));
        whole.addAll(perStep);
        return whole;
    }
}
