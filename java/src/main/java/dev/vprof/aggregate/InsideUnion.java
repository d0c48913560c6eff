package dev.vprof.aggregate;

import dev.vprof.time.Intervals;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Kernels inside a union of intervals (the slowest requests' prefill windows, say): per kernel name,
 * how many of its kernels overlap the union and their GPU ns inside it. Epoch times; memory bounded
 * by the names.
 */
public final class InsideUnion implements Sink {
    private final Intervals union;
    private final Map<String, long[]> byName = new HashMap<>();

    public InsideUnion(Intervals union) {
        this.union = union;
    }

    @Override
    public void kernel(Kernel k) {
        long in = union.overlapNs(k.startEpochNs(), k.endEpochNs());
        if (in > 0) {
            long[] t = byName.computeIfAbsent(k.name(), n -> new long[2]);
            t[0]++;
            t[1] += in;
        }
    }

    public Intervals union() {
        return union;
    }

    /** Name (as the file holds it) -> {kernels overlapping, ns inside}. */
    public Map<String, long[]> byName() {
        return Collections.unmodifiableMap(byName);
    }
}
