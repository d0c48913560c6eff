package dev.vprof.analysis;

import dev.vprof.aggregate.KernelPass;
import dev.vprof.aggregate.Rider;
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
 * Runs the analyses over a capture in one pass of the aggregation, the steps found before it by
 * their scan ({@code StepFinder.scan}): the summaries, the launch queue, the temporal breakdown over
 * the capture and per step, the stragglers and the phases; or rides on the report's pass ({@link Pending}).
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

    /** The analyses of the whole of {@code reader}: the steps from their scan, then one pass. */
    public static Result run(CaptureReader reader, KernelNames names) {
        Steps steps = StepFinder.scan(reader, StepRule.DEFAULT_RANGE);
        Clocks fitted = Clocks.of(reader); // the scan fitted them
        Pending pending = new Pending(reader, names);
        KernelPass pass = new KernelPass(pending.prepare(steps, fitted) ? fitted : Clocks.unfitted()).steps(steps);
        pending.join(pass);
        pass.run(reader);
        return pending.result();
    }

    /**
     * The analyses as a {@link Rider} of another view's pass over the whole capture (the report's, for
     * the page): the same sinks as {@link #run}, read by {@link #result} once that pass has run.
     */
    public static final class Pending implements Rider {
        private final CaptureReader reader;
        private final Summaries summaries;
        private final LaunchQueue launches = new LaunchQueue();
        private final Stragglers stragglers = new Stragglers();
        private Steps steps;
        private TemporalBreakdown breakdown;
        private PhaseBreakdown phases;

        public Pending(CaptureReader reader, KernelNames names) {
            this.reader = reader;
            this.summaries = new Summaries(names);
        }

        @Override
        public boolean prepare(Steps steps, Clocks fitted) {
            this.steps = steps;
            breakdown = new TemporalBreakdown(steps);
            phases = PhaseBreakdown.of(reader, fitted);
            // Phases and ranks meet on epoch time; the breakdown and the tables read CUPTI times.
            return phases != null || reader.processes().size() > 1;
        }

        @Override
        public void join(KernelPass pass) {
            pass.add(Scope.ALL, summaries).add(Scope.ALL, launches).add(Scope.ALL, breakdown).add(Scope.ALL, stragglers);
            if (phases != null) {
                pass.add(Scope.ALL, phases);
            }
        }

        /** What the analyses found (after the pass). */
        public Result result() {
            Map<Integer, Integer> ranks = new LinkedHashMap<>();
            for (ProcessInfo p : reader.processes()) {
                ranks.put(p.pid(), p.rank());
            }
            return new Result(ranks, breakdown.rows(), summaries, steps, phases == null ? List.of() : phases.rows(),
                    launches, stragglers.rows());
        }
    }
}
