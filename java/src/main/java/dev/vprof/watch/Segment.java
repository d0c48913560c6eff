package dev.vprof.watch;

import java.nio.file.Path;

/**
 * One closed file of the rolling window: an ordinary capture ({@code vprof report} reads it alone)
 * covering {@code [startEpochNs, endEpochNs]}.
 *
 * @param bodyOffset where its own chunks begin: before it lie the metadata, the processes and
 *                   each process's {@link Prelude}, which a dump takes from its first segment only
 */
public record Segment(int number, Path path, long startEpochNs, long endEpochNs, long bytes, long bodyOffset) {
    /** Whether the segment holds any of {@code [fromEpochNs, toEpochNs]}. */
    public boolean overlaps(long fromEpochNs, long toEpochNs) {
        return endEpochNs >= fromEpochNs && startEpochNs <= toEpochNs;
    }

    public double seconds() {
        return (endEpochNs - startEpochNs) / 1e9;
    }
}
