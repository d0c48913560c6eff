package dev.vprof.analysis;

import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.Sink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stragglers at collectives: every rank runs its collectives in the same order, so the n-th
 * communication kernel ({@link WorkClass}) of each process is the same collective; the last to start
 * it is the one the others waited for. Per process: at how many of the collectives all processes
 * hold it started last, by how much after the first (in all, and at most). Epoch times (the pass's
 * fitted clocks). Bounded: the first {@value #MAX_COLLECTIVES} collectives of each process.
 */
public final class Stragglers implements Sink {
    static final int MAX_COLLECTIVES = 1 << 16;

    /** One process: collectives matched across every process, how often it came last, and how late. */
    public record Row(int pid, int matched, int last, long lateTotalNs, long lateMaxNs) {}

    private final Map<Integer, long[]> starts = new LinkedHashMap<>();
    private final Map<Integer, Integer> counts = new LinkedHashMap<>();

    @Override
    public void kernel(Kernel k) {
        if (WorkClass.ofKernel(k.name()) != WorkClass.COMMUNICATION) {
            return;
        }
        int n = counts.getOrDefault(k.pid(), 0);
        if (n == MAX_COLLECTIVES) {
            return;
        }
        long[] s = starts.computeIfAbsent(k.pid(), p -> new long[64]);
        if (n == s.length) {
            s = Arrays.copyOf(s, Math.min(MAX_COLLECTIVES, s.length * 2));
            starts.put(k.pid(), s);
        }
        s[n] = k.startEpochNs();
        counts.put(k.pid(), n + 1);
    }

    /** Per process, in order of first collective; empty with fewer than two processes running collectives. */
    public List<Row> rows() {
        List<Integer> pids = new ArrayList<>(starts.keySet());
        if (pids.size() < 2) {
            return List.of();
        }
        // Each process's collectives in order of start (records come roughly in order, not exactly).
        int matched = Integer.MAX_VALUE;
        for (int pid : pids) {
            Arrays.sort(starts.get(pid), 0, counts.get(pid));
            matched = Math.min(matched, counts.get(pid));
        }
        int[] last = new int[pids.size()];
        long[] lateTotal = new long[pids.size()];
        long[] lateMax = new long[pids.size()];
        for (int i = 0; i < matched; i++) {
            long first = Long.MAX_VALUE;
            long latest = Long.MIN_VALUE;
            int who = 0;
            for (int p = 0; p < pids.size(); p++) {
                long t = starts.get(pids.get(p))[i];
                first = Math.min(first, t);
                if (t > latest) {
                    latest = t;
                    who = p;
                }
            }
            last[who]++;
            lateTotal[who] += latest - first;
            lateMax[who] = Math.max(lateMax[who], latest - first);
        }
        List<Row> out = new ArrayList<>();
        for (int p = 0; p < pids.size(); p++) {
            out.add(new Row(pids.get(p), matched, last[p], lateTotal[p], lateMax[p]));
        }
        return out;
    }
}
