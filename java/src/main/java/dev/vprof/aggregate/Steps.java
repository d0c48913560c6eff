package dev.vprof.aggregate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The steps of a capture, by {@link StepRule}, as {@link StepFinder} found them, and which step each
 * kernel belongs to: the step its launch was made in (the runtime or driver call with its correlation
 * id started inside the step's interval, as Holistic Trace Analysis assigns GPU work: an
 * unsynchronised CPU runs steps ahead of the GPU); a kernel whose launch the capture does not hold
 * belongs to the last step that started before the kernel did. Steps are numbered by an index over
 * the whole capture (process by process, each in order of start); times are each process's CUPTI ns.
 * Memory: a few numbers per step, and per launch a correlation id and a step while launches are
 * known (at most {@link StepFinder#MAX_LAUNCHES}; past that every kernel is placed by its start).
 */
public final class Steps {
    /** What marks the steps of a process. */
    public enum Kind {
        PROFILER_STEP("ProfilerStep#N"), NVTX("nvtx"), PROFILER_RANGES("cudaProfilerApi");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    /** One process's steps. */
    static final class Process {
        final int pid;
        final Kind kind;
        final int offset;
        final long[] start;
        final long[] end;
        final long[] number;
        final long[] tid;
        /** Launches by correlation id (sorted) and the index (in this process) of the step each was made in, -1 none; null when not known. */
        int[] launchCorrelation;
        int[] launchStep;

        Process(int pid, Kind kind, int offset, List<StepRule.Step> steps) {
            this.pid = pid;
            this.kind = kind;
            this.offset = offset;
            int n = steps.size();
            start = new long[n];
            end = new long[n];
            number = new long[n];
            tid = new long[n];
            for (int i = 0; i < n; i++) {
                StepRule.Step s = steps.get(i);
                start[i] = s.startNs();
                end[i] = s.endNs();
                number[i] = s.number();
                tid[i] = s.tid();
            }
        }

        int size() {
            return start.length;
        }

        /** The last step that started at or before {@code t}, or -1. */
        int startedBy(long t) {
            int lo = 0, hi = start.length - 1, found = -1;
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

        /** The step whose interval (both ends in) holds {@code t}, or -1. */
        int holding(long t) {
            int i = startedBy(t);
            return i >= 0 && t <= end[i] ? i : -1;
        }
    }

    public static final Steps NONE = new Steps(Map.of(), "");

    private final Map<Integer, Process> byPid;
    private final int[] pidOf;
    private final int[] localOf;
    private final String rangeName;
    private int lastPid = Integer.MIN_VALUE;
    private Process last;
    private int lastLaunch;

    Steps(Map<Integer, Process> byPid, String rangeName) {
        this.byPid = new TreeMap<>(byPid);
        this.rangeName = rangeName;
        int n = 0;
        for (Process p : this.byPid.values()) {
            n += p.size();
        }
        pidOf = new int[n];
        localOf = new int[n];
        for (Process p : this.byPid.values()) {
            for (int i = 0; i < p.size(); i++) {
                pidOf[p.offset + i] = p.pid;
                localOf[p.offset + i] = i;
            }
        }
    }

    /** Steps over every process. */
    public int count() {
        return pidOf.length;
    }

    public boolean isEmpty() {
        return pidOf.length == 0;
    }

    /** The processes that have steps, in pid order. */
    public List<Integer> pids() {
        return List.copyOf(byPid.keySet());
    }

    /** The steps of {@code pid}: indexes from {@code first(pid)}, {@code count(pid)} of them. */
    public int first(int pid) {
        Process p = byPid.get(pid);
        return p == null ? 0 : p.offset;
    }

    public int count(int pid) {
        Process p = byPid.get(pid);
        return p == null ? 0 : p.size();
    }

    public int pid(int step) {
        return pidOf[step];
    }

    /** ProfilerStep#N's N; for NVTX ranges and capture ranges, the step's place in its process from 0. */
    public long number(int step) {
        Process p = byPid.get(pidOf[step]);
        return p.number[localOf[step]];
    }

    public long startNs(int step) {
        return byPid.get(pidOf[step]).start[localOf[step]];
    }

    public long endNs(int step) {
        return byPid.get(pidOf[step]).end[localOf[step]];
    }

    public long durationNs(int step) {
        return endNs(step) - startNs(step);
    }

    /** The thread whose range marks it (0 for a capture range). */
    public long tid(int step) {
        return byPid.get(pidOf[step]).tid[localOf[step]];
    }

    public Kind kind(int step) {
        return byPid.get(pidOf[step]).kind;
    }

    /** The step's name as the source gives it: {@code ProfilerStep#1009}, {@code step 3}, {@code cudaProfilerApi range 2}. */
    public String name(int step) {
        long n = number(step);
        return switch (kind(step)) {
            case PROFILER_STEP -> "ProfilerStep#" + n;
            case NVTX -> rangeName + " " + n;
            case PROFILER_RANGES -> "cudaProfilerApi range " + n;
        };
    }

    /** What marks the steps, every kind seen: "ProfilerStep#N", "nvtx:step", "cudaProfilerApi"; "" without steps. */
    public String rule() {
        List<String> kinds = new ArrayList<>();
        for (Process p : byPid.values()) {
            String w = p.kind == Kind.NVTX ? "nvtx:" + rangeName : p.kind.word();
            if (!kinds.contains(w)) {
                kinds.add(w);
            }
        }
        Collections.sort(kinds);
        return String.join(", ", kinds);
    }

    /** The NVTX range name that marks a step ({@code --steps nvtx:NAME}). */
    public String rangeName() {
        return rangeName;
    }

    /** Whether the kernels of {@code pid} are placed by their launches (else by their starts). */
    public boolean placedByLaunch(int pid) {
        Process p = byPid.get(pid);
        return p != null && p.launchCorrelation != null;
    }

    /** The correlation ids of the launches of {@code pid} the steps were placed by, in order; empty when none. */
    public int[] launches(int pid) {
        Process p = byPid.get(pid);
        return p == null || p.launchCorrelation == null ? new int[0] : p.launchCorrelation.clone();
    }

    /**
     * The step (an index) of a kernel of {@code pid} that started at {@code start} and was launched
     * by the call with {@code correlationId}; -1 when it belongs to no step.
     */
    public int stepOf(int pid, long start, int correlationId) {
        Process p = last;
        if (pid != lastPid) {
            p = byPid.get(pid);
            last = p;
            lastPid = pid;
            lastLaunch = 0;
        }
        if (p == null) {
            return -1;
        }
        int[] corr = p.launchCorrelation;
        if (corr != null && correlationId != 0 && corr.length > 0) {
            int at = lastLaunch;
            // Kernels come nearly in launch order: try where the last one was, and the one after.
            if (!(at < corr.length && corr[at] == correlationId)) {
                at = at + 1 < corr.length && corr[at + 1] == correlationId ? at + 1
                        : Arrays.binarySearch(corr, correlationId);
            }
            if (at >= 0) {
                lastLaunch = at;
                int s = p.launchStep[at];
                return s < 0 ? -1 : p.offset + s;
            }
        }
        int s = p.startedBy(start);
        return s < 0 ? -1 : p.offset + s;
    }

    /** The step of {@code pid} whose interval holds {@code t} (a CPU op's or call's start), -1 none. */
    public int holding(int pid, long t) {
        Process p = byPid.get(pid);
        if (p == null) {
            return -1;
        }
        int s = p.holding(t);
        return s < 0 ? -1 : p.offset + s;
    }
}
