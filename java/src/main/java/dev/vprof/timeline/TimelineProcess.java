package dev.vprof.timeline;

import dev.vprof.capture.EventArgs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One profiled process: its GPUs, host threads and capture ranges. */
public final class TimelineProcess {
    private final int pid;
    private String name;
    private List<String> commandLine;
    private final Map<Integer, GpuDevice> devices = new LinkedHashMap<>();
    private final Map<Long, CpuThread> threads = new LinkedHashMap<>();
    private final List<CaptureRange> captureRanges = new ArrayList<>();
    private Integer rank;
    private Integer localRank;
    private Integer worldSize;
    private final LaunchLinks launchLinks = new LaunchLinks();
    private Map<String, String> facts = Map.of();
    private EventArgs sourceFields;

    TimelineProcess(int pid, String name, List<String> commandLine) {
        this.pid = pid;
        this.name = name == null ? "" : name;
        this.commandLine = List.copyOf(commandLine == null ? List.of() : commandLine);
    }

    public int pid() {
        return pid;
    }

    public String name() {
        return name;
    }

    public List<String> commandLine() {
        return commandLine;
    }

    /** Sets the name and command line (for example once the capture's metadata chunk is read). */
    public TimelineProcess describe(String processName, List<String> cmdline) {
        this.name = processName == null ? "" : processName;
        this.commandLine = List.copyOf(cmdline == null ? List.of() : cmdline);
        return this;
    }

    /** What the capture says of where the process came from (its PROCESS chunk's facts; empty for an agent's). */
    public TimelineProcess facts(Map<String, String> sourceFacts) {
        this.facts = Map.copyOf(sourceFacts == null ? Map.of() : sourceFacts);
        return this;
    }

    public Map<String, String> facts() {
        return facts;
    }

    /**
     * The pid the process had in its source where the capture gave it another (a trace whose pid
     * another process of the capture had: {@code tracePid} in its facts), else its own.
     */
    public long sourcePid() {
        String p = facts.get("tracePid");
        if (p != null) {
            try {
                return Long.parseLong(p);
            } catch (NumberFormatException e) {
                return pid;
            }
        }
        return pid;
    }

    /** The source's own top-level fields (a PyTorch profiler trace's), which no record holds; null when none. */
    public TimelineProcess sourceFields(EventArgs fields) {
        this.sourceFields = fields;
        return this;
    }

    public EventArgs sourceFields() {
        return sourceFields;
    }

    /**
     * The process's place in a distributed job, from its own RANK, LOCAL_RANK and WORLD_SIZE
     * environment as its agent read it; null where unknown.
     */
    public TimelineProcess distributed(Integer rank, Integer localRank, Integer worldSize) {
        this.rank = rank;
        this.localRank = localRank;
        this.worldSize = worldSize;
        return this;
    }

    public Integer rank() {
        return rank;
    }

    public Integer localRank() {
        return localRank;
    }

    public Integer worldSize() {
        return worldSize;
    }

    /** The GPU with this CUDA device ordinal, created on first use. */
    public GpuDevice device(int deviceId) {
        return devices.computeIfAbsent(deviceId, id -> new GpuDevice(this, id));
    }

    public List<GpuDevice> devices() {
        return Collections.unmodifiableList(new ArrayList<>(devices.values()));
    }

    /** The host thread with this tid, created on first use. */
    public CpuThread thread(long tid) {
        return threads.computeIfAbsent(tid, id -> new CpuThread(this, id));
    }

    /** The host thread with this tid, or null when the process has none (never creates one). */
    public CpuThread existingThread(long tid) {
        return threads.get(tid);
    }

    public List<CpuThread> threads() {
        return Collections.unmodifiableList(new ArrayList<>(threads.values()));
    }

    public void addCaptureRange(CaptureRange range) {
        captureRanges.add(range);
    }

    public List<CaptureRange> captureRanges() {
        return Collections.unmodifiableList(captureRanges);
    }

    /** Which correlation ids are on API calls and which on GPU ops, for launch-to-op flows. */
    public LaunchLinks launchLinks() {
        return launchLinks;
    }

    /** The number of kernels, copies and sets on every device. */
    public long gpuOps() {
        long n = 0;
        for (GpuDevice d : devices.values()) {
            n += d.opCount();
        }
        return n;
    }

    /** True when any thread has CUDA API calls, i.e. when flows from launches to kernels can be drawn. */
    public boolean hasApiCalls() {
        for (CpuThread t : threads.values()) {
            if (t.apiCalls().size() > 0) {
                return true;
            }
        }
        return false;
    }
}
