package dev.vprof.timeline;

/**
 * The columns every track of slices has (name id and kind packed in one int, start, end, 32-bit
 * correlation id), kept, or in a layout-only timeline only counted, with the order check and the
 * sort. {@link GpuStream} and {@link ThreadSlices} add their own columns.
 */
abstract class SliceColumns {
    private final boolean keep;
    private final IntColumn nameAndKind;
    private final LongColumn start;
    private final LongColumn end;
    private final IntColumn correlation;
    private boolean sorted = true;
    private int count;
    private long firstStart = Long.MAX_VALUE;
    private long lastStart;
    private long lastEnd;

    SliceColumns(boolean keep, int capacity) {
        this.keep = keep;
        int c = keep ? capacity : 0;
        this.nameAndKind = new IntColumn(c);
        this.start = new LongColumn(c);
        this.end = new LongColumn(c);
        this.correlation = new IntColumn(c);
    }

    /** Who these slices are, for an error about one. */
    abstract String what();

    /** Reorders the subclass's own columns as {@link #sortByStart} reorders the common ones. */
    abstract void permuteOwn(int[] order);

    /**
     * Counts a slice and, when kept, appends its common columns; returns whether it was kept, so
     * that the subclass appends its own.
     */
    final boolean append(int nameAndKindValue, long startNs, long endNs, long correlationId) {
        if (count > 0 && sorted) {
            sorted = lastStart < startNs || (lastStart == startNs && lastEnd >= endNs);
        }
        lastStart = startNs;
        lastEnd = endNs;
        firstStart = Math.min(firstStart, startNs);
        count++;
        if (!keep) {
            return false;
        }
        nameAndKind.add(nameAndKindValue);
        start.add(startNs);
        end.add(endNs);
        correlation.add((int) correlationId);
        return true;
    }

    /** Puts the slices in order of start time (ties: longer, i.e. outer, first); cheap when already in order. */
    public final void sortByStart() {
        if (sorted || !keep || SliceOrder.isSorted(start, end)) {
            sorted = true;
            return;
        }
        int[] order = SliceOrder.order(start, end);
        nameAndKind.permute(order);
        start.permute(order);
        end.permute(order);
        correlation.permute(order);
        permuteOwn(order);
        sorted = true;
    }

    void trimColumns() {
        nameAndKind.trim();
        start.trim();
        end.trim();
        correlation.trim();
    }

    /** Slices added (kept or, in a layout-only timeline, counted). */
    public final int size() {
        return count;
    }

    /** The earliest start of any slice added; {@code Long.MAX_VALUE} when none. */
    public final long firstStart() {
        return firstStart;
    }

    /** Throws unless the slices are kept (reading one of a layout-only timeline is a bug). */
    final void kept() {
        if (!keep) {
            throw new IllegalStateException(what() + " belongs to a layout-only timeline, which keeps no slices");
        }
    }

    final int nameAndKind(int i) {
        kept();
        return nameAndKind.get(i);
    }

    // Unchecked reads, for a walk that checked once that the slices are kept.

    final int rawNameAndKind(int i) {
        return nameAndKind.get(i);
    }

    final long rawStart(int i) {
        return start.get(i);
    }

    final long rawEnd(int i) {
        return end.get(i);
    }

    final int rawCorrelation(int i) {
        return correlation.get(i);
    }

    public final int nameId(int i) {
        return nameAndKind(i) >>> 2;
    }

    public final long start(int i) {
        kept();
        return start.get(i);
    }

    public final long end(int i) {
        kept();
        return end.get(i);
    }

    /** The CUPTI correlation id, 0 when none was recorded. */
    public final long correlationId(int i) {
        kept();
        return Integer.toUnsignedLong(correlation.get(i));
    }
}
