package dev.vprof.time;

import java.util.Set;

/**
 * Which GPU work an analysis takes from a capture: the work that starts inside a window (a cut of
 * the capture: {@code report --window}, one side of {@code diff --split-at}), while one of a set of
 * requests runs ({@code diff --slow-requests}), and of some processes only ({@code diff --rank}).
 * Each part may be absent (null: no cut). The one place those rules are applied is the aggregation's
 * pass ({@code aggregate.KernelPass}), by this method.
 *
 * @param window    GPU work that starts in it ({@link CaptureWindow#holds}); null for any time
 * @param during    GPU work that starts while one of these intervals runs; null for any time
 * @param pids      the processes read; null for all
 */
public record Scope(CaptureWindow window, Intervals during, Set<Integer> pids) {
    public static final Scope ALL = new Scope(null, null, null);

    /** The work that starts in {@code window} (null: all of it). */
    public static Scope of(CaptureWindow window) {
        return window == null ? ALL : new Scope(window, null, null);
    }

    /** Whether a process is read. */
    public boolean reads(int pid) {
        return pids == null || pids.contains(pid);
    }

    /** Whether GPU work of {@code pid} that starts at {@code startEpochNs} is taken. */
    public boolean admits(int pid, long startEpochNs) {
        return (pids == null || pids.contains(pid))
                && (window == null || window.holds(startEpochNs))
                && (during == null || during.holds(startEpochNs));
    }

    /** Whether anything is cut by time (then the pass must place work in epoch time). */
    public boolean cutsTime() {
        return window != null || during != null;
    }

    public boolean isAll() {
        return window == null && during == null && pids == null;
    }
}
