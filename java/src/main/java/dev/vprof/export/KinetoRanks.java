package dev.vprof.export;

import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.TimelineProcess;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rank and world size each process's Kineto file declares. Holistic Trace Analysis reads one
 * file per rank and keys its traces by the rank a file declares: two files with the same rank and
 * the last one read silently replaces the other. So every exported process gets a rank of its own:
 *
 * <ol>
 *   <li>the RANK its environment had (torchrun, vLLM and SGLang workers set it), else its
 *       LOCAL_RANK (a capture is one host), when no other process already holds that rank;
 *   <li>otherwise the next rank above every one taken that way (and above the WORLD_SIZE they
 *       declared, so a process outside the job never poses as one of its ranks), in a stable order:
 *       by the lowest GPU it ran work on, then by pid; processes with no GPU work come last.
 * </ol>
 *
 * <p>The world size is the same in every file: the largest WORLD_SIZE a process declared, or more
 * when the ranks given out go beyond it.
 */
public final class KinetoRanks {

    /** Where a process's rank came from. */
    public enum Source {
        RANK("from RANK"),
        LOCAL_RANK("from LOCAL_RANK"),
        ORDER("by device, then pid");

        private final String description;

        Source(String description) {
            this.description = description;
        }

        /** "from RANK", "by device, then pid". */
        public String description() {
            return description;
        }
    }

    /** One process's place: its rank, the capture's world size and why. */
    public record Rank(int rank, int worldSize, Source source) {}

    private final Map<Integer, Rank> byPid;
    private final List<String> notes;

    private KinetoRanks(Map<Integer, Rank> byPid, List<String> notes) {
        this.byPid = byPid;
        this.notes = notes;
    }

    /** Ranks for {@code processes}, each pid once. */
    public static KinetoRanks assign(List<TimelineProcess> processes) {
        List<TimelineProcess> ordered = new ArrayList<>(processes);
        ordered.sort(Comparator.comparingInt(KinetoRanks::lowestBusyDevice).thenComparingInt(TimelineProcess::pid));
        Map<Integer, Integer> rankOf = new HashMap<>();
        Map<Integer, Source> sourceOf = new HashMap<>();
        Map<Integer, Integer> holder = new HashMap<>();
        List<String> notes = new ArrayList<>();
        int declaredWorld = 0;
        for (TimelineProcess p : ordered) {
            Integer own = p.rank() != null ? p.rank() : p.localRank();
            if (own == null || own < 0) {
                continue;
            }
            Integer taken = holder.putIfAbsent(own, p.pid());
            if (taken != null) {
                notes.add("pid " + p.pid() + " has " + (p.rank() != null ? "RANK=" : "LOCAL_RANK=") + own
                        + " like pid " + taken + "; it gets a rank of its own so that HTA keeps both");
                continue;
            }
            rankOf.put(p.pid(), own);
            sourceOf.put(p.pid(), p.rank() != null ? Source.RANK : Source.LOCAL_RANK);
            if (p.worldSize() != null && p.worldSize() > own) {
                declaredWorld = Math.max(declaredWorld, p.worldSize());
            }
        }
        int next = declaredWorld;
        for (int r : holder.keySet()) {
            next = Math.max(next, r + 1);
        }
        for (TimelineProcess p : ordered) {
            if (!rankOf.containsKey(p.pid())) {
                rankOf.put(p.pid(), next++);
                sourceOf.put(p.pid(), Source.ORDER);
            }
        }
        int world = Math.max(declaredWorld, next);
        Map<Integer, Rank> byPid = new LinkedHashMap<>();
        for (TimelineProcess p : processes) {
            byPid.put(p.pid(), new Rank(rankOf.get(p.pid()), world, sourceOf.get(p.pid())));
        }
        return new KinetoRanks(byPid, List.copyOf(notes));
    }

    /** The rank of the process with this pid (one of those assigned). */
    public Rank of(int pid) {
        Rank r = byPid.get(pid);
        if (r == null) {
            throw new IllegalArgumentException("pid " + pid + " was not among the processes given ranks");
        }
        return r;
    }

    /** What a user should know about the assignment (ranks two processes both claimed). */
    public List<String> notes() {
        return notes;
    }

    /** Distinct ranks, for checks. */
    Set<Integer> ranks() {
        Set<Integer> s = new HashSet<>();
        byPid.values().forEach(r -> s.add(r.rank()));
        return s;
    }

    /** The lowest device ordinal the process ran GPU work on; processes with none sort last. */
    private static int lowestBusyDevice(TimelineProcess p) {
        int lowest = Integer.MAX_VALUE;
        for (GpuDevice d : p.devices()) {
            if (d.opCount() > 0) {
                lowest = Math.min(lowest, d.deviceId());
            }
        }
        return lowest;
    }
}
