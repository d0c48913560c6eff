package dev.vprof.analysis;

import dev.vprof.aggregate.KernelPass;
import dev.vprof.aggregate.StepFinder;
import dev.vprof.aggregate.StepRule;
import dev.vprof.aggregate.Steps;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.names.KernelNames;
import dev.vprof.time.Clocks;
import dev.vprof.time.Scope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the analyses over a capture in two passes of the aggregation: the first finds the steps and
 * fills the summaries, the second (steps known) the temporal breakdown over the capture and per step.
 * Every process is a rank: a folder of rank traces is one process a rank, a multi-process capture one
 * process a worker; a merged multi-node run is read from the capture of each node (or, once exported,
 * from its SQLite or Kineto files), since the merge's Perfetto archive is an output, not an input.
 */
public final class Analyses {
    private Analyses() {}

    /**
     * What the analyses found.
     *
     * @param ranks     per process, its rank where the source names one (else null)
     * @param breakdown the temporal breakdown's rows (whole capture first, then per step)
     * @param summaries the nsys-style tables
     * @param steps     the steps (names as in the source)
     * @param phases    the breakdown inside request phases; empty without requests
     * @param launches  the launch-to-start delay per stream
     * @param stragglers who started the collectives last; empty with fewer than two processes
     */
    public record Result(Map<Integer, Integer> ranks, List<TemporalBreakdown.Row> breakdown, Summaries summaries,
                         Steps steps, List<PhaseBreakdown.Row> phases, LaunchQueue launches,
                         List<Stragglers.Row> stragglers) {
        /** The rank of {@code pid} as shown: the source's rank, else {@code pid N}. */
        public String rankOf(int pid) {
            Integer r = ranks.get(pid);
            return r == null ? "pid " + pid : "rank " + r;
        }
    }

    public static Result run(CaptureReader reader, KernelNames names) {
        StepFinder stepFinder = new StepFinder(StepRule.DEFAULT_RANGE);
        Summaries summaries = new Summaries(names);
        LaunchQueue launches = new LaunchQueue();
        new KernelPass(Clocks.unfitted()).add(Scope.ALL, stepFinder).add(Scope.ALL, summaries)
                .add(Scope.ALL, launches).run(reader);
        Clocks fitted = Clocks.of(reader);
        Steps steps = stepFinder.finish(fitted);
        TemporalBreakdown breakdown = new TemporalBreakdown(steps);
        PhaseBreakdown phases = PhaseBreakdown.of(reader, fitted);
        Stragglers stragglers = new Stragglers();
        // Phases and ranks meet on epoch time; the breakdown reads CUPTI times and needs no clock.
        boolean epoch = phases != null || reader.processes().size() > 1;
        KernelPass second = new KernelPass(epoch ? fitted : Clocks.unfitted()).steps(steps)
                .add(Scope.ALL, breakdown).add(Scope.ALL, stragglers);
        if (phases != null) {
            second.add(Scope.ALL, phases);
        }
        second.run(reader);
        Map<Integer, Integer> ranks = new LinkedHashMap<>();
        for (ProcessInfo p : reader.processes()) {
            ranks.put(p.pid(), p.rank());
        }
        return new Result(ranks, breakdown.rows(), summaries, steps, phases == null ? List.of() : phases.rows(),
                launches, stragglers.rows());
    }
}
