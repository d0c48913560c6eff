package dev.vprof.aggregate;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.time.Clocks;
import dev.vprof.time.RangeEdges;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds a capture's {@link Steps} in a pass ({@link StepRule}): the step ranges of each process, its
 * capture ranges, and the launch calls (their start and correlation id) that say which step each
 * kernel was launched in. A step must lie wholly inside one of its process's capture ranges where
 * the process has any: records from the drain after a range's end are not steps of the capture.
 * Bounded: per step a few numbers; NVTX ranges open at once up to {@value #MAX_OPEN}; launches up to
 * {@value #MAX_LAUNCHES} (16 bytes each until {@link #finish}), past which kernels are placed by
 * their start.
 */
public final class StepFinder implements Sink {
    static final int MAX_OPEN = 1 << 16;
    public static final int MAX_LAUNCHES = 1 << 21;

    private final String rangeName;
    /** pid -> step ranges seen, whole. */
    private final Map<Integer, List<StepRule.Candidate>> marked = new LinkedHashMap<>();
    /** (pid, marker id) -> {start, number, tid, order}. */
    private final Map<Long, long[]> open = new HashMap<>();
    /** pid -> cudaProfilerApi ranges, as candidates. */
    private final Map<Integer, List<StepRule.Candidate>> profilerRanges = new LinkedHashMap<>();
    private final Map<Integer, long[]> openProfiler = new HashMap<>();
    /** pid -> capture ranges: {begin realtime, begin CUPTI, end realtime, end CUPTI}; 0 for an edge not seen. */
    private final Map<Integer, List<long[]>> captureRanges = new HashMap<>();
    private final Map<Integer, long[]> openCapture = new HashMap<>();
    private long order;

    private long[] launchStart = new long[1024];
    private int[] launchCorrelation = new int[1024];
    private int[] launchPid = new int[1024];
    private int launches;
    private boolean tooManyLaunches;

    /** @param rangeName the NVTX range that marks a step ({@code --steps nvtx:NAME}) */
    public StepFinder(String rangeName) {
        this.rangeName = rangeName;
    }

    /**
     * The steps of {@code reader}, from a scan that hands this finder the markers, range edges and
     * launch calls alone and no sink a kernel, so that the one pass after it can give every kernel
     * its step as it comes: the step table, the breakdown per step and the report's own tables are
     * then fed by that one pass, not by a second full pass once the steps are known. The decoder
     * still walks every record header, but skips the kernels' records ({@code wantsKernels}), and
     * fits the clocks on the way, so {@code Clocks.of(reader)} after it costs no pass of its own.
     */
    public static Steps scan(CaptureReader reader, String rangeName) {
        StepFinder f = new StepFinder(rangeName);
        reader.forEachRecord(new RecordVisitor() {
            @Override
            public boolean wantsKernels() {
                return false; // no sink takes them here, so the decoder skips their records
            }

            @Override
            public void marker(int pid, MarkerEvent m) {
                f.marker(pid, m);
            }

            @Override
            public void range(int pid, RangeEvent e) {
                f.range(pid, e);
            }

            @Override
            public void api(int pid, ApiEvent a) {
                f.api(pid, a);
            }
        });
        return f.finish(Clocks.of(reader));
    }

    @Override
    public boolean takesKernels() {
        return false; // steps come from markers, ranges and launch calls
    }

    @Override
    public void marker(int pid, MarkerEvent m) {
        long key = ((long) pid << 32) | (m.id() & 0xffffffffL);
        if ((m.flags() & VprofRing.MARKER_START) != 0) {
            long number = StepRule.numberOf(m.name(), m.domain(), rangeName);
            if (number != StepRule.NOT_A_STEP && open.size() < MAX_OPEN) {
                open.put(key, new long[] {m.timestamp(), number, m.tid(), order++});
            }
        } else if ((m.flags() & VprofRing.MARKER_END) != 0) {
            long[] s = open.remove(key);
            if (s != null) {
                marked.computeIfAbsent(pid, p -> new ArrayList<>())
                        .add(new StepRule.Candidate(s[0], m.timestamp(), s[1], s[2], s[3]));
            }
        }
    }

    @Override
    public void range(int pid, RangeEvent e) {
        if (e.isBegin()) {
            long[] r = {e.realtimeNs(), e.cuptiNs(), 0, 0};
            captureRanges.computeIfAbsent(pid, p -> new ArrayList<>()).add(r);
            openCapture.put(pid, r);
            if (e.source() == VprofRing.SOURCE_PROFILER) {
                openProfiler.put(pid, new long[] {e.cuptiNs()});
            }
        } else if (e.isEnd()) {
            long[] r = openCapture.remove(pid);
            if (r == null) {
                r = new long[] {0, 0, 0, 0};
                captureRanges.computeIfAbsent(pid, p -> new ArrayList<>()).add(r);
            }
            r[2] = e.realtimeNs();
            r[3] = e.cuptiNs();
            long[] s = openProfiler.remove(pid);
            if (s != null && e.source() == VprofRing.SOURCE_PROFILER) {
                profilerRanges.computeIfAbsent(pid, p -> new ArrayList<>())
                        .add(new StepRule.Candidate(s[0], e.cuptiNs(), StepRule.IN_ORDER, 0, order++));
            }
        }
    }

    @Override
    public void api(int pid, ApiEvent a) {
        if (a.correlationId() == 0 || tooManyLaunches) {
            return;
        }
        if (launches == MAX_LAUNCHES) {
            tooManyLaunches = true; // too many to hold: kernels are then placed by their start
            launchStart = null;
            launchCorrelation = null;
            launchPid = null;
            return;
        }
        if (launches == launchStart.length) {
            int n = Math.min(MAX_LAUNCHES, launches * 2);
            launchStart = Arrays.copyOf(launchStart, n);
            launchCorrelation = Arrays.copyOf(launchCorrelation, n);
            launchPid = Arrays.copyOf(launchPid, n);
        }
        launchStart[launches] = a.start();
        launchCorrelation[launches] = a.correlationId();
        launchPid[launches] = pid;
        launches++;
    }

    /**
     * The steps (call after the pass). {@code clocks} place steps and capture ranges on one clock
     * to decide which steps lie inside a range; the pass has fitted them, so this costs nothing.
     */
    public Steps finish(Clocks clocks) {
        Map<Integer, List<StepRule.Step>> chosen = new LinkedHashMap<>();
        Map<Integer, Steps.Kind> kinds = new HashMap<>();
        marked.forEach((pid, c) -> {
            List<StepRule.Step> s = StepRule.choose(inCapture(pid, c, clocks));
            if (!s.isEmpty()) {
                chosen.put(pid, s);
                kinds.put(pid, s.stream().anyMatch(StepRule.Step::annotated) ? Steps.Kind.PROFILER_STEP : Steps.Kind.NVTX);
            }
        });
        if (chosen.isEmpty()) {
            profilerRanges.forEach((pid, c) -> {
                List<StepRule.Step> s = StepRule.choose(c);
                if (s.size() >= 2) {
                    chosen.put(pid, s);
                    kinds.put(pid, Steps.Kind.PROFILER_RANGES);
                }
            });
        }
        Map<Integer, Steps.Process> processes = new LinkedHashMap<>();
        int offset = 0;
        for (int pid : chosen.keySet().stream().sorted().toList()) {
            Steps.Process p = new Steps.Process(pid, kinds.get(pid), offset, chosen.get(pid));
            processes.put(pid, p);
            offset += p.size();
        }
        if (!tooManyLaunches) {
            placeLaunches(processes);
        }
        return new Steps(processes, rangeName);
    }

    /** Each process's launches, by correlation id, with the step each was made in (its start inside the step). */
    private void placeLaunches(Map<Integer, Steps.Process> processes) {
        Map<Integer, int[]> counts = new HashMap<>();
        for (int i = 0; i < launches; i++) {
            if (processes.containsKey(launchPid[i])) {
                counts.computeIfAbsent(launchPid[i], p -> new int[1])[0]++;
            }
        }
        Map<Integer, long[]> packed = new HashMap<>(); // (correlation << 32 | step + 1), sortable by correlation
        Map<Integer, int[]> filled = new HashMap<>();
        counts.forEach((pid, n) -> {
            packed.put(pid, new long[n[0]]);
            filled.put(pid, new int[1]);
        });
        for (int i = 0; i < launches; i++) {
            Steps.Process p = processes.get(launchPid[i]);
            if (p == null) {
                continue;
            }
            int step = p.holding(launchStart[i]);
            int[] f = filled.get(p.pid);
            packed.get(p.pid)[f[0]++] = ((long) launchCorrelation[i] << 32) | ((step + 1) & 0xffffffffL);
        }
        launchStart = null;
        launchCorrelation = null;
        launchPid = null;
        packed.forEach((pid, all) -> {
            Arrays.sort(all); // by correlation id (signed, as the ints compare)
            Steps.Process p = processes.get(pid);
            p.launchCorrelation = new int[all.length];
            p.launchStep = new int[all.length];
            for (int i = 0; i < all.length; i++) {
                p.launchCorrelation[i] = (int) (all[i] >> 32);
                p.launchStep[i] = (int) all[i] - 1;
            }
        });
    }

    /** The step ranges wholly inside one of the process's capture ranges (all of them without ranges). */
    private List<StepRule.Candidate> inCapture(int pid, List<StepRule.Candidate> steps, Clocks clocks) {
        List<long[]> ranges = captureRanges.get(pid);
        if (ranges == null || ranges.isEmpty()) {
            return steps;
        }
        List<long[]> epoch = new ArrayList<>();
        for (long[] r : ranges) {
            boolean begun = r[0] != 0 || r[1] != 0;
            boolean ended = r[2] != 0 || r[3] != 0;
            epoch.add(new long[] {
                    begun ? RangeEdges.epochNs(r[0], r[1], clocks.of(pid)) : Long.MIN_VALUE,
                    ended ? RangeEdges.epochNs(r[2], r[3], clocks.of(pid)) : Long.MAX_VALUE});
        }
        List<StepRule.Candidate> in = new ArrayList<>();
        for (StepRule.Candidate s : steps) {
            long a = clocks.epochNs(pid, s.startNs()), b = clocks.epochNs(pid, s.endNs());
            for (long[] r : epoch) {
                if (r[0] <= a && b <= r[1]) {
                    in.add(s);
                    break;
                }
            }
        }
        return in;
    }
}
