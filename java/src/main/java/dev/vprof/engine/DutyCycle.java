package dev.vprof.engine;

import dev.vprof.bindings.VprofRing;
import dev.vprof.region.RegionException;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code vprof watch --armed P%}: the agents are armed for cudaProfilerApi ranges, which costs a
 * launch nothing while no range is open (docs/cupti.md), and the front end opens one range of
 * {@code P%} of every cycle, at its start, and closes it again with the RANGE_BEGIN and RANGE_END
 * commands that {@code --range-scope tree} uses ({@link TreeRangeRelay}). So the target pays the
 * recording's cost only that share of the time. While a dump is pending ({@link #poll}'s {@code hold}) the range
 * stays open, so that the seconds after a trigger are recorded whole.
 *
 * <p>Polled by the drain thread every turn; a range it opened ends only by its own RANGE_END (or
 * the process's stop), as a relayed range does.
 */
final class DutyCycle {
    private final long cycleNs;
    private final long onNs;
    private final long startNs;
    private final Set<Integer> complained = new HashSet<>();
    private boolean on;

    DutyCycle(CapturePlan.Continuous c, long startNs) {
        this.cycleNs = c.cycle().toNanos();
        this.onNs = Math.max(1, (long) (c.cycle().toNanos() * c.armedFraction()));
        this.startNs = startNs;
    }

    /** Whether the agents are meant to record now: in the armed part of the cycle, or held. */
    boolean on() {
        return on;
    }

    /** Opens or closes each agent's range as the cycle (or {@code hold}) says. */
    void poll(List<Attached> agents, long nowNs, boolean hold, PrintWriter err) {
        on = hold || Math.floorMod(nowNs - startNs, cycleNs) < onNs;
        for (Attached a : agents) {
            if (a.finished || a.dutyRangeOpen == on || !a.region.state().isActive()) {
                continue;
            }
            send(a, on, err);
        }
    }

    private void send(Attached a, boolean begin, PrintWriter err) {
        try {
            int r = a.region.relayRange(begin, CaptureSession.COMMAND_TIMEOUT_NS);
            if (r == VprofRing.RESULT_OK) {
                a.dutyRangeOpen = begin;
            } else if (complained.add(a.pid())) {
                err.println("vprof: warning: pid " + a.pid() + " refused the duty cycle's capture range ("
                        + (a.region.reason().isEmpty() ? "result " + r : a.region.reason()) + ")");
            }
        } catch (RegionException e) {
            if (complained.add(a.pid())) {
                err.println("vprof: warning: " + e.getMessage());
            }
        }
    }
}
