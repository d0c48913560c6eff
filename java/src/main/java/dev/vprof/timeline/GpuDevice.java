package dev.vprof.timeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One GPU as a process saw it, with its streams. The properties are those the Kineto schema's
 * {@code deviceProperties} carries; zero means "not recorded".
 */
public final class GpuDevice {
    private final TimelineProcess process;
    private final int deviceId;
    private final Map<Long, GpuStream> streams = new LinkedHashMap<>();
    private String name = "";
    private long totalGlobalMemBytes;
    private int computeMajor;
    private int computeMinor;
    private int numSms;
    private Limits limits = Limits.UNKNOWN;

    /**
     * What a kernel may use on this GPU, as Kineto's deviceProperties names it; zero where not
     * recorded. Shared memory in bytes.
     */
    public record Limits(int warpSize, int maxThreadsPerBlock, int maxThreadsPerMultiprocessor, int regsPerBlock,
                         int regsPerMultiprocessor, int sharedMemPerBlock, int sharedMemPerMultiprocessor) {
        public static final Limits UNKNOWN = new Limits(0, 0, 0, 0, 0, 0, 0);
    }

    GpuDevice(TimelineProcess process, int deviceId) {
        this.process = process;
        this.deviceId = deviceId;
    }

    public TimelineProcess process() {
        return process;
    }

    public int deviceId() {
        return deviceId;
    }

    /** The stream with this CUDA stream id, created on first use. */
    public GpuStream stream(long streamId) {
        return streams.computeIfAbsent(streamId, id -> new GpuStream(this, id));
    }

    /** Streams in order of first use. */
    public List<GpuStream> streams() {
        return Collections.unmodifiableList(new ArrayList<>(streams.values()));
    }

    public GpuDevice properties(String name, long totalGlobalMemBytes, int computeMajor, int computeMinor, int numSms) {
        this.name = name == null ? "" : name;
        this.totalGlobalMemBytes = totalGlobalMemBytes;
        this.computeMajor = computeMajor;
        this.computeMinor = computeMinor;
        this.numSms = numSms;
        return this;
    }

    public GpuDevice limits(Limits limits) {
        this.limits = limits == null ? Limits.UNKNOWN : limits;
        return this;
    }

    public Limits limits() {
        return limits;
    }

    public String name() {
        return name;
    }

    public long totalGlobalMemBytes() {
        return totalGlobalMemBytes;
    }

    public int computeMajor() {
        return computeMajor;
    }

    public int computeMinor() {
        return computeMinor;
    }

    public int numSms() {
        return numSms;
    }

    /** Number of kernels, copies and sets on all streams. */
    public long opCount() {
        long n = 0;
        for (GpuStream s : streams.values()) {
            n += s.size();
        }
        return n;
    }
}
