package dev.vprof.engine;

import dev.vprof.bindings.VprofRing;
import dev.vprof.region.RegionException;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code --range-scope tree}: a cudaProfilerApi range begun in any process of the tree opens a
 * range in every agent of the tree, and closes when no process has its own range open any more.
 * SGLang calls cudaProfilerStart in one rank only (docs/cupti-field-facts.md R10); without this the other
 * ranks record nothing.
 *
 * <p>Each agent counts the range edges its own process made (local_range_begins/_ends in its
 * control block); the relay reads them every loop turn and sends RANGE_BEGIN or RANGE_END to the
 * agents. An agent opened by a relay ends only by a relay (or its own stop), so a rank that
 * starts and stops its own ranges keeps them. The other ranks begin a command turn later than the
 * one that started: their first kernels of the window may be missed (about one agent tick, 10 ms).
 */
final class TreeRangeRelay {
    private final Map<Integer, long[]> seen = new HashMap<>();
    private final Set<Integer> opened = new HashSet<>();
    private final Set<Integer> complained = new HashSet<>();
    private final boolean fromZero;
    private boolean open;

    /** {@code fromZero}: the agents were armed at their start (run), so every edge they counted is new. */
    TreeRangeRelay(boolean fromZero) {
        this.fromZero = fromZero;
    }

    void poll(List<Attached> agents, PrintWriter err) {
        boolean began = false;
        boolean localOpen = false;
        for (Attached a : agents) {
            if (a.finished) {
                continue;
            }
            long b = a.region.localRangeBegins();
            long e = a.region.localRangeEnds();
            long[] last = seen.computeIfAbsent(a.pid(), pid -> fromZero ? new long[2] : new long[] {b, e});
            began |= b > last[0];
            localOpen |= b > e;
            last[0] = b;
            last[1] = e;
        }
        if (began) {
            open = true;
        }
        if (open && !localOpen) {
            open = false;
            for (Attached a : agents) {
                if (opened.remove(a.pid())) {
                    send(a, false, err);
                }
            }
            opened.clear();
            return;
        }
        if (open) {
            // Every agent of the tree, also one that joined after the range began.
            for (Attached a : agents) {
                if (!a.finished && !opened.contains(a.pid()) && a.region.state().isActive()) {
                    opened.add(a.pid());
                    send(a, true, err);
                }
            }
        }
    }

    private void send(Attached a, boolean begin, PrintWriter err) {
        if (a.finished || !a.region.state().isActive()) {
            return;
        }
        try {
            int r = a.region.relayRange(begin, CaptureSession.COMMAND_TIMEOUT_NS);
            if (r != VprofRing.RESULT_OK && complained.add(a.pid())) {
                err.println("vprof: warning: pid " + a.pid() + " refused the tree's capture range ("
                        + (a.region.reason().isEmpty() ? "result " + r : a.region.reason()) + ")");
            }
        } catch (RegionException e) {
            if (complained.add(a.pid())) {
                err.println("vprof: warning: " + e.getMessage());
            }
        }
    }
}
