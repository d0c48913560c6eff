package dev.vprof.diff;

import dev.vprof.adapt.Selection;
import dev.vprof.capture.KernelDesc;
import dev.vprof.report.SampleBudget;
import dev.vprof.time.CaptureWindow;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One side being counted: which of its file's steps, requests and instants it takes, and its
 * kernels by key at every level. Memory: per key a bounded distribution and sample, per step bucket
 * a number; never per kernel.
 */
final class SideAcc {
    /** Exact durations kept per side before distributions switch to their histogram (8 MiB). */
    static final long SAMPLES = 1L << 20;

    /** A kernel name's accumulators at each level. */
    static final class Entry {
        final KeyStats exact;
        final KeyStats base;
        final KeyStats category;

        Entry(KeyStats exact, KeyStats base, KeyStats category) {
            this.exact = exact;
            this.base = base;
            this.category = category;
        }
    }

    final String label;
    final Selection selection;
    final FirstPassFacts facts;
    final DiffOptions options;
    final long fromEpochNs;
    final long toEpochNs;

    // steps
    boolean stepsMode;
    /** step number -> bucket; the included steps only. */
    final Map<Long, Integer> bucketOfStep = new HashMap<>();
    int bucketCount;
    int[] stepsPerBucket = new int[0];
    double[] stepNsPerBucket = new double[0];
    long steps;
    long stepWallNs;
    /** The bootstrap's step resamples (bucket indices) and their step counts, once drawn. */
    int[][] stepIdx;
    double[] stepDen;

    // requests picked (indices into the file's request list) and their merged intervals in epoch ns
    boolean[] requestPicked = new boolean[0];
    long requests;
    private long[] intervalStart = new long[0];
    private long[] intervalEnd = new long[0];

    double units;
    String unit;

    final Map<String, Entry> byName = new HashMap<>();
    final Map<String, KeyStats> exact = new HashMap<>();
    final Map<String, KeyStats> base = new HashMap<>();
    final Map<String, KeyStats> category = new HashMap<>();
    final Map<String, KeyStats> shape = new HashMap<>();
    private final Map<KernelDesc, KeyStats> shapeOfDesc = new IdentityHashMap<>();
    KeyStats total;
    /** CPU operators (and annotations, and runtime calls) by name: {count, total ns}. */
    final Map<String, long[]> cpuOps = new TreeMap<>();
    private final SampleBudget budget = new SampleBudget(SAMPLES);
    final KeyStats.Rng rng;
    private String lastName;
    private Entry lastEntry;
    private int lastPid = Integer.MIN_VALUE;
    private FirstPassFacts.Steps lastSteps;
    private int lastStepIndex = -1;
    private int lastBucket = -1;

    SideAcc(String label, Selection selection, FirstPassFacts facts, DiffOptions options, long seed) {
        this.label = label;
        this.selection = selection;
        this.facts = facts;
        this.options = options;
        CaptureWindow w = facts.window;
        this.fromEpochNs = selection.kind() == Selection.Kind.WINDOW ? selection.startEpochNs(w) : w.startNs();
        this.toEpochNs = selection.kind() == Selection.Kind.WINDOW && selection.toNs() != Long.MAX_VALUE
                ? selection.endEpochNs(w) : w.endNs();
        this.rng = new KeyStats.Rng(seed);
    }

    /** The steps this side takes: those of its window (all without one), and only number {@code step} when given. */
    TreeSet<Long> includedSteps() {
        TreeSet<Long> in = new TreeSet<>();
        if (selection.byRequests()) {
            return in;
        }
        for (Map.Entry<Integer, FirstPassFacts.Steps> e : facts.steps.entrySet()) {
            if (!acceptsPid(e.getKey())) {
                continue;
            }
            FirstPassFacts.Steps s = e.getValue();
            for (int i = 0; i < s.size; i++) {
                if (options.step() != null && s.number[i] != options.step()) {
                    continue;
                }
                long t = facts.clockOf(e.getKey()).toEpochNs(s.start[i]);
                if (selection.kind() == Selection.Kind.WINDOW && !selection.contains(facts.window, t)) {
                    continue;
                }
                in.add(s.number[i]);
            }
        }
        return in;
    }

    /** Counts per step (the side's steps into at most {@code maxBuckets} buckets of consecutive steps). */
    void useSteps(TreeSet<Long> included, int maxBuckets) {
        stepsMode = true;
        int k = included.size();
        bucketCount = Math.min(k, maxBuckets);
        stepsPerBucket = new int[bucketCount];
        stepNsPerBucket = new double[bucketCount];
        int ord = 0;
        for (long n : included) {
            int b = (int) ((long) ord * bucketCount / k);
            bucketOfStep.put(n, b);
            stepsPerBucket[b]++;
            ord++;
        }
        steps = k;
        for (Map.Entry<Integer, FirstPassFacts.Steps> e : facts.steps.entrySet()) {
            FirstPassFacts.Steps s = e.getValue();
            for (int i = 0; i < s.size; i++) {
                Integer b = bucketOfStep.get(s.number[i]);
                if (b != null) {
                    long wall = s.end[i] - s.start[i];
                    stepNsPerBucket[b] += wall;
                    stepWallNs += wall;
                }
            }
        }
        total = new KeyStats("all kernels", bucketCount);
    }

    /** Takes these requests (start, end in epoch ns) as the side's; kernels then count while one runs. */
    void useRequests(boolean[] picked, long[] start, long[] end, boolean kernelsByRequest) {
        requestPicked = picked;
        long n = 0;
        int m = 0;
        long[][] iv = new long[picked.length][];
        for (int i = 0; i < picked.length; i++) {
            if (picked[i]) {
                n++;
                iv[m++] = new long[] {start[i], end[i]};
            }
        }
        requests = n;
        if (!kernelsByRequest) {
            return;
        }
        long[][] sorted = Arrays.copyOf(iv, m);
        Arrays.sort(sorted, (a, b) -> Long.compare(a[0], b[0]));
        long[] s = new long[m], e = new long[m];
        int k = 0;
        for (long[] x : sorted) {
            if (k > 0 && x[0] <= e[k - 1]) {
                e[k - 1] = Math.max(e[k - 1], x[1]);
            } else {
                s[k] = x[0];
                e[k] = x[1];
                k++;
            }
        }
        intervalStart = Arrays.copyOf(s, k);
        intervalEnd = Arrays.copyOf(e, k);
    }

    void startCounting() {
        if (total == null) {
            total = new KeyStats("all kernels", 0);
        }
    }

    /** One kernel of the file: counted when it is this side's. */
    void kernel(int pid, long start, int correlationId, long durationNs, long epochStart, KernelDesc desc,
                String name) {
        int bucket = -1;
        if (pids != null && !pids.contains(pid)) {
            return;
        }
        if (stepsMode) {
            bucket = stepBucket(pid, start, correlationId);
            if (bucket < 0) {
                return;
            }
        } else if (selection.byRequests()) {
            if (!duringRequest(epochStart)) {
                return;
            }
        } else if (selection.kind() == Selection.Kind.WINDOW) {
            if (epochStart < fromEpochNs || epochStart >= toEpochNs) {
                return;
            }
        }
        total.add(durationNs, bucket, budget, rng);
        Entry e = name == lastName ? lastEntry : entry(name);
        e.exact.add(durationNs, bucket, budget, rng);
        e.base.add(durationNs, bucket, budget, rng);
        e.category.add(durationNs, bucket, budget, rng);
        if (options.byShape()) {
            KeyStats s = desc == null ? null : shapeOfDesc.get(desc);
            if (s == null) {
                String key = options.names().show(name) + (desc == null ? " [shape unknown]"
                        : " grid(" + desc.gridX() + "," + desc.gridY() + "," + desc.gridZ() + ") block("
                                + desc.blockX() + "," + desc.blockY() + "," + desc.blockZ() + ")");
                s = shape.computeIfAbsent(key, k -> new KeyStats(k, bucketCount));
                if (desc != null) {
                    shapeOfDesc.put(desc, s);
                }
            }
            s.add(durationNs, bucket, budget, rng);
        }
    }

    /**
     * A CPU operator, annotation or runtime call that started at {@code start} (its process's
     * CUPTI ns): counted when it is this side's. With steps, an op belongs to the step it starts in
     * (as HTA assigns them); in a window, by its start.
     */
    void cpuOp(int pid, long start, long epochStart, long durationNs, String name) {
        if (!acceptsPid(pid) || selection.byRequests()) {
            return;
        }
        if (stepsMode) {
            FirstPassFacts.Steps s = facts.steps.get(pid);
            int i = s == null ? -1 : s.at(start);
            if (i < 0 || start > s.end[i] || !bucketOfStep.containsKey(s.number[i])) {
                return;
            }
        } else if (selection.kind() == Selection.Kind.WINDOW && (epochStart < fromEpochNs || epochStart >= toEpochNs)) {
            return;
        }
        long[] c = cpuOps.computeIfAbsent(name, k -> new long[2]);
        c[0]++;
        c[1] += durationNs;
    }

    /** Whether the process is read (all, or only the {@code --rank} asked for). */
    boolean acceptsPid(int pid) {
        return pids == null || pids.contains(pid);
    }

    /** The processes of the asked rank; null for all. */
    Set<Integer> pids;

    private Entry entry(String name) {
        Entry e = byName.get(name);
        if (e == null) {
            String shown = options.names().show(name);
            KeyStats x = exact.computeIfAbsent(shown, k -> new KeyStats(k, bucketCount));
            KeyStats b = base.computeIfAbsent(BaseNames.of(shown), k -> new KeyStats(k, bucketCount));
            KeyStats c = category.computeIfAbsent(options.categories().of(shown), k -> new KeyStats(k, bucketCount));
            e = new Entry(x, b, c);
            byName.put(name, e);
        }
        lastName = name;
        lastEntry = e;
        return e;
    }

    private int stepBucket(int pid, long start, int correlationId) {
        if (pid != lastPid) {
            lastPid = pid;
            lastSteps = facts.steps.get(pid);
            lastStepIndex = -1;
        }
        FirstPassFacts.Steps s = lastSteps;
        if (s == null) {
            return -1;
        }
        if (s.corrMin != null) {
            int i = s.atCorrelation(correlationId);
            if (i < 0) {
                return -1;
            }
            Integer b = bucketOfStep.get(s.number[i]);
            return b == null ? -1 : b;
        }
        int i;
        if (lastStepIndex >= 0 && start >= s.start[lastStepIndex]
                && (lastStepIndex + 1 == s.size || start < s.start[lastStepIndex + 1])) {
            return lastBucket;
        }
        i = s.at(start);
        if (i < 0) {
            return -1;
        }
        Integer b = bucketOfStep.get(s.number[i]);
        lastStepIndex = i;
        lastBucket = b == null ? -1 : b;
        return lastBucket;
    }

    private boolean duringRequest(long t) {
        int lo = 0, hi = intervalStart.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (intervalStart[mid] <= t) {
                if (t <= intervalEnd[mid]) {
                    return true;
                }
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return false;
    }

    /** The side's interval in seconds (for a per-second basis), at least 1 ns. */
    double seconds() {
        return Math.max(1, toEpochNs - fromEpochNs) / 1e9;
    }

    /** Every accumulator of the side, for the draws. */
    List<Map<String, KeyStats>> levels() {
        return List.of(exact, base, category, shape);
    }
}
