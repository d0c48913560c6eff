package dev.vprof.export;

import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The steps of a process as the PyTorch profiler marks them: one {@code ProfilerStep#N} annotation
 * per training or serving step, which is what Holistic Trace Analysis assigns iterations by (a host
 * event belongs to step N when it starts inside it; a GPU op belongs to the step of the API call
 * that launched it). vprof records no PyTorch profiler, so a step is an NVTX range the program
 * pushes around each step ({@code --steps nvtx:NAME}; vLLM-style servers and {@code vprof simulate
 * --nvtx} name it {@code step}).
 *
 * <p>Steps are the ranges with that name on any thread of the process, in order of start; a range
 * that begins before the previous step ended (a nested or a second thread's range) is not a new
 * step, and neither is an instant mark. Where the process has capture ranges, only steps wholly
 * inside one count: records from the drain after a range's end are not steps of the capture. Steps
 * are numbered from 0 in each process, so the ranks of one capture (which start and stop their
 * ranges together) number the same step alike.
 */
public final class ProfilerSteps {
    private ProfilerSteps() {}

    /** One step: its number, the thread whose range marks it, and its interval in epoch ns. */
    public record Step(int number, long tid, long startNs, long endNs) {
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
     * Gathers, as a walk hands out ranges in any order, those that can mark a step (the named ones,
     * not instants, wholly inside a capture range where there are any); one entry per step, so it
     * stays small next to the ranges themselves.
     */
    static final class Collector {
        private final int nameId;
        private final Map<TimelineProcess, List<long[]>> candidates = new IdentityHashMap<>();

        Collector(Timeline layout, Spec spec) {
            this.nameId = idOf(layout, spec.rangeName());
        }

        void range(CpuThread thread, int rangeNameId, long startNs, long endNs) {
            if (rangeNameId == nameId && nameId >= 0 && endNs > startNs && inCapture(thread.process(), startNs, endNs)) {
                candidates.computeIfAbsent(thread.process(), p -> new ArrayList<>())
                        .add(new long[] {thread.tid(), startNs, endNs, threadOrder(thread)});
            }
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

        /** The steps of {@code process}, numbered from 0, in order of start. */
        List<Step> of(TimelineProcess process) {
            List<long[]> ranges = new ArrayList<>(candidates.getOrDefault(process, List.of()));
            // Ties: the longer first, then the thread that appeared first, whatever order the walk took.
            ranges.sort(Comparator.<long[]>comparingLong(a -> a[1]).thenComparingLong(a -> -a[2])
                    .thenComparingLong(a -> a[3]));
            List<Step> steps = new ArrayList<>();
            long lastEnd = Long.MIN_VALUE;
            for (long[] r : ranges) {
                if (r[1] < lastEnd) {
                    continue;
                }
                steps.add(new Step(steps.size(), r[0], r[1], r[2]));
                lastEnd = r[2];
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

    /** The timeline's id for {@code name}, or -1 when no slice carries it. */
    private static int idOf(Timeline timeline, String name) {
        for (int id = 1, n = timeline.strings().size(); id < n; id++) {
            if (name.equals(timeline.strings().get(id))) {
                return id;
            }
        }
        return -1;
    }
}
