package dev.vprof.aggregate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one rule of what a step is, for the report, the diff, the page and the Kineto export's
 * {@code --steps}. A step is a range named {@code ProfilerStep#N} in the default NVTX domain (what
 * the PyTorch profiler writes as a user annotation; its number kept; the trace's GPU-side copy of
 * the annotation lives in a domain of its own and is not a second step), or a range named as
 * {@code --steps nvtx:NAME} says in any domain (default {@code step}, what vLLM-style servers and
 * {@code vprof simulate --nvtx} push; numbered from 0 in order of start). A trace's CPU ops are
 * never steps. Of those, in order of start (the longer first, then the earlier thread or record, on
 * a tie), a range that begins before the step before it ended (a nested range, another thread's)
 * is not a new step, and neither is an instant. Without such ranges in any process, a process's
 * {@code cudaProfilerApi} capture ranges are its steps when it has two or more ({@link StepFinder}).
 */
public final class StepRule {
    private StepRule() {}

    public static final Pattern PROFILER_STEP = Pattern.compile("ProfilerStep#(\\d{1,18})");
    /** {@link #numberOf}: the range is not a step. */
    public static final long NOT_A_STEP = Long.MIN_VALUE;
    /** {@link #numberOf}: a step numbered in order. */
    public static final long IN_ORDER = -1;
    /** The NVTX range that marks a step when {@code --steps} names none. */
    public static final String DEFAULT_RANGE = "step";

    /**
     * The number a range named {@code name} in {@code domain} (null: the default one) marks: N of
     * ProfilerStep#N, {@link #IN_ORDER} for {@code rangeName}, else {@link #NOT_A_STEP}.
     */
    public static long numberOf(String name, String domain, String rangeName) {
        if (name == null) {
            return NOT_A_STEP;
        }
        if (name.equals(rangeName)) {
            return IN_ORDER;
        }
        Matcher m = PROFILER_STEP.matcher(name);
        return domain == null && m.matches() ? Long.parseLong(m.group(1)) : NOT_A_STEP;
    }

    /**
     * A range that may mark a step: its interval, the number {@link #numberOf} gave it, its thread and
     * a tie-break (the order its thread or record was first seen).
     */
    public record Candidate(long startNs, long endNs, long number, long tid, long order) {}

    /** A step: its number, whether the source named it ProfilerStep#N, its thread and interval. */
    public record Step(long number, boolean annotated, long tid, long startNs, long endNs) {}

    /** The steps among one process's {@code candidates} (any order), in order of start. */
    public static List<Step> choose(List<Candidate> candidates) {
        List<Candidate> c = new ArrayList<>(candidates);
        c.sort(Comparator.comparingLong(Candidate::startNs).thenComparingLong(x -> -x.endNs())
                .thenComparingLong(Candidate::order));
        List<Step> steps = new ArrayList<>();
        long lastEnd = Long.MIN_VALUE;
        long ordinal = 0;
        for (Candidate x : c) {
            if (x.endNs() <= x.startNs() || x.startNs() < lastEnd) {
                continue;
            }
            boolean annotated = x.number() != IN_ORDER;
            steps.add(new Step(annotated ? x.number() : ordinal++, annotated, x.tid(), x.startNs(), x.endNs()));
            lastEnd = x.endNs();
        }
        return steps;
    }
}
