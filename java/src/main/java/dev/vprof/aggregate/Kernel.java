package dev.vprof.aggregate;

import dev.vprof.capture.KernelDesc;

/**
 * One kernel as every analysis sees it, handed to each {@link Sink} by the {@link KernelPass}: the
 * record's fields, its times in epoch ns (when the pass placed them there) and the step it belongs
 * to. One instance is reused for every kernel of a pass: read it during the call, keep nothing.
 */
public final class Kernel {
    int pid;
    long startNs;
    long endNs;
    long startEpochNs;
    long endEpochNs;
    int correlationId;
    KernelDesc desc;
    String name;
    int step = -1;

    Kernel() {}

    public int pid() {
        return pid;
    }

    /** Start and end in the process's CUPTI ns. */
    public long startNs() {
        return startNs;
    }

    public long endNs() {
        return endNs;
    }

    /** end - start, never below 0. */
    public long durationNs() {
        return Math.max(0, endNs - startNs);
    }

    /**
     * Start and end (at least the start) in epoch ns through the process's fitted clock; equal to the
     * CUPTI times in a pass built with {@code Clocks.unfitted()}, whose sinks place nothing in time.
     */
    public long startEpochNs() {
        return startEpochNs;
    }

    public long endEpochNs() {
        return endEpochNs;
    }

    public int correlationId() {
        return correlationId;
    }

    /** The launch's description (device, stream, grid, graph); null when the file lacks it. */
    public KernelDesc desc() {
        return desc;
    }

    /** The device it ran on; -1 unknown. */
    public int device() {
        return desc == null ? -1 : desc.deviceId();
    }

    public boolean fromGraph() {
        return desc != null && desc.fromGraph();
    }

    /** The name as the file holds it. */
    public String name() {
        return name;
    }

    /** The step it belongs to (an index of the pass's {@link Steps}), -1 outside any step or without steps. */
    public int step() {
        return step;
    }
}
