package dev.vprof.analysis;

import dev.vprof.aggregate.BusyTime;

/**
 * One lane of a breakdown (a process's device, over the capture, a step or a phase): the four unions
 * whose lengths give compute, communication, memory and overlap ({@link TemporalBreakdown}).
 */
final class Lane {
    private final BusyTime compute = new BusyTime();
    private final BusyTime comm = new BusyTime();
    private final BusyTime computeOrComm = new BusyTime();
    private final BusyTime all = new BusyTime();

    void add(WorkClass c, long start, long end) {
        all.add(start, end);
        if (c == WorkClass.COMPUTE) {
            compute.add(start, end);
            computeOrComm.add(start, end);
        } else if (c == WorkClass.COMMUNICATION) {
            comm.add(start, end);
            computeOrComm.add(start, end);
        }
    }

    /** The figures; {@code spanNs} below 0 takes the lane's own span (first work's start to last work's end). */
    TemporalBreakdown.Row row(int pid, int device, int step, long spanNs) {
        long c = compute.busyNs();
        long m = comm.busyNs();
        long cm = computeOrComm.busyNs();
        long a = all.busyNs();
        long span = spanNs < 0 ? all.spanNs() : spanNs;
        boolean late = compute.lateIntervals() + comm.lateIntervals() + computeOrComm.lateIntervals()
                + all.lateIntervals() > 0;
        return new TemporalBreakdown.Row(pid, device, step, span, Math.max(0, span - a), c, cm - c, a - cm,
                c + m - cm, late);
    }
}
