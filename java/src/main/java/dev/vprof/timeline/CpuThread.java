package dev.vprof.timeline;

/** One host thread of a process: its NVTX ranges and its CUDA API calls. */
public final class CpuThread {
    private final TimelineProcess process;
    private final long tid;
    private String name = "";
    private final ThreadSlices ranges;
    private final ThreadSlices apiCalls;

    CpuThread(TimelineProcess process, long tid, boolean keep) {
        this.process = process;
        this.tid = tid;
        this.ranges = new ThreadSlices("NVTX range on thread " + tid + " of pid " + process.pid(), keep);
        this.apiCalls = new ThreadSlices("CUDA API call on thread " + tid + " of pid " + process.pid(), keep);
    }

    public TimelineProcess process() {
        return process;
    }

    public long tid() {
        return tid;
    }

    public String name() {
        return name;
    }

    public CpuThread name(String threadName) {
        this.name = threadName == null ? "" : threadName;
        return this;
    }

    /** Adds an NVTX push/pop or start/end range; {@code domainId} is the interned domain (0: default). */
    public void addRange(int nameId, long startNs, long endNs, int domainId) {
        ranges.add(nameId, 0, startNs, endNs, 0, domainId);
    }

    /** Adds a CUDA runtime or driver call with its CUPTI correlation id and callback id. */
    public void addApiCall(ApiKind kind, int nameId, long startNs, long endNs, long correlationId, int callbackId) {
        apiCalls.add(nameId, kind.ordinal(), startNs, endNs, correlationId, callbackId);
        process.launchLinks().apiCall(correlationId);
    }

    public ThreadSlices ranges() {
        return ranges;
    }

    public ThreadSlices apiCalls() {
        return apiCalls;
    }

    /** The API kind of API call {@code i}. */
    public ApiKind apiKind(int i) {
        return ApiKind.of(apiCalls.kindOrdinal(i));
    }

    /** API call {@code i} (a kept one) into {@code into}. */
    public ApiCall apiCall(int i, ApiCall into) {
        return into.set(apiKind(i), apiCalls.nameId(i), apiCalls.start(i), apiCalls.end(i), apiCalls.correlationId(i),
                apiCalls.tag(i));
    }
}
