package dev.vprof.aggregate;

/**
 * One device's busy fraction over time: the union of its kernel intervals (overlapping kernels on
 * concurrent streams count once, as in {@link BusyTime}) cut into equal bins of a fixed interval.
 * Memory is the bins and the union's reorder window, whatever the number of kernels. Work outside
 * [from, to) is counted in {@link #outsideNs()} and not binned.
 */
public final class BusyTimeline {
    private final long from;
    private final long to;
    private final long[] busy;
    private long outsideNs;
    private boolean finished;
    private final RunningUnion union = new RunningUnion(BusyTime.WINDOW, new RunningUnion.Segments() {
        @Override
        public void segment(long start, long end) {
            spread(start, end);
        }

        @Override
        public void late(long start, long end) {
            spread(start, end); // as BusyTime: a late piece can only overstate, and is rare
        }
    });

    /** Bins of (to - from) / bins over [from, to); to must be after from. */
    public BusyTimeline(long from, long to, int bins) {
        if (to <= from || bins < 1) {
            throw new IllegalArgumentException("empty timeline " + from + ".." + to + " in " + bins + " bins");
        }
        this.from = from;
        this.to = to;
        this.busy = new long[bins];
    }

    /** A kernel from start to end (the same clock as from and to). */
    public void add(long start, long end) {
        union.add(start, end);
    }

    /** Each bin's busy fraction, 0..1 (ends the pass: add nothing after). */
    public double[] fractions() {
        finish();
        double[] f = new double[busy.length];
        for (int i = 0; i < busy.length; i++) {
            long width = edge(i + 1) - edge(i);
            f[i] = width > 0 ? Math.min(1.0, (double) busy[i] / width) : 0.0;
        }
        return f;
    }

    /** Bin i covers [edge(i), edge(i + 1)); exact integers, so the bins tile [from, to). */
    private long edge(int i) {
        return from + (to - from) * i / busy.length;
    }

    /** The bin that holds t (from <= t < to). */
    private int bin(long t) {
        return (int) (((t - from + 1) * busy.length - 1) / (to - from));
    }

    /** Busy ns that fell before from or after to. */
    public long outsideNs() {
        finish();
        return outsideNs;
    }

    private void finish() {
        if (!finished) {
            finished = true;
            union.finish();
        }
    }

    private void spread(long start, long end) {
        if (end <= start) {
            return;
        }
        if (start < from) {
            outsideNs += Math.min(end, from) - start;
            start = from;
        }
        if (end > to) {
            outsideNs += end - Math.max(start, to);
            end = to;
        }
        while (start < end) {
            int b = bin(start);
            long piece = Math.min(end, edge(b + 1)) - start;
            busy[b] += piece;
            start += piece;
        }
    }
}
