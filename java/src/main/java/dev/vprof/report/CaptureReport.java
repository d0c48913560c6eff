package dev.vprof.report;

import dev.vprof.aggregate.BusyTime;
import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.KernelPass;
import dev.vprof.aggregate.KernelStats;
import dev.vprof.aggregate.KernelTable;
import dev.vprof.aggregate.Rider;
import dev.vprof.aggregate.SampleBudget;
import dev.vprof.aggregate.Sink;
import dev.vprof.aggregate.StepFinder;
import dev.vprof.aggregate.StepRule;
import dev.vprof.aggregate.StepTally;
import dev.vprof.aggregate.Steps;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.CpuOpEvent;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.DropsEvent;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.ProcessExit;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.WindowChunk;
import dev.vprof.names.KernelNames;
import dev.vprof.otlp.Span;
import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Clocks;
import dev.vprof.time.RangeEdges;
import dev.vprof.time.Scope;
import dev.vprof.time.WindowFinder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds a {@link Report} from one streaming pass over a capture, through the aggregation's
 * {@link KernelPass} (one clock, one window, one step rule, shared with every other view), the step
 * table fed by the same pass: the steps come first from {@link StepFinder#scan}, which hands no
 * sink a kernel. Memory does not grow with the number of kernels: per range and per kernel name
 * it keeps counters and a bounded distribution ({@link KernelTable}); per range and device a
 * bounded {@link BusyTime} window; per step a few numbers.
 *
 * <p>A record belongs to the range whose BEGIN precedes it in its process's record
 * stream, until that range's END; records outside every range are reported in a range
 * of index 0 and source "none".
 */
public final class CaptureReport implements Sink {

    /** Steps listed in the report's step table at most (all are counted). */
    static final int MAX_STEPS_LISTED = 1000;

    private final SampleBudget budget;
    /** How kernel names are shown: the file keeps CUPTI's; the report demangles them (or not). */
    private final KernelNames names;
    private final Map<Integer, ProcessAgg> processes = new LinkedHashMap<>();
    private final KernelTable overall;
    private ProcessAgg last;
    /** Requests to credit GPU time to; null without spans. */
    private RequestsSection requests;
    /** The capture's window, from every range edge and the extent of each range's GPU work. */
    private final WindowFinder windowFinder = new WindowFinder();

    private CaptureReport(SampleBudget budget, KernelNames names) {
        this.budget = budget;
        this.names = names;
        this.overall = new KernelTable(budget);
    }

    /** Reads the whole capture and summarizes it, with the {@code top} kernels by total time. */
    public static Report build(CaptureReader reader, int top) {
        return build(reader, top, KernelNames.demangled());
    }

    /** As {@link #build(CaptureReader, int)}, with kernel names shown as {@code names} says. */
    public static Report build(CaptureReader reader, int top, KernelNames names) {
        return build(reader, top, SampleBudget.DEFAULT_SAMPLES, names);
    }

    /**
     * As {@link #build(CaptureReader, int, KernelNames)}, with {@code extraSpans} (imported with
     * {@code --spans}) placed by wall clock beside the capture's own: a trace's kernels then get the
     * same per-phase GPU time as a capture's.
     */
    public static Report build(CaptureReader reader, int top, KernelNames names, List<Span> extraSpans) {
        return build(reader, top, SampleBudget.DEFAULT_SAMPLES, names, extraSpans);
    }

    static Report build(CaptureReader reader, int top, long exactSamples) {
        return build(reader, top, exactSamples, KernelNames.demangled());
    }

    /**
     * As {@link #build(CaptureReader, int, KernelNames)}, of the GPU work that starts inside
     * {@code only} (epoch ns; a window of the capture, or one request's interval): kernels, copies
     * and sets outside it are left out, and metrics, spans and latencies are read against it.
     */
    public static Report build(CaptureReader reader, int top, KernelNames names, CaptureWindow only) {
        return build(reader, top, SampleBudget.DEFAULT_SAMPLES, names, List.of(), only);
    }

    /** Both: {@code extraSpans} placed beside the capture's own, and only the GPU work inside {@code only}. */
    public static Report build(CaptureReader reader, int top, KernelNames names, List<Span> extraSpans,
                               CaptureWindow only) {
        return build(reader, top, SampleBudget.DEFAULT_SAMPLES, names, extraSpans, only);
    }

    private static Report build(CaptureReader reader, int top, long exactSamples, KernelNames names) {
        return build(reader, top, exactSamples, names, List.of(), null);
    }

    private static Report build(CaptureReader reader, int top, long exactSamples, KernelNames names,
                                List<Span> extraSpans) {
        return build(reader, top, exactSamples, names, extraSpans, null);
    }

    /**
     * As {@link #build(CaptureReader, int, KernelNames, List)}, with {@code rider}'s sinks (the page's
     * analyses) fed by the report's own pass.
     */
    public static Report build(CaptureReader reader, int top, KernelNames names, List<Span> extraSpans, Rider rider) {
        return build(reader, top, SampleBudget.DEFAULT_SAMPLES, names, extraSpans, null, rider);
    }

    private static Report build(CaptureReader reader, int top, long exactSamples, KernelNames names,
                                List<Span> extraSpans, CaptureWindow only) {
        return build(reader, top, exactSamples, names, extraSpans, only, null);
    }

    private static Report build(CaptureReader reader, int top, long exactSamples, KernelNames names,
                                List<Span> extraSpans, CaptureWindow only, Rider rider) {
        CaptureReport agg = new CaptureReport(new SampleBudget(exactSamples), names);
        for (ProcessInfo info : reader.processes()) {
            agg.process(info.pid());
        }
        List<String> notes = new ArrayList<>();
        agg.requests = RequestsSection.prepare(reader, extraSpans, notes, only);
        boolean kernelsToRequests = agg.requests != null && agg.requests.wantsKernels();
        // The steps first, from a scan that feeds no sink (it fits the clocks too), so that the one
        // pass gives each kernel its step as it comes and the step table needs no pass of its own.
        Steps steps = StepFinder.scan(reader, StepRule.DEFAULT_RANGE);
        Clocks fitted = Clocks.of(reader);
        boolean ridersEpoch = rider != null && rider.prepare(steps, fitted);
        // Kernels meet spans (or the window) on epoch time; else the pass need not place them there.
        Clocks clocks = kernelsToRequests || only != null || ridersEpoch ? fitted : Clocks.unfitted();
        Scope scope = Scope.of(only);
        KernelPass pass = new KernelPass(clocks).steps(steps).add(scope, agg);
        if (kernelsToRequests) {
            pass.add(scope, agg.requests);
        }
        StepTally stepTally = steps.isEmpty() ? null : new StepTally(steps, only, fitted);
        if (stepTally != null) {
            pass.add(scope, stepTally);
        }
        if (rider != null) {
            rider.join(pass);
        }
        pass.run(reader);
        agg.feedWorkExtents();
        Report base = agg.summarize(reader, top, fitted);
        CaptureWindow window = only != null ? only : agg.windowFinder.choose(reader.window().orElse(null), fitted);
        MetricsSection.Result metrics = MetricsSection.build(reader, window, notes);
        Report.SpansSummary spans = agg.requests == null ? null : agg.requests.spans(window);
        List<Report.RequestSummary> reqs = agg.requests == null ? List.of() : agg.requests.requests(window);
        Latencies.Chosen latency = Latencies.choose(metrics == null ? null : metrics.stats(),
                agg.requests == null ? null : agg.requests.latencies(window));
        Report.QueueFacts queue = agg.requests == null || agg.requests.slices().isEmpty() ? null
                : agg.requests.queueFacts();
        boolean kernelsHeld = base.totals().kernels() > 0;
        Report.VerdictSummary verdict = metrics == null || metrics.stats() == null ? null
                : VerdictSection.of(latency.stats(), metrics.vllm(), reader.metadata().orElse(null),
                        VerdictSection.held(queue, kernelsHeld, metrics.summary(), reader));
        List<String> warnings = new ArrayList<>(base.warnings());
        long triggerFailures = reader.window().map(w -> w.counts().getOrDefault(WindowChunk.TRIGGER_FAILURES_KEY, 0L))
                .orElse(0L);
        if (triggerFailures > 0) {
            String url = reader.metadata().map(m -> m.options() == null ? null : m.options().get("trigger")).orElse(null);
            warnings.add(0, "--trigger FAILED during this capture (" + triggerFailures + " POST"
                    + (triggerFailures == 1 ? "" : "s") + (url == null ? "" : " to " + url)
                    + " failed): the server may never have profiled it; the capture's log says why");
        }
        for (ProcessExit e : ProcessExit.read(reader)) {
            if (e.abnormal()) { // a worker that died mid-capture is named, not just "not ended"
                warnings.add(e.sentence());
            }
        }
        warnings.addAll(notes);
        return new Report(base.file(), base.complete(), warnings, base.metadata(), verdict, base.processes(),
                base.ranges(), base.totals(), base.topKernels(),
                new Report.WindowSummary(window.startNs(), window.endNs(), window.durationNs(), window.source()),
                latency == null ? null : latency.section(), metrics == null ? null : metrics.summary(), spans, reqs,
                RequestsSection.slowest(reqs, top), queue,
                agg.requests == null || !kernelsHeld ? null : agg.requests.slowPhaseKernels(top, agg.names),
                stepTable(stepTally, fitted));
    }

    /** The step table: every step of the tally (at most {@value #MAX_STEPS_LISTED} listed), and what lies outside them. */
    private static Report.StepTable stepTable(StepTally t, Clocks clocks) {
        if (t == null) {
            return null;
        }
        Steps steps = t.steps();
        List<Report.StepSummary> rows = new ArrayList<>();
        long count = 0, duration = 0;
        for (int s = 0; s < steps.count(); s++) {
            if (!t.included(s)) {
                continue;
            }
            count++;
            duration += steps.durationNs(s);
            if (rows.size() < MAX_STEPS_LISTED) {
                int pid = steps.pid(s);
                rows.add(new Report.StepSummary(pid, steps.name(s), steps.number(s),
                        clocks.epochNs(pid, steps.startNs(s)), clocks.epochNs(pid, steps.endNs(s)), steps.durationNs(s),
                        t.kernels(s), t.gpuNs(s), t.busyNs(s), t.approximate(s)));
            }
        }
        return new Report.StepTable(steps.rule(), count, duration, rows.size(), rows,
                new Report.OutsideSteps(t.outsideKernels(), t.outsideGpuNs()));
    }

    // ---- the pass -----------------------------------------------------------------------

    @Override
    public void kernel(Kernel k) {
        RangeAgg r = process(k.pid()).current();
        long start = k.startNs(), end = k.endNs();
        long duration = k.durationNs();
        r.kernels++;
        if (k.fromGraph()) {
            r.graphKernels++;
        }
        r.touch(start, end);
        r.byName.add(k.name(), duration);
        overall.add(k.name(), duration);
        BusyTime busy = r.busy(k.device());
        if (busy != null) { // null: a range already settled (late work named a range long closed)
            busy.add(start, end);
        }
    }

    @Override
    public void memcpy(int pid, MemcpyEvent m) {
        RangeAgg r = process(pid).current();
        r.memcpys++;
        r.memcpyBytes += m.bytes();
        r.touch(m.start(), m.end());
    }

    @Override
    public void memset(int pid, MemsetEvent m) {
        RangeAgg r = process(pid).current();
        r.memsets++;
        r.memsetBytes += m.bytes();
        r.touch(m.start(), m.end());
    }

    @Override
    public void marker(int pid, MarkerEvent m) {
        // An NVTX range counts once (its START), as import counts it; an instant mark counts too.
        if ((m.flags() & VprofRing.MARKER_END) == 0) {
            process(pid).current().markers++;
        }
    }

    @Override
    public void cpuOp(int pid, CpuOpEvent op) {
        process(pid).cpuSlices++; // a trace's CPU ops: their own kind, never NVTX markers
    }

    @Override
    public void api(int pid, ApiEvent a) {
        process(pid).current().apiCalls++;
    }

    @Override
    public void drops(int pid, DropsEvent d) {
        ProcessAgg p = process(pid);
        int reason = d.reason();
        if (reason == VprofRing.DROPS_CLIPPED) {
            // Work launched after a range's end whose record came only after the range closed (a
            // late buffer): clipped against that range, so it is counted there, not as a range of its own.
            boolean between = p.late == null && p.open == null && !p.ranges.isEmpty();
            (between ? p.ranges.getLast() : p.current()).clipped += d.count();
            return;
        }
        RangeAgg r = p.current();
        if (reason == VprofRing.DROPS_CUPTI) {
            r.cuptiDropsReported += d.count();
            return;
        }
        if (reason == VprofRing.DROPS_ZERO_TS && (d.recordType() == 0 || d.recordType() == VprofRing.REC_KERNEL)) {
            r.zeroTimestampKernels += d.count();
        }
        // Every other reason (and unknown ones from a newer agent) kept records off the timeline.
        r.rejected.merge(d.reasonName(), d.count(), Long::sum);
    }

    @Override
    public void device(int pid, DeviceProperties device) {
        ProcessAgg p = process(pid);
        p.devices.removeIf(d -> d.id() == device.id()); // sent again at every arming: the latest wins
        p.devices.add(device);
    }

    @Override
    public void range(int pid, RangeEvent e) {
        windowFinder.range(pid, e);
        ProcessAgg p = process(pid);
        if (e.isLateBegin()) {
            // Work of an earlier range that completed after this one began: count it there.
            p.late = p.find(e.index(), e.captureId());
            return;
        }
        if (e.isLateEnd()) {
            // The run's records that a full ring refused are that range's losses (agents before
            // this rule write 0 here and counted them in the range open at the time).
            RangeAgg named = p.find(e.index(), e.captureId());
            if (named != null) {
                named.ringDrops += e.ringDrops();
                named.ringDropsKernels += e.ringDropsKernels();
            }
            p.late = null;
            return;
        }
        if (e.isBegin()) {
            if (p.open != null) {
                p.open.finish(); // its END never came: the agent or the capture stopped early
            }
            // Keep the range before it open to late records (LATE runs); settle the older ones.
            for (int i = 0; i + 1 < p.ranges.size(); i++) {
                p.ranges.get(i).finish();
            }
            RangeAgg r = new RangeAgg(e.index(), e.captureId(), e.sourceName(), budget);
            r.begun = true;
            r.beginRealtimeNs = e.realtimeNs();
            r.beginCuptiNs = e.cuptiNs();
            p.open = r;
            p.ranges.add(r);
            return;
        }
        RangeAgg r = p.open;
        if (r == null) {
            // An END whose BEGIN is not in the file: keep what the END says it lost.
            r = new RangeAgg(e.index(), e.captureId(), e.sourceName(), budget);
            p.ranges.add(r);
        }
        r.ended = true;
        r.endSource = e.sourceName();
        r.endRealtimeNs = e.realtimeNs();
        r.endCuptiNs = e.cuptiNs();
        r.ringDrops += e.ringDrops();
        r.ringDropsKernels += e.ringDropsKernels();
        r.cuptiDropsAtEnd = e.cuptiDrops();
        r.flags = e.flags();
        r.kernelLaunches = e.kernelLaunches();
        r.graphLaunches = e.graphLaunches();
        r.kernelsMissing = e.kernelsMissing();
        p.open = null; // settled when the range after the next begins, or at the end: late records may come
    }

    /** The extent of every range's GPU work (kernels, copies, sets) into the window finder, once after the pass. */
    private void feedWorkExtents() {
        for (ProcessAgg p : processes.values()) {
            List<RangeAgg> all = new ArrayList<>(p.ranges);
            if (p.unranged != null) {
                all.add(p.unranged);
            }
            for (RangeAgg r : all) {
                if (r.firstNs <= r.lastNs) {
                    windowFinder.work(p.pid, r.firstNs, r.lastNs);
                }
            }
        }
    }

    private ProcessAgg process(int pid) {
        ProcessAgg p = last;
        if (p == null || p.pid != pid) {
            p = processes.computeIfAbsent(pid, id -> new ProcessAgg(id, budget));
            last = p;
        }
        return p;
    }

    // ---- the summary ----------------------------------------------------------------------

    private Report summarize(CaptureReader reader, int top, Clocks clocks) {
        List<Report.ProcessSummary> processSummaries = new ArrayList<>();
        List<Report.RangeSummary> rangeSummaries = new ArrayList<>();
        long kernels = 0, memcpys = 0, memcpyBytes = 0, memsets = 0;
        long ringDrops = 0, ringDropsKernels = 0, cuptiDrops = 0, zeroTs = 0, graphKernels = 0, clipped = 0;
        Map<String, Long> rejected = new TreeMap<>();
        int rangeCount = 0;
        for (ProcessAgg p : processes.values()) {
            ClockMapping clock = clocks.of(p.pid);
            List<RangeAgg> ranges = new ArrayList<>(p.ranges);
            if (p.unranged != null) {
                ranges.addFirst(p.unranged);
            }
            long pk = 0, pmc = 0, pmcb = 0, pms = 0, pmsb = 0, pmk = 0, pap = 0;
            long pRing = 0, pRingK = 0, pCupti = 0, pZero = 0;
            Map<String, Long> busyByDevice = new TreeMap<>();
            for (RangeAgg r : ranges) {
                r.finish();
                Report.RangeSummary s = r.summary(p.pid, clock, top, names);
                rangeSummaries.add(s);
                graphKernels += s.fidelity().graphKernels();
                clipped += s.fidelity().clipped();
                s.fidelity().rejected().forEach((k, v) -> rejected.merge(k, v, Long::sum));
                if (r.begun || r.ended) {
                    rangeCount++;
                }
                pk += s.kernels();
                pmc += s.memcpys();
                pmcb += s.memcpyBytes();
                pms += s.memsets();
                pmsb += s.memsetBytes();
                pmk += s.markers();
                pap += s.apiCalls();
                pRing += s.ringDrops();
                pRingK += s.ringDropsKernels();
                pCupti += s.cuptiDrops();
                pZero += s.zeroTimestampKernels();
                for (Report.DeviceBusy d : s.devices()) {
                    busyByDevice.merge(Integer.toString(d.device()), d.busyNs(), Long::sum);
                }
            }
            AgentCounters counters = reader.counters().get(p.pid);
            if (counters != null) {
                // The agent's counters and the ranges' END records count the same losses from
                // two places (the counters also cover any time outside ranges): take the larger,
                // never the sum.
                pRing = Math.max(pRing, counters.ringDrops());
                pRingK = Math.max(pRingK, counters.ringDropsKernels());
                pCupti = Math.max(pCupti, counters.cuptiDrops());
            }
            ProcessInfo info = reader.process(p.pid).orElse(null);
            processSummaries.add(new Report.ProcessSummary(p.pid,
                    info == null ? 0 : info.ppid(),
                    info == null ? null : info.command(),
                    info == null ? 0 : info.cuptiVersion(),
                    p.ranges.size(), pk, pmc, pmcb, pms, pmsb, pmk, pap, busyByDevice,
                    pRing, pRingK, pCupti, pZero,
                    new Report.ClockSummary(clock.pairs(), clock.offsetNs(), clock.driftPpm(),
                            clock.residualMaxNs(), clock.residualRmsNs()),
                    counters,
                    info == null ? null : info.rank(),
                    info == null ? null : info.localRank(),
                    info == null ? null : info.worldSize(),
                    List.copyOf(p.devices),
                    counters == null ? List.of() : RangeWarnings.processCodes(counters),
                    p.cpuSlices, info == null ? null : info.facts()));
            kernels += pk;
            memcpys += pmc;
            memcpyBytes += pmcb;
            memsets += pms;
            ringDrops += pRing;
            ringDropsKernels += pRingK;
            cuptiDrops += pCupti;
            zeroTs += pZero;
        }
        Report.Totals totals = new Report.Totals(processSummaries.size(), rangeCount, kernels, memcpys, memcpyBytes,
                memsets, ringDrops, ringDropsKernels, cuptiDrops, zeroTs, graphKernels, clipped, rejected,
                reader.unverifiedRecords());
        return new Report(reader.path().toString(), reader.complete(), reader.warnings(),
                reader.metadata().orElse(null), processSummaries, rangeSummaries, totals, topKernels(overall.all(), top, names));
    }

    /** The {@code top} kernels by total time, named as {@code names} shows them (each name demangled once). */
    static List<Report.KernelSummary> topKernels(Collection<KernelStats> stats, int top, KernelNames names) {
        return stats.stream()
                .sorted(Comparator.comparingLong(KernelStats::totalNs).reversed()
                        .thenComparing(k -> names.show(k.name())))
                .limit(Math.max(0, top))
                .map(k -> new Report.KernelSummary(names.show(k.name()), k.count(), k.totalNs(), k.meanNs(),
                        k.minNs(), k.percentile(50), k.percentile(99), k.maxNs(), k.exact()))
                .toList();
    }

    // ---- aggregates -------------------------------------------------------------------------

    private static final class ProcessAgg {
        final int pid;
        final List<RangeAgg> ranges = new ArrayList<>();
        final List<DeviceProperties> devices = new ArrayList<>();
        RangeAgg open;
        RangeAgg unranged;
        /** CPU slices of a trace (cpu_op, python_function): not NVTX markers. */
        long cpuSlices;
        /** Inside a LATE run: the earlier range its records belong to. */
        RangeAgg late;

        private final SampleBudget budget;

        ProcessAgg(int pid, SampleBudget budget) {
            this.pid = pid;
            this.budget = budget;
        }

        /** The range of this arming with that index, or null. */
        RangeAgg find(int index, int captureId) {
            for (int i = ranges.size() - 1; i >= 0; i--) {
                RangeAgg r = ranges.get(i);
                if (r.index == index && r.captureId == captureId) {
                    return r;
                }
            }
            return null;
        }

        RangeAgg current() {
            if (late != null) {
                return late;
            }
            if (open != null) {
                return open;
            }
            if (unranged == null) {
                unranged = new RangeAgg(0, 0, "none", budget);
            }
            return unranged;
        }
    }

    private static final class RangeAgg {
        final int index;
        final int captureId;
        final String source;
        String endSource;
        boolean begun;
        boolean ended;
        long beginRealtimeNs;
        long beginCuptiNs;
        long endRealtimeNs;
        long endCuptiNs;
        long firstNs = Long.MAX_VALUE;
        long lastNs = Long.MIN_VALUE;

        long kernels, memcpys, memcpyBytes, memsets, memsetBytes, markers, apiCalls;
        long ringDrops, ringDropsKernels, cuptiDropsAtEnd, cuptiDropsReported, zeroTimestampKernels;
        long graphKernels, kernelLaunches, graphLaunches, kernelsMissing, clipped;
        int flags;
        final Map<String, Long> rejected = new TreeMap<>();

        final KernelTable byName;
        private Map<Integer, BusyTime> busy = new TreeMap<>();
        private int lastDevice = Integer.MIN_VALUE;
        private BusyTime lastBusy;
        /** device -> {busy ns, late intervals}, once finished. */
        private final Map<Integer, long[]> busyResults = new TreeMap<>();

        RangeAgg(int index, int captureId, String source, SampleBudget budget) {
            this.index = index;
            this.captureId = captureId;
            this.source = source;
            this.byName = new KernelTable(budget);
        }

        void touch(long start, long end) {
            firstNs = Math.min(firstNs, start);
            lastNs = Math.max(lastNs, end);
        }

        BusyTime busy(int device) {
            if (busy == null) {
                return null;
            }
            if (device != lastDevice || lastBusy == null) {
                lastBusy = busy.computeIfAbsent(device, d -> new BusyTime());
                lastDevice = device;
            }
            return lastBusy;
        }

        /** Settles busy time and frees the reorder windows; safe to call more than once. */
        void finish() {
            if (busy == null) {
                return;
            }
            busy.forEach((device, b) -> busyResults.put(device, new long[] {b.busyNs(), b.lateIntervals(), b.spanNs()}));
            busy = null;
            lastBusy = null;
        }

        Report.RangeSummary summary(int pid, ClockMapping clock, int top, KernelNames names) {
            boolean hasData = firstNs <= lastNs;
            long start = begun ? epoch(beginRealtimeNs, beginCuptiNs, clock)
                    : hasData ? clock.toEpochNs(firstNs) : 0;
            long end = ended ? epoch(endRealtimeNs, endCuptiNs, clock)
                    : hasData ? clock.toEpochNs(lastNs) : start;
            long duration = Math.max(0, end - start);
            List<Report.DeviceBusy> devices = new ArrayList<>();
            // A share of the device's own span, not of the range: kernels launched in a range may
            // run after it ends (and a simulator's GPU clock can run ahead of the wall clock).
            busyResults.forEach((device, r) -> devices.add(new Report.DeviceBusy(device, r[0], r[2],
                    r[2] > 0 ? Math.round(1000.0 * r[0] / r[2]) / 10.0 : 0.0, r[1] > 0)));
            return new Report.RangeSummary(pid, index, captureId, source, endSource, ended, start, end, duration,
                    kernels, memcpys, memcpyBytes, memsets, memsetBytes, markers, apiCalls, devices,
                    ringDrops, ringDropsKernels,
                    // DROPS records and the END's count report the same CUPTI losses; some agents
                    // send only one of them. The larger is right in both cases.
                    Math.max(cuptiDropsAtEnd, cuptiDropsReported), zeroTimestampKernels,
                    topKernels(byName.all(), top, names),
                    new Report.RangeFidelity(graphKernels, kernels - graphKernels, kernelLaunches, graphLaunches,
                            kernelsMissing, clipped, Collections.unmodifiableMap(new TreeMap<>(rejected)),
                            RangeEvent.flagNames(Integer.toUnsignedLong(flags))));
        }

        /** A range edge in epoch ns, by the time layer's one rule (the exports use the same). */
        private static long epoch(long realtimeNs, long cuptiNs, ClockMapping clock) {
            return RangeEdges.epochNs(realtimeNs, cuptiNs, clock);
        }
    }
}
