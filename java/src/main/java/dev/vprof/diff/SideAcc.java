package dev.vprof.diff;

import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.SampleBudget;
import dev.vprof.aggregate.Sink;
import dev.vprof.aggregate.Steps;
import dev.vprof.capture.KernelDesc;
import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Intervals;
import dev.vprof.time.Scope;
import dev.vprof.time.Selection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One side being counted: which of its file's steps, requests and instants it takes (its
 * {@link Scope}, which the aggregation's pass applies: GPU work that starts in its window, as
 * {@code vprof report --window} takes it, or while one of its requests runs, of its rank), and its
 * kernels by key at every level. With steps, a kernel of the side counts in its step's bucket, and
 * one that belongs to none of the side's steps in {@link #outside}, never dropped. Memory: per key a
 * bounded distribution and sample, per step bucket a number; never per kernel.
 */
final class SideAcc implements Sink {
    /** Exact durations kept per side before distributions switch to their histogram (8 MiB). */
    static final long SAMPLES = 1L << 20;

    /** A kernel name's accumulators at each level. */
    record Entry(KeyStats exact, KeyStats base, KeyStats category) {}

    final String label;
    final Selection selection;
    final FirstPassFacts facts;
    final DiffOptions options;
    final long fromEpochNs;
    final long toEpochNs;
    /** The side's window as a cut of the file; null for a whole capture or a set of requests. */
    private final CaptureWindow window;
    /** The kernels of the side that belong to none of its steps (with steps): {count, ns}. */
    final long[] outside = new long[2];

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

    // requests picked (indices into the file's request list)
    boolean[] requestPicked = new boolean[0];
    long requests;

    double units;
    String unit;

    final Map<String, Entry> byName = new HashMap<>();
    final Map<String, KeyStats> exact = new HashMap<>();
    final Map<String, KeyStats> base = new HashMap<>();
    final Map<String, KeyStats> category = new HashMap<>();
    final Map<String, KeyStats> shape = new HashMap<>();
    private final Map<KernelDesc, KeyStats> shapeOfDesc = new IdentityHashMap<>();
    KeyStats total;
    /** The row kinds beside kernels: a CPU operator, an annotation (NVTX range, user annotation), a runtime or driver call. */
    static final String CPU_OP = "cpu_op";
    static final String ANNOTATION = "annotation";
    static final String RUNTIME = "runtime";
    /** CPU operators, annotations and runtime calls by kind and name ({@code kind \t name}): {count, total ns}. */
    final Map<String, long[]> cpuOps = new TreeMap<>();
    private final SampleBudget budget = new SampleBudget(SAMPLES);
    final KeyStats.Rng rng;
    private String lastName;
    private Entry lastEntry;
    private int lastStep = Integer.MIN_VALUE;
    private int lastBucket = -1;
    /** The picked requests' intervals, once picked (kernels count while one runs); null for all time. */
    private Intervals during;

    SideAcc(String label, Selection selection, FirstPassFacts facts, DiffOptions options, long seed) {
        this.label = label;
        this.selection = selection;
        this.facts = facts;
        this.options = options;
        CaptureWindow w = facts.window;
        if (selection.kind() == Selection.Kind.WINDOW) {
            try {
                window = selection.within(w);
            } catch (IllegalArgumentException e) {
                throw new DiffException("the side " + label + " holds no kernels: its window " + e.getMessage()
                        + "; choose a window inside the capture");
            }
            fromEpochNs = window.startNs();
            toEpochNs = window.endNs();
        } else {
            window = null;
            fromEpochNs = w.startNs();
            toEpochNs = w.endNs();
        }
        this.rng = new KeyStats.Rng(seed);
    }

    /** What the side takes of its file's GPU work: its window, its requests, its rank (set once requests are picked). */
    Scope scope() {
        return new Scope(window, during, pids);
    }

    /** The steps this side takes: those that start in its window (all without one), and only number {@code step} when given. */
    TreeSet<Long> includedSteps() {
        TreeSet<Long> in = new TreeSet<>();
        if (selection.byRequests()) {
            return in;
        }
        for (int s : takenSteps()) {
            in.add(facts.all.number(s));
        }
        return in;
    }

    /** The file's steps (indexes) of the side's processes that start in its window, of number {@code --step} when given. */
    private List<Integer> takenSteps() {
        Steps all = facts.all;
        List<Integer> taken = new ArrayList<>();
        for (int s = 0; s < all.count(); s++) {
            int pid = all.pid(s);
            if (!acceptsPid(pid) || (options.step() != null && all.number(s) != options.step())) {
                continue;
            }
            if (window != null && !window.holds(facts.clocks.epochNs(pid, all.startNs(s)))) {
                continue;
            }
            taken.add(s);
        }
        return taken;
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
        for (int s : takenSteps()) {
            Integer b = bucketOfStep.get(facts.all.number(s));
            if (b != null) {
                long wall = facts.all.durationNs(s);
                stepNsPerBucket[b] += wall;
                stepWallNs += wall;
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
        List<long[]> chosen = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            chosen.add(iv[i]);
        }
        during = Intervals.union(chosen, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    void startCounting() {
        if (total == null) {
            total = new KeyStats("all kernels", 0);
        }
    }

    /** One kernel of the side (its scope admitted it): counted in its step's bucket, or outside the side's steps. */
    @Override
    public void kernel(Kernel k) {
        int bucket = -1;
        long durationNs = k.durationNs();
        if (stepsMode) {
            bucket = stepBucket(k.step());
            if (bucket < 0) {
                if (options.step() == null) {
                    outside[0]++;
                    outside[1] += durationNs;
                } // with --step the side is that step: the others' kernels are not the side's
                return;
            }
        }
        String name = k.name();
        KernelDesc desc = k.desc();
        total.add(durationNs, bucket, budget, rng);
        // Identity on purpose: a fast path for the same String as the last kernel's; an equal copy takes entry().
        @SuppressWarnings("ReferenceEquality")
        Entry e = name == lastName ? lastEntry : entry(name);
        e.exact().add(durationNs, bucket, budget, rng);
        e.base().add(durationNs, bucket, budget, rng);
        e.category().add(durationNs, bucket, budget, rng);
        if (options.byShape()) {
            KeyStats s = desc == null ? null : shapeOfDesc.get(desc);
            if (s == null) {
                String key = options.names().show(name) + (desc == null ? " [shape unknown]"
                        : " grid(" + desc.gridX() + "," + desc.gridY() + "," + desc.gridZ() + ") block("
                                + desc.blockX() + "," + desc.blockY() + "," + desc.blockZ() + ")");
                s = shape.computeIfAbsent(key, x -> new KeyStats(x, bucketCount));
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
    void cpuOp(int pid, long start, long epochStart, long durationNs, String kind, String name) {
        if (!acceptsPid(pid) || selection.byRequests()) {
            return;
        }
        if (stepsMode) {
            int i = facts.all.holding(pid, start);
            if (i < 0 || !bucketOfStep.containsKey(facts.all.number(i))) {
                return;
            }
        } else if (window != null && !window.holds(epochStart)) {
            return;
        }
        long[] c = cpuOps.computeIfAbsent(kind + '\t' + name, k -> new long[2]);
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

    /** The bucket of the file's step {@code step} (an index; -1 none), or -1 when it is not one of the side's. */
    private int stepBucket(int step) {
        if (step == lastStep) {
            return lastBucket;
        }
        Integer b = step < 0 ? null : bucketOfStep.get(facts.all.number(step));
        lastStep = step;
        lastBucket = b == null ? -1 : b;
        return lastBucket;
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
