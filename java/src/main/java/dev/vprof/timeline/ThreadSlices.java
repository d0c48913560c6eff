package dev.vprof.timeline;

/**
 * One track of a host thread in a timeline's layout, its NVTX ranges or its CUDA API calls: how
 * many slices it has and when the first starts. The slices themselves are not kept; a walk over
 * the source hands them out ({@link TimelineSource#walk}).
 */
public final class ThreadSlices {
    private int count;
    private long firstStart = Long.MAX_VALUE;

    ThreadSlices() {}

    void count(long startNs) {
        firstStart = Math.min(firstStart, startNs);
        count++;
    }

    /** Slices counted. */
    public int size() {
        return count;
    }

    /** The earliest start of any slice counted; {@code Long.MAX_VALUE} when none. */
    public long firstStart() {
        return firstStart;
    }
}
