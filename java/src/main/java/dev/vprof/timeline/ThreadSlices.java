package dev.vprof.timeline;

/**
 * Columnar slices of one host thread: NVTX ranges or CUDA API calls. Each slice has a name id, a
 * start and an end, a small kind (the {@link ApiKind} of an API call), a 32-bit correlation id
 * (API calls) and a 32-bit tag (the callback id of an API call, the interned domain of an NVTX range).
 * A layout-only timeline counts slices instead of keeping them, as {@link GpuStream} does.
 */
public final class ThreadSlices {
    private final String what;
    private final boolean keep;
    private final IntColumn nameAndKind;
    private final LongColumn start;
    private final LongColumn end;
    private final IntColumn correlation;
    private final IntColumn tag;
    private boolean sorted = true;
    private int count;
    private long firstStart = Long.MAX_VALUE;
    private long lastStart;
    private long lastEnd;

    ThreadSlices(String what, boolean keep) {
        this.what = what;
        this.keep = keep;
        int capacity = keep ? 64 : 0;
        this.nameAndKind = new IntColumn(capacity);
        this.start = new LongColumn(capacity);
        this.end = new LongColumn(capacity);
        this.correlation = new IntColumn(capacity);
        this.tag = new IntColumn(capacity);
    }

    void add(int nameId, int kind, long startNs, long endNs, long correlationId, int tagValue) {
        if (endNs < startNs) {
            throw new IllegalArgumentException(what + " ends (" + endNs + " ns) before it starts (" + startNs + " ns)");
        }
        if (nameId < 0 || nameId >= (1 << 29)) {
            throw new IllegalArgumentException("name id " + nameId + " out of range");
        }
        if (correlationId < 0 || correlationId > 0xffff_ffffL) {
            throw new IllegalArgumentException("correlation id " + correlationId + " is not a 32-bit CUPTI correlation id");
        }
        if (count > 0 && sorted) {
            sorted = lastStart < startNs || (lastStart == startNs && lastEnd >= endNs);
        }
        lastStart = startNs;
        lastEnd = endNs;
        firstStart = Math.min(firstStart, startNs);
        count++;
        if (!keep) {
            return;
        }
        nameAndKind.add(nameId << 2 | kind);
        start.add(startNs);
        end.add(endNs);
        correlation.add((int) correlationId);
        tag.add(tagValue);
    }

    /** Puts the slices in order of start time (ties: longer, i.e. outer, first). */
    public void sortByStart() {
        if (sorted || !keep || SliceOrder.isSorted(start, end)) {
            sorted = true;
            return;
        }
        int[] order = SliceOrder.order(start, end);
        nameAndKind.permute(order);
        start.permute(order);
        end.permute(order);
        correlation.permute(order);
        tag.permute(order);
        sorted = true;
    }

    /** Slices added (kept or, in a layout-only timeline, counted). */
    public int size() {
        return count;
    }

    /** The earliest start of any slice added; {@code Long.MAX_VALUE} when none. */
    public long firstStart() {
        return firstStart;
    }

    private void kept() {
        if (!keep) {
            throw new IllegalStateException(what + "s of a layout-only timeline are not kept");
        }
    }

    public int nameId(int i) {
        kept();
        return nameAndKind.get(i) >>> 2;
    }

    int kindOrdinal(int i) {
        kept();
        return nameAndKind.get(i) & 3;
    }

    public long start(int i) {
        kept();
        return start.get(i);
    }

    public long end(int i) {
        kept();
        return end.get(i);
    }

    public long correlationId(int i) {
        kept();
        return Integer.toUnsignedLong(correlation.get(i));
    }

    public int tag(int i) {
        kept();
        return tag.get(i);
    }
}
