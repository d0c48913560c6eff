package dev.vprof.diff;

import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.KernelPass;
import dev.vprof.aggregate.Sink;
import dev.vprof.aggregate.StepFinder;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RangeEvent;
import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Clocks;
import dev.vprof.time.Scope;
import dev.vprof.time.WindowFinder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the first pass over a capture learns before any kernel is counted: its steps (by the one step
 * rule every view uses, {@code aggregate.StepRule}, found by {@link StepFinder}), its GPUs, the record
 * kinds it holds, whether CUDA graphs ran, and its window (the time layer's {@link WindowFinder}, as
 * the report finds it). Bounded: a few numbers per step and per device, never per kernel.
 */
final class FirstPassFacts implements Sink {
    /**
     * One process's steps as the comparison asks about them: corrMin, the lowest correlation id
     * launched in each step (Integer.MAX_VALUE for a step without launches), null when the process's
     * kernels are placed in steps by their start (the capture holds no launch calls for it).
     */
    static final class Steps {
        final int[] corrMin;

        Steps(int[] corrMin) {
            this.corrMin = corrMin;
        }
    }

    /** The capture's steps, by process; empty without steps. */
    final Map<Integer, Steps> steps = new HashMap<>();
    /** The capture's steps, and which step each kernel belongs to. */
    dev.vprof.aggregate.Steps all = dev.vprof.aggregate.Steps.NONE;
    private final StepFinder stepFinder;
    private final WindowFinder windowFinder = new WindowFinder();
    /** device name by "pid:id" (or uuid). */
    final Map<String, String> devices = new TreeMap<>();
    long kernels, memcpys, memsets, markers, apis, graphKernels;
    /** The clocks, fitted by the pass. */
    Clocks clocks = Clocks.unfitted();

    CaptureWindow window = CaptureWindow.NONE;
    Integer worldSize;
    final TreeSet<Integer> ranks = new TreeSet<>();
    final TreeSet<Long> cuptiVersions = new TreeSet<>();

    FirstPassFacts(String stepName) {
        this.stepFinder = new StepFinder(stepName);
    }

    static FirstPassFacts read(CaptureReader reader, String stepName) {
        FirstPassFacts f = new FirstPassFacts(stepName);
        // Nothing here is placed in epoch time during the pass: the clocks it fits serve the end.
        new KernelPass(Clocks.unfitted()).add(Scope.ALL, f).add(Scope.ALL, f.stepFinder).run(reader);
        f.finish(reader);
        return f;
    }

    @Override
    public void kernel(Kernel k) {
        kernels++;
        if (k.fromGraph()) {
            graphKernels++;
        }
        windowFinder.work(k.pid(), k.startNs(), k.endNs());
    }

    @Override
    public void memcpy(int pid, MemcpyEvent memcpy) {
        memcpys++;
        windowFinder.work(pid, memcpy.start(), memcpy.end());
    }

    @Override
    public void memset(int pid, MemsetEvent memset) {
        memsets++;
        windowFinder.work(pid, memset.start(), memset.end());
    }

    @Override
    public void api(int pid, ApiEvent api) {
        apis++;
    }

    @Override
    public void device(int pid, DeviceProperties d) {
        String key = d.uuid() != null && !d.uuid().isEmpty() ? d.uuid() : pid + ":" + d.id();
        devices.put(key, d.name() == null ? "(unnamed GPU)" : d.name());
    }

    @Override
    public void marker(int pid, MarkerEvent m) {
        markers++;
    }

    @Override
    public void range(int pid, RangeEvent e) {
        windowFinder.range(pid, e);
    }

    private void finish(CaptureReader reader) {
        clocks = Clocks.of(reader);
        all = stepFinder.finish(clocks);
        for (int pid : all.pids()) {
            int first = all.first(pid), n = all.count(pid);
            int[] corrMin = null;
            if (all.placedByLaunch(pid)) {
                corrMin = new int[n];
                Arrays.fill(corrMin, Integer.MAX_VALUE);
                // The kernels' own rule says which step launched what; read it back per step.
                for (int corr : launchesOf(pid)) {
                    int s = all.stepOf(pid, Long.MIN_VALUE, corr);
                    if (s >= 0) {
                        corrMin[s - first] = Math.min(corrMin[s - first], corr);
                    }
                }
            }
            steps.put(pid, new Steps(corrMin));
        }
        window = windowFinder.choose(reader.window().orElse(null), clocks);
        for (ProcessInfo p : reader.processes()) {
            if (p.worldSize() != null) {
                worldSize = worldSize == null ? p.worldSize() : Math.max(worldSize, p.worldSize());
            }
            if (p.rank() != null) {
                ranks.add(p.rank());
            }
            if (p.cuptiVersion() != 0) {
                cuptiVersions.add(p.cuptiVersion());
            }
        }
    }

    private int[] launchesOf(int pid) {
        return all.launches(pid);
    }

    /** The record kinds the capture holds, as words. */
    List<String> kinds() {
        List<String> k = new ArrayList<>();
        if (kernels > 0) k.add("kernel");
        if (memcpys > 0) k.add("memcpy");
        if (memsets > 0) k.add("memset");
        if (markers > 0) k.add("nvtx");
        if (apis > 0) k.add("runtime");
        return k;
    }
}
