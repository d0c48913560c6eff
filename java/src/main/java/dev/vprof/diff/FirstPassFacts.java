package dev.vprof.diff;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.time.CaptureWindow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the first pass over a capture learns before any kernel is counted: its steps, its GPUs,
 * the record kinds it holds, whether CUDA graphs ran, and its window. Bounded: a few numbers per
 * step and per device, never per kernel.
 *
 * <p>A step is an NVTX range named as {@code --steps nvtx:NAME} says (default {@code step}, what
 * vLLM-style servers and {@code vprof simulate --nvtx} push), or a PyTorch {@code ProfilerStep#N}
 * annotation (its number kept); a range that begins before the previous step of its process ended
 * is not a new step (as the exports' step rule says, see docs/viewers.md). Without such ranges, a
 * process's {@code cudaProfilerApi} capture ranges are its steps when there are two or more.
 */
final class FirstPassFacts implements RecordVisitor {
    static final Pattern PROFILER_STEP = Pattern.compile("ProfilerStep#(\\d+)");

    /** One process's steps, in order of start, in its own CUPTI ns. */
    static final class Steps {
        long[] start = new long[16];
        long[] end = new long[16];
        long[] number = new long[16];
        int size;
        long lastEnd = Long.MIN_VALUE;
        /** Per step, the correlation ids of the launches made in it (from the API records); null without them. */
        int[] corrMin;
        int[] corrMax;

        void add(long s, long e, long n) {
            if (s < lastEnd) {
                return; // nested, or another thread's: not a new step
            }
            if (size == start.length) {
                start = Arrays.copyOf(start, size * 2);
                end = Arrays.copyOf(end, size * 2);
                number = Arrays.copyOf(number, size * 2);
            }
            start[size] = s;
            end[size] = e;
            number[size] = n;
            size++;
            lastEnd = e;
        }

        /**
         * The index of the step whose launches include correlation id {@code c}, or -1 when no
         * step's launches do; only with {@link #corrMin}. Steps without launches are skipped.
         */
        int atCorrelation(int c) {
            int lo = 0, hi = corrSteps.length - 1, found = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (corrMin[corrSteps[mid]] <= c) {
                    found = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            if (found < 0) {
                return -1;
            }
            int step = corrSteps[found];
            return c <= corrMax[step] ? step : -1;
        }

        /** The steps that made launches, in order; set with {@link #corrMin}. */
        int[] corrSteps;

        /** The index of the step a GPU op starting at {@code t} belongs to, or -1 before the first. */
        int at(long t) {
            int lo = 0, hi = size - 1, found = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (start[mid] <= t) {
                    found = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return found;
        }
    }

    private final String stepName;
    final Map<Integer, Steps> steps = new HashMap<>();
    private final Map<Integer, Steps> profilerRanges = new HashMap<>();
    private final Map<Long, long[]> openMarkers = new HashMap<>();
    private final Map<Integer, Long> nextStepNumber = new HashMap<>();
    private final Map<Integer, Long> openProfiler = new HashMap<>();
    /** device name by "pid:id" (or uuid). */
    final Map<String, String> devices = new TreeMap<>();
    long kernels, memcpys, memsets, markers, apis, graphKernels;
    private final Map<Integer, long[]> extent = new HashMap<>();
    private long rangesStart = Long.MAX_VALUE, rangesEnd = Long.MIN_VALUE;
    private final Map<Integer, ClockMapping> clocks;
    /**
     * The API calls seen (pid, start, correlation id), to learn which step launched each kernel;
     * up to {@value #MAX_LAUNCHES}, dropped past that (a GPU op then belongs to the step its start
     * falls in).
     */
    static final int MAX_LAUNCHES = 1 << 21;
    private long[][] launches = new long[1024][];
    private int launchCount;

    CaptureWindow window = CaptureWindow.NONE;
    Integer worldSize;
    final TreeSet<Integer> ranks = new TreeSet<>();
    final TreeSet<Long> cuptiVersions = new TreeSet<>();

    FirstPassFacts(String stepName, Map<Integer, ClockMapping> clocks) {
        this.stepName = stepName;
        this.clocks = clocks;
    }

    static FirstPassFacts read(CaptureReader reader, String stepName) {
        FirstPassFacts f = new FirstPassFacts(stepName, reader.clocks());
        reader.forEachRecord(f);
        f.finish(reader);
        return f;
    }

    private ClockMapping clock(int pid) {
        return clocks.getOrDefault(pid, ClockMapping.identity());
    }

    @Override
    public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
        kernels++;
        if (desc != null && desc.fromGraph()) {
            graphKernels++;
        }
        long[] e = extent.computeIfAbsent(pid, p -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
        if (start < e[0]) e[0] = start;
        if (end > e[1]) e[1] = end;
    }

    @Override
    public void memcpy(int pid, MemcpyEvent memcpy) {
        memcpys++;
    }

    @Override
    public void memset(int pid, MemsetEvent memset) {
        memsets++;
    }

    @Override
    public void api(int pid, ApiEvent api) {
        apis++;
        if (api.correlationId() == 0 || launches == null) {
            return;
        }
        if (launchCount == MAX_LAUNCHES) {
            launches = null; // too many to hold: steps are then found by GPU time
            return;
        }
        if (launchCount == launches.length) {
            launches = Arrays.copyOf(launches, launches.length * 2);
        }
        launches[launchCount++] = new long[] {pid, api.start(), api.correlationId()};
    }

    @Override
    public void device(int pid, DeviceProperties d) {
        String key = d.uuid() != null && !d.uuid().isEmpty() ? d.uuid() : pid + ":" + d.id();
        devices.put(key, d.name() == null ? "(unnamed GPU)" : d.name());
    }

    @Override
    public void marker(int pid, MarkerEvent m) {
        markers++;
        long key = ((long) pid << 32) | (m.id() & 0xffffffffL);
        if ((m.flags() & VprofRing.MARKER_START) != 0) {
            if (m.name() == null) {
                return;
            }
            long number;
            Matcher pm = PROFILER_STEP.matcher(m.name());
            if (m.domain() != null) {
                return; // a step is a range of the default domain (not a GPU annotation, not a CPU op)
            }
            if (pm.matches()) {
                number = Long.parseLong(pm.group(1));
            } else if (m.name().equals(stepName)) {
                number = -1; // numbered in order at its end
            } else {
                return;
            }
            openMarkers.put(key, new long[] {m.timestamp(), number});
        } else if ((m.flags() & VprofRing.MARKER_END) != 0) {
            long[] open = openMarkers.remove(key);
            if (open == null) {
                return;
            }
            long number = open[1];
            if (number < 0) {
                number = nextStepNumber.merge(pid, 1L, Long::sum) - 1;
            }
            steps.computeIfAbsent(pid, p -> new Steps()).add(open[0], Math.max(open[0], m.timestamp()), number);
        }
    }

    @Override
    public void range(int pid, RangeEvent e) {
        long t = e.realtimeNs() != 0 ? e.realtimeNs() : clock(pid).toEpochNs(e.cuptiNs());
        if (e.isBegin() || e.isEnd()) {
            rangesStart = Math.min(rangesStart, t);
            rangesEnd = Math.max(rangesEnd, t);
        }
        if (e.source() != VprofRing.SOURCE_PROFILER) {
            return;
        }
        if (e.isBegin()) {
            openProfiler.put(pid, e.cuptiNs());
        } else if (e.isEnd()) {
            Long s = openProfiler.remove(pid);
            if (s != null) {
                Steps r = profilerRanges.computeIfAbsent(pid, p -> new Steps());
                r.add(s, Math.max(s, e.cuptiNs()), r.size);
            }
        }
    }

    private void finish(CaptureReader reader) {
        // Sorted by start: markers of a process come in its record order, which is nearly but not always start order.
        for (Steps s : steps.values()) {
            sort(s);
        }
        if (steps.isEmpty()) {
            profilerRanges.forEach((pid, r) -> {
                if (r.size >= 2) {
                    steps.put(pid, r);
                }
            });
        }
        if (launches != null) {
            // A kernel belongs to the step whose CPU interval its launch call started in (as HTA assigns
            // GPU ops), not the one its GPU start falls in: an unsynchronised CPU runs steps ahead of the GPU.
            for (int i = 0; i < launchCount; i++) {
                long[] l = launches[i];
                Steps s = steps.get((int) l[0]);
                if (s == null) continue;
                int at = s.at(l[1]);
                if (at < 0 || l[1] > s.end[at]) continue;
                if (s.corrMin == null) {
                    s.corrMin = new int[s.size];
                    s.corrMax = new int[s.size];
                    Arrays.fill(s.corrMin, Integer.MAX_VALUE);
                    Arrays.fill(s.corrMax, Integer.MIN_VALUE);
                }
                int c = (int) l[2];
                s.corrMin[at] = Math.min(s.corrMin[at], c);
                s.corrMax[at] = Math.max(s.corrMax[at], c);
            }
            launches = null;
            for (Steps s : steps.values()) {
                if (s.corrMin != null) {
                    int n = 0;
                    int[] with = new int[s.size];
                    for (int i = 0; i < s.size; i++) {
                        if (s.corrMin[i] != Integer.MAX_VALUE) with[n++] = i;
                    }
                    s.corrSteps = Arrays.copyOf(with, n);
                }
            }
        }
        long ds = Long.MAX_VALUE, de = Long.MIN_VALUE;
        for (Map.Entry<Integer, long[]> e : extent.entrySet()) {
            ClockMapping c = clock(e.getKey());
            ds = Math.min(ds, c.toEpochNs(e.getValue()[0]));
            de = Math.max(de, c.toEpochNs(e.getValue()[1]));
        }
        window = CaptureWindow.choose(reader.window().orElse(null), rangesStart, rangesEnd, ds, de);
        for (ProcessInfo p : reader.processes()) {
            if (p.worldSize() != null) {
                worldSize = worldSize == null ? p.worldSize() : Math.max(worldSize, p.worldSize());
            }
            if (p.rank() != null) {
                ranks.add(p.rank());
            }
            if (p.cuptiVersion() != 0) {
                cuptiVersions.add(p.cuptiVersion());
            }
        }
    }

    private static void sort(Steps s) {
        Integer[] order = new Integer[s.size];
        for (int i = 0; i < s.size; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Long.compare(s.start[a], s.start[b]));
        long[] st = new long[s.size], en = new long[s.size], nu = new long[s.size];
        for (int i = 0; i < s.size; i++) {
            st[i] = s.start[order[i]];
            en[i] = s.end[order[i]];
            nu[i] = s.number[order[i]];
        }
        s.start = st;
        s.end = en;
        s.number = nu;
    }

    /** The step numbers of every process, in order (the ranks of one capture number their steps alike). */
    TreeSet<Long> stepNumbers() {
        TreeSet<Long> n = new TreeSet<>();
        for (Steps s : steps.values()) {
            for (int i = 0; i < s.size; i++) {
                n.add(s.number[i]);
            }
        }
        return n;
    }

    /** The record kinds the capture holds, as words. */
    List<String> kinds() {
        List<String> k = new ArrayList<>();
        if (kernels > 0) k.add("kernel");
        if (memcpys > 0) k.add("memcpy");
        if (memsets > 0) k.add("memset");
        if (markers > 0) k.add("nvtx");
        if (apis > 0) k.add("runtime");
        return k;
    }

    ClockMapping clockOf(int pid) {
        return clock(pid);
    }
}
