package dev.vprof.export;

import dev.vprof.aggregate.StepRule;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The steps of a process as the PyTorch profiler marks them: one {@code ProfilerStep#N} annotation
 * per training or serving step, which is what Holistic Trace Analysis assigns iterations by (a host
 * event belongs to step N when it starts inside it; a GPU op belongs to the step of the API call
 * that launched it). The steps are found by the one step rule every view uses
 * ({@link StepRule}): the process's own {@code ProfilerStep#N} ranges (a PyTorch trace's; their
 * numbers kept, and not written again), or the NVTX range the program pushes around each step
 * ({@code --steps nvtx:NAME}; vLLM-style servers and {@code vprof simulate --nvtx} name it
 * {@code step}; numbered from 0 in each process, so the ranks of one capture, which start and stop
 * their ranges together, number the same step alike), wholly inside one of the process's capture
 * ranges where it has any: records from the drain after a range's end are not steps of the capture.
 * The walk does not say which ranges are a trace's CPU ops; a CPU op named exactly as the step range
 * would be taken for one (PyTorch's are named otherwise).
 */
public final class ProfilerSteps {
    private ProfilerSteps() {}

    /**
     * One step: its number, the thread whose range marks it, its interval in epoch ns, and whether
     * the source already holds it as a ProfilerStep#N range (then the export does not write it again).
     */
    public record Step(int number, long tid, long startNs, long endNs, boolean annotated) {
        public Step(int number, long tid, long startNs, long endNs) {
            this(number, tid, startNs, endNs, false);
        }

        /** The annotation's name, as PyTorch writes it. */
        public String name() {
            return "ProfilerStep#" + number;
        }
    }

    /** What {@code --steps} names: the NVTX range that marks one step. */
    public record Spec(String rangeName) {
        private static final String NVTX = "nvtx:";

        /** Parses {@code nvtx:NAME}. */
        public static Spec parse(String text) {
            String t = text == null ? "" : text.trim();
            if (!t.startsWith(NVTX) || t.length() == NVTX.length()) {
                throw new IllegalArgumentException("--steps '" + text + "' is not nvtx:NAME; name the NVTX range "
                        + "your program pushes around each step, e.g. --steps nvtx:step");
            }
            return new Spec(t.substring(NVTX.length()));
        }

        @Override
        public String toString() {
            return NVTX + rangeName;
        }
    }

    /**
     * Gathers, as a walk hands out ranges in any order, those that can mark a step (ProfilerStep#N or
     * the named ones, of the default domain, wholly inside a capture range where there are any); one
     * entry per step, so it stays small next to the ranges themselves.
     */
    static final class Collector {
        private final Timeline layout;
        private final String rangeName;
        /** (domain id, name id) -> the number {@link StepRule#numberOf} gives it. */
        private final Map<Long, Long> numberOf = new HashMap<>();
        private final Map<TimelineProcess, List<StepRule.Candidate>> candidates = new IdentityHashMap<>();

        Collector(Timeline layout, Spec spec) {
            this.layout = layout;
            this.rangeName = spec.rangeName();
        }

        void range(CpuThread thread, int rangeNameId, long startNs, long endNs, int domainId) {
            long key = ((long) domainId << 32) | (rangeNameId & 0xffffffffL);
            long number = numberOf.computeIfAbsent(key, k -> {
                long n = StepRule.numberOf(string(rangeNameId), domainId == 0 ? null : string(domainId), rangeName);
                return n > Integer.MAX_VALUE ? StepRule.NOT_A_STEP : n;
            });
            if (number != StepRule.NOT_A_STEP && inCapture(thread.process(), startNs, endNs)) {
                candidates.computeIfAbsent(thread.process(), p -> new ArrayList<>())
                        .add(new StepRule.Candidate(startNs, endNs, number, thread.tid(), threadOrder(thread)));
            }
        }

        private String string(int id) {
            return id > 0 && id < layout.strings().size() ? layout.strings().get(id) : null;
        }

        private final Map<CpuThread, Integer> threadOrder = new IdentityHashMap<>();

        private int threadOrder(CpuThread thread) {
            Integer i = threadOrder.get(thread);
            if (i == null) {
                List<CpuThread> all = thread.process().threads();
                for (int k = 0; k < all.size(); k++) {
                    threadOrder.put(all.get(k), k);
                }
                i = threadOrder.get(thread);
            }
            return i;
        }

        /** The steps of {@code process}, in order of start. */
        List<Step> of(TimelineProcess process) {
            List<Step> steps = new ArrayList<>();
            for (StepRule.Step s : StepRule.choose(candidates.getOrDefault(process, List.of()))) {
                steps.add(new Step((int) s.number(), s.tid(), s.startNs(), s.endNs(), s.annotated()));
            }
            return steps;
        }
    }

    private static boolean inCapture(TimelineProcess p, long start, long end) {
        List<CaptureRange> ranges = p.captureRanges();
        if (ranges.isEmpty()) {
            return true;
        }
        for (CaptureRange c : ranges) {
            if (c.startNs() <= start && end <= c.endNs()) {
                return true;
            }
        }
        return false;
    }
}
