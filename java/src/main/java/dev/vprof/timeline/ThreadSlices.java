package dev.vprof.timeline;

/**
 * Columnar slices of one host thread: NVTX ranges or CUDA API calls. Each slice has a name id, a
 * start and an end, a small kind (the {@link ApiKind} of an API call), a 32-bit correlation id
 * (API calls) and a 32-bit tag (the callback id of an API call, the interned domain of an NVTX range).
 * A layout-only timeline counts slices instead of keeping them, as {@link GpuStream} does.
 */
public final class ThreadSlices extends SliceColumns {
    private final String what;
    private final IntColumn tag;

    ThreadSlices(String what, boolean keep) {
        super(keep, 64);
        this.what = what;
        this.tag = new IntColumn(keep ? 64 : 0);
    }

    @Override
    String what() {
        return what;
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
        if (append(nameId << 2 | kind, startNs, endNs, correlationId)) {
            tag.add(tagValue);
        }
    }

    @Override
    void permuteOwn(int[] order) {
        tag.permute(order);
    }

    int kindOrdinal(int i) {
        return nameAndKind(i) & 3;
    }

    public int tag(int i) {
        kept();
        return tag.get(i);
    }
}
