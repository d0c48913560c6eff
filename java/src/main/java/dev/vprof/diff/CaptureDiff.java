package dev.vprof.diff;

import dev.vprof.adapt.ApiNames;
import dev.vprof.aggregate.KernelPass;
import dev.vprof.aggregate.Sink;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CpuOpEvent;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.ReadStats;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.report.Report;
import dev.vprof.report.RequestFigures;
import dev.vprof.source.CaptureSources;
import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Clocks;
import dev.vprof.time.Scope;
import dev.vprof.time.Selection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code vprof diff}: two sides (two captures, or two parts of one) read in streaming passes and
 * compared. Per file: a first pass for its steps, GPUs and window ({@link FirstPassFacts}); then the
 * per-unit basis is chosen for both sides (steps, else requests, else seconds); then one pass
 * counts every kernel into the sides it belongs to ({@link SideAcc}), and feeds the requests' GPU
 * time (the report's {@link RequestFigures}). The comparison itself is {@link Comparison}.
 */
public final class CaptureDiff {
    private CaptureDiff() {}

    /** Step buckets per side at most: consecutive steps share one past this (the interval stays honest). */
    static final int MAX_BUCKETS = 512;

    /** One file read, and the sides it feeds. */
    static final class Input {
        final Path path;
        final CaptureReader reader;
        final FirstPassFacts facts;
        final List<String> notes = new ArrayList<>();
        RequestFigures requests;
        List<RequestSlice> slices = List.of();
        final List<SideAcc> sides = new ArrayList<>();
        List<Report.RequestSummary> requestSummaries = List.of();

        Input(Path path, CaptureReader reader, String stepRange) {
            this.path = path;
            this.reader = reader;
            this.facts = FirstPassFacts.read(reader, stepRange);
            this.requests = RequestFigures.prepare(reader, notes);
            if (requests != null) {
                slices = requests.slices();
            }
        }
    }

    /**
     * Hears how the two sides were read once they are open and every checksum is checked, before
     * anything is counted; it may throw to give no verdict (a side read partly). The stats keep
     * growing while the sides are read (what the passes meet), so the same objects are final after.
     */
    public interface SidesRead {
        void sides(ReadStats base, ReadStats next);
    }

    public static DiffResult run(DiffOptions o) throws IOException {
        return run(o, (base, next) -> {});
    }

    /** Compares the two sides of {@code o}, telling {@code health} how they were read first. */
    public static DiffResult run(DiffOptions o, SidesRead health) throws IOException {
        boolean oneFile = o.baseFile().toAbsolutePath().normalize().equals(o.newFile().toAbsolutePath().normalize());
        try (CaptureReader b = CaptureSources.open(o.baseFile());
             CaptureReader n = oneFile ? null : CaptureSources.open(o.newFile())) {
            b.verify();
            if (n != null) {
                n.verify();
            }
            health.sides(b.readStats(), n == null ? b.readStats() : n.readStats());
            Input base = new Input(o.baseFile(), b, o.stepRange());
            Input next = oneFile ? base : new Input(o.newFile(), n, o.stepRange());
            SideAcc bs = new SideAcc(label(o.baseFile(), o.baseSelection()), o.baseSelection(), base.facts, o, 1);
            // The same seed on both sides: identical inputs sample identically (a zero-width interval).
            SideAcc ns = new SideAcc(label(o.newFile(), o.newSelection()), o.newSelection(), next.facts, o, 1);
            if (o.rank() != null) {
                bs.pids = rankPids(b, o.rank(), o.baseFile());
                ns.pids = rankPids(oneFile ? b : n, o.rank(), o.newFile());
            }
            base.sides.add(bs);
            next.sides.add(ns);
            chooseBasis(base, bs, next, ns);
            count(base);
            if (next != base) {
                count(next);
            }
            for (SideAcc s : List.of(bs, ns)) {
                if (s.total.count == 0) {
                    throw new DiffException("the " + (s == bs ? "base" : "new") + " side, " + s.label
                            + ", holds no kernels" + (s.outside[0] > 0 ? " in its steps (" + s.outside[0]
                            + " outside any step)" : "") + (s.selection.kind() == Selection.Kind.ALL ? ""
                            : String.format(Locale.ROOT, " (the capture's window is %.3f s long)",
                                    s.facts.window.durationNs() / 1e9))
                            + "; choose a file, window, step or rank with GPU work");
                }
            }
            return withOutsideSteps(Comparison.compare(o, base, bs, next, ns), bs, ns);
        }
    }

    /**
     * The sides as the result gives them, with every kernel of each: those in its steps (what the
     * per-step figures are of) and those outside them, shown as a row of their own.
     */
    private static DiffResult withOutsideSteps(DiffResult r, SideAcc b, SideAcc n) {
        return r.withSides(withOutside(r.base(), b), withOutside(r.next(), n));
    }

    private static DiffResult.Side withOutside(DiffResult.Side side, SideAcc s) {
        if (!s.stepsMode) {
            return side;
        }
        return side.withOutsideSteps(new DiffResult.OutsideSteps(s.outside[0], s.outside[1]));
    }

    private static Set<Integer> rankPids(CaptureReader r, int rank, Path file) {
        Set<Integer> pids = new HashSet<>();
        for (ProcessInfo p : r.processes()) {
            if (p.rank() != null && p.rank() == rank) {
                pids.add(p.pid());
            }
        }
        if (pids.isEmpty()) {
            throw new DiffException(file + " holds no process of rank " + rank + "; give a rank it holds (vprof report"
                    + " lists them)");
        }
        return pids;
    }

    private static String label(Path file, Selection s) {
        return s.kind() == Selection.Kind.ALL ? file.toString() : file + " (" + s.describe() + ")";
    }

    /** Steps when both sides have them, else requests when both have them, else seconds of each side. */
    private static void chooseBasis(Input bi, SideAcc b, Input ni, SideAcc n) {
        pickRequests(bi, b);
        pickRequests(ni, n);
        TreeSet<Long> bSteps = b.includedSteps();
        TreeSet<Long> nSteps = n.includedSteps();
        if (!bSteps.isEmpty() && !nSteps.isEmpty()) {
            b.useSteps(bSteps, MAX_BUCKETS);
            n.useSteps(nSteps, MAX_BUCKETS);
            b.unit = n.unit = "step";
            b.units = b.steps;
            n.units = n.steps;
        } else if (b.requests > 0 && n.requests > 0) {
            b.unit = n.unit = "request";
            b.units = b.requests;
            n.units = n.requests;
        } else {
            b.unit = n.unit = "second";
            b.units = b.seconds();
            n.units = n.seconds();
        }
        b.startCounting();
        n.startCounting();
    }

    /**
     * The side's requests: for a request set, the slowest P % (or the rest) of all; for a window,
     * those that started in it; for a whole capture, every one.
     */
    private static void pickRequests(Input in, SideAcc side) {
        int m = in.slices.size();
        long[] start = new long[m], end = new long[m], e2e = new long[m];
        for (int i = 0; i < m; i++) {
            RequestSlice r = in.slices.get(i);
            start[i] = r.startEpochNs();
            end[i] = r.endEpochNs();
            e2e[i] = r.endEpochNs() - r.startEpochNs();
        }
        boolean[] picked = side.selection.pick(e2e);
        if (side.selection.kind() == Selection.Kind.WINDOW) {
            for (int i = 0; i < m; i++) {
                picked[i] = start[i] >= side.fromEpochNs && start[i] < side.toEpochNs;
            }
        }
        side.useRequests(picked, start, end, side.selection.byRequests());
    }

    /**
     * The counting pass over one file: the aggregation's pass, each side a sink with its own scope,
     * the requests' GPU time, and the CPU operators, annotations and runtime calls for every side.
     */
    private static void count(Input in) {
        Clocks clocks = in.facts.clocks;
        KernelPass pass = new KernelPass(clocks).steps(in.facts.all);
        for (SideAcc side : in.sides) {
            pass.add(side.scope(), side);
        }
        if (in.requests != null && in.requests.wantsKernels()) {
            pass.add(Scope.ALL, in.requests.sink());
        }
        pass.add(Scope.ALL, new CpuOps(in.sides.toArray(SideAcc[]::new), clocks));
        pass.run(in.reader);
        if (in.requests != null) {
            in.requestSummaries = in.requests.requests(in.facts.window);
        }
    }

    /**
     * CPU operators (a trace's CPU ops, and annotations of the default domain paired from their
     * START and END markers) and runtime calls, handed to every side. Open pairs are bounded by
     * {@value #MAX_OPEN}.
     */
    private static final class CpuOps implements Sink {
        static final int MAX_OPEN = 1 << 16;
        private final SideAcc[] sides;
        private final Clocks clocks;
        /** (pid, id) -> {start}, and their names. */
        private final Map<Long, long[]> open = new HashMap<>();
        private final Map<Long, String> openName = new HashMap<>();

        CpuOps(SideAcc[] sides, Clocks clocks) {
            this.sides = sides;
            this.clocks = clocks;
        }

        @Override
        public boolean takesKernels() {
            return false;
        }

        @Override
        public void marker(int p, MarkerEvent m) {
            long key = ((long) p << 32) | (m.id() & 0xffffffffL);
            if ((m.flags() & VprofRing.MARKER_START) != 0) {
                if (m.name() != null && m.domain() == null && open.size() < MAX_OPEN) {
                    open.put(key, new long[] {m.timestamp()});
                    openName.put(key, m.name());
                }
            } else if ((m.flags() & VprofRing.MARKER_END) != 0) {
                long[] s = open.remove(key);
                String name = openName.remove(key);
                if (s != null) {
                    long es = clocks.epochNs(p, s[0]);
                    for (SideAcc side : sides) {
                        side.cpuOp(p, s[0], es, Math.max(0, m.timestamp() - s[0]), SideAcc.ANNOTATION, name);
                    }
                }
            }
        }

        @Override
        public void cpuOp(int p, CpuOpEvent op) {
            if (op.isPython() || op.name() == null) {
                return; // Python frames enclose the operators: rows of both would count one time twice
            }
            long es = clocks.epochNs(p, op.start());
            for (SideAcc side : sides) {
                side.cpuOp(p, op.start(), es, Math.max(0, op.end() - op.start()), SideAcc.CPU_OP, op.name());
            }
        }

        @Override
        public void api(int p, ApiEvent a) {
            String name = ApiNames.name(a);
            long es = clocks.epochNs(p, a.start());
            for (SideAcc side : sides) {
                side.cpuOp(p, a.start(), es, Math.max(0, a.end() - a.start()), SideAcc.RUNTIME, name);
            }
        }
    }

    /** The span attribute of prompt tokens, for the request mix. */
    static final String PROMPT_TOKENS = RequestPhases.ATTR_PROMPT_TOKENS;

    static CaptureWindow sideWindow(SideAcc s) {
        long from = Math.max(s.fromEpochNs, s.facts.window.startNs());
        long to = Math.min(s.toEpochNs, s.facts.window.endNs());
        return to >= from ? new CaptureWindow(from, to, s.facts.window.source()) : CaptureWindow.NONE;
    }
}
