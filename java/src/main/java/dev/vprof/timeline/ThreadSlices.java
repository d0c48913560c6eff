package dev.vprof.timeline;

/**
 * Columnar slices of one host thread: NVTX ranges or CUDA API calls. Each slice has a name id, a
 * start and an end, a small kind (the {@link ApiKind} of an API call), a 32-bit correlation id
 * (API calls) and a 32-bit tag (the callback id of an API call, the interned domain of an NVTX range).
 */
public final class ThreadSlices {
    private final String what;
    private final IntColumn nameAndKind = new IntColumn(64);
    private final LongColumn start = new LongColumn(64);
    private final LongColumn end = new LongColumn(64);
    private final IntColumn correlation = new IntColumn(64);
    private final IntColumn tag = new IntColumn(64);
    private boolean sorted = true;

    ThreadSlices(String what) {
        this.what = what;
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
        int n = start.size();
        if (n > 0 && sorted) {
            long prevStart = start.get(n - 1);
            sorted = prevStart < startNs || (prevStart == startNs && end.get(n - 1) >= endNs);
        }
        nameAndKind.add(nameId << 2 | kind);
        start.add(startNs);
        end.add(endNs);
        correlation.add((int) correlationId);
        tag.add(tagValue);
    }

    /** Puts the slices in order of start time (ties: longer, i.e. outer, first). */
    public void sortByStart() {
        if (sorted || SliceOrder.isSorted(start, end)) {
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

    public int size() {
        return start.size();
    }

    public int nameId(int i) {
        return nameAndKind.get(i) >>> 2;
    }

    int kindOrdinal(int i) {
        return nameAndKind.get(i) & 3;
    }

    public long start(int i) {
        return start.get(i);
    }

    public long end(int i) {
        return end.get(i);
    }

    public long correlationId(int i) {
        return Integer.toUnsignedLong(correlation.get(i));
    }

    public int tag(int i) {
        return tag.get(i);
    }
}
