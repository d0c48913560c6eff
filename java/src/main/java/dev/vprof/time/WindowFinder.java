package dev.vprof.time;

import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.WindowChunk;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds a capture's window in one pass, for every reader alike ({@link CaptureWindow#choose}): the
 * window the capture recorded, else the span of its capture ranges' edges, else the span of its GPU
 * work. It keeps the raw edges and per process the extent of the work in CUPTI ns, and places them
 * in epoch time at the end, when the pass has fitted the clocks, so a pass that needs no epoch time
 * otherwise need not fit them first. Memory: three longs per range edge and two per process.
 */
public final class WindowFinder {
    private long[] edges = new long[3 * 16]; // pid, realtime ns, CUPTI ns
    private int edgeCount;
    private final Map<Integer, long[]> work = new HashMap<>();
    private int lastPid = Integer.MIN_VALUE;
    private long[] lastWork;

    /** A capture range's BEGIN or END (late runs' markers are not edges). */
    public void range(int pid, RangeEvent e) {
        if (!(e.isBegin() || e.isEnd())) {
            return;
        }
        if (3 * edgeCount == edges.length) {
            edges = Arrays.copyOf(edges, edges.length * 2);
        }
        edges[3 * edgeCount] = pid;
        edges[3 * edgeCount + 1] = e.realtimeNs();
        edges[3 * edgeCount + 2] = e.cuptiNs();
        edgeCount++;
    }

    /** GPU work (a kernel, copy or set) of process {@code pid} from start to end, CUPTI ns. */
    public void work(int pid, long start, long end) {
        long[] w = lastWork;
        if (pid != lastPid) {
            w = work.computeIfAbsent(pid, p -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            lastWork = w;
            lastPid = pid;
        }
        if (start < w[0]) {
            w[0] = start;
        }
        long last = Math.max(start, end);
        if (last > w[1]) {
            w[1] = last;
        }
    }

    /** The window: {@code recorded} (the capture's WINDOW chunk, may be null) when whole, else from the edges, else the work. */
    public CaptureWindow choose(WindowChunk recorded, Clocks clocks) {
        long rs = Long.MAX_VALUE, re = Long.MIN_VALUE;
        for (int i = 0; i < edgeCount; i++) {
            int pid = (int) edges[3 * i];
            long t = RangeEdges.epochNs(edges[3 * i + 1], edges[3 * i + 2], clocks.of(pid));
            rs = Math.min(rs, t);
            re = Math.max(re, t);
        }
        long ds = Long.MAX_VALUE, de = Long.MIN_VALUE;
        for (Map.Entry<Integer, long[]> e : work.entrySet()) {
            long[] w = e.getValue();
            ds = Math.min(ds, clocks.epochNs(e.getKey(), w[0]));
            de = Math.max(de, clocks.epochNs(e.getKey(), w[1]));
        }
        return CaptureWindow.choose(recorded, rs, re, ds, de);
    }
}
