package dev.vprof.timeline;

/**
 * One capture range of a process: the interval the agent recorded, with what opened it
 * ({@code cudaProfilerApi}, {@code nvtx:NAME}, {@code none}).
 */
public record CaptureRange(int index, long startNs, long endNs, String source) {
    public CaptureRange {
        if (endNs < startNs) {
            throw new IllegalArgumentException("capture range " + index + " ends before it starts");
        }
        source = source == null ? "" : source;
    }
}
