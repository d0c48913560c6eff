package dev.vprof.export.sqlite;

import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Each thread's {@code globalTid}, as Nsight Systems packs it: the process's {@code globalPid}
 * ({@link NsysSchema#globalPid}) with the thread id in bits 0..23. Every Linux thread id fits (the
 * kernel's limit is 2^22); a thread id a source gives outside 0..2^24-1 (a PyTorch trace's negative
 * ids) would lose its upper bits and could land on another thread, so it gets a number of its own,
 * counted down from 2^24-1 past those in use, and {@link #rows} keeps the id the source gave, whole.
 */
final class ThreadIds {
    static final long TID_MASK = 0xFF_FFFFL;

    /** One thread: its globalTid, its process and the thread id its source gave. */
    record Thread(CpuThread thread, long globalTid, int pid, long tid) {}

    private final Map<CpuThread, Thread> byThread = new IdentityHashMap<>();
    private final List<Thread> rows = new ArrayList<>();
    private CpuThread last;
    private long lastGlobalTid;

    ThreadIds(Timeline layout) {
        for (TimelineProcess p : layout.processes()) {
            Set<Long> used = new HashSet<>();
            for (CpuThread t : p.threads()) {
                if (fits(t.tid())) {
                    used.add(t.tid());
                }
            }
            long next = TID_MASK;
            for (CpuThread t : p.threads()) {
                long packed = t.tid();
                if (!fits(packed)) {
                    while (used.contains(next)) {
                        next--;
                    }
                    packed = next--;
                }
                Thread row = new Thread(t, NsysSchema.globalPid(p.pid()) | packed, p.pid(), t.tid());
                byThread.put(t, row);
                rows.add(row);
            }
        }
    }

    private static boolean fits(long tid) {
        return tid >= 0 && tid <= TID_MASK;
    }

    /** {@code thread}'s globalTid (a thread the layout did not list is packed as it comes). */
    long globalTid(CpuThread thread) {
        if (thread != last) {
            Thread row = byThread.get(thread);
            last = thread;
            lastGlobalTid = row != null ? row.globalTid()
                    : NsysSchema.globalPid(thread.process().pid()) | (thread.tid() & TID_MASK);
        }
        return lastGlobalTid;
    }

    /** Every thread of the layout, in its order. */
    List<Thread> rows() {
        return rows;
    }
}
