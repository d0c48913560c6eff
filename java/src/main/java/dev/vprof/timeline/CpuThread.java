package dev.vprof.timeline;

/** One host thread of a process: its name, and the counts of its NVTX ranges and CUDA API calls. */
public final class CpuThread {
    private final TimelineProcess process;
    private final long tid;
    private String name = "";
    private final ThreadSlices ranges;
    private final ThreadSlices apiCalls;

    CpuThread(TimelineProcess process, long tid) {
        this.process = process;
        this.tid = tid;
        this.ranges = new ThreadSlices();
        this.apiCalls = new ThreadSlices();
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

    /** Counts an NVTX push/pop or start/end range (or an instant mark) that starts at {@code startNs}. */
    public void countRange(long startNs) {
        ranges.count(startNs);
    }

    /** Counts a CUDA runtime or driver call, and notes its correlation id for launch links. */
    public void countApiCall(ApiCall call) {
        apiCalls.count(call.start());
        process.launchLinks().apiCall(call.correlationId());
    }

    public ThreadSlices ranges() {
        return ranges;
    }

    public ThreadSlices apiCalls() {
        return apiCalls;
    }
}
