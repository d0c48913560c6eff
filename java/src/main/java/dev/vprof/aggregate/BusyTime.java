package dev.vprof.aggregate;

/**
 * Busy time of one device: the length of the union of its kernel intervals, so that
 * overlapping kernels (concurrent streams) count once.
 *
 * <p>Records arrive in CUPTI buffer order, which is only roughly sorted: the union runs through a
 * {@link RunningUnion} with a reorder window of {@link #WINDOW} intervals (1 MiB). An interval that
 * arrives after a later-starting one has already left the window cannot be placed exactly; it is
 * counted in {@link #lateIntervals()} and its part before the current union is added, which can
 * only overstate busy time.
 */
public final class BusyTime {
    public static final int WINDOW = 1 << 16;

    private long busyNs;
    private long firstStart = Long.MAX_VALUE;
    private long lastEnd = Long.MIN_VALUE;
    private boolean finished;
    private final RunningUnion union = new RunningUnion(WINDOW, new RunningUnion.Segments() {
        @Override
        public void segment(long start, long end) {
            busyNs += end - start;
        }

        @Override
        public void late(long start, long end) {
            busyNs += end - start;
        }
    });

    public void add(long start, long end) {
        firstStart = Math.min(firstStart, start);
        lastEnd = Math.max(lastEnd, Math.max(start, end));
        union.add(start, end);
    }

    /** The busy ns of everything added (ends the pass: add nothing after). */
    public long busyNs() {
        if (!finished) {
            finished = true;
            union.finish();
        }
        return busyNs;
    }

    /** From the first kernel's start to the last kernel's end: what busy time is a share of. */
    public long spanNs() {
        return lastEnd >= firstStart ? lastEnd - firstStart : 0;
    }

    public long lateIntervals() {
        return union.lateIntervals();
    }
}
