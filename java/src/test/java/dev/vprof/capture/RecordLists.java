package dev.vprof.capture;

import java.util.ArrayList;
import java.util.List;

/** A visitor that keeps every record a reader hands it, a list per kind, for tests to look through. */
public class RecordLists implements RecordVisitor {
    /** Of each KERNEL record, in order: its process, name, start, end and description. */
    public final List<Integer> pids = new ArrayList<>();
    public final List<String> names = new ArrayList<>();
    public final List<Long> starts = new ArrayList<>();
    public final List<Long> ends = new ArrayList<>();
    public final List<KernelDesc> descs = new ArrayList<>();
    /** The KERNEL_DESC records themselves. */
    public final List<KernelDesc> kernelDescRecords = new ArrayList<>();
    public final List<MemcpyEvent> memcpys = new ArrayList<>();
    public final List<MemsetEvent> memsets = new ArrayList<>();
    public final List<MarkerEvent> markers = new ArrayList<>();
    public final List<ApiEvent> apis = new ArrayList<>();
    public final List<CpuOpEvent> cpuOps = new ArrayList<>();
    public final List<SyncEvent> syncs = new ArrayList<>();
    public final List<RangeEvent> ranges = new ArrayList<>();
    public final List<DropsEvent> drops = new ArrayList<>();
    public final List<DeviceProperties> devices = new ArrayList<>();

    @Override
    public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
        pids.add(pid);
        names.add(name);
        starts.add(start);
        ends.add(end);
        descs.add(desc);
    }

    @Override
    public void kernelDesc(int pid, KernelDesc desc) {
        kernelDescRecords.add(desc);
    }

    @Override
    public void memcpy(int pid, MemcpyEvent memcpy) {
        memcpys.add(memcpy);
    }

    @Override
    public void memset(int pid, MemsetEvent memset) {
        memsets.add(memset);
    }

    @Override
    public void marker(int pid, MarkerEvent marker) {
        markers.add(marker);
    }

    @Override
    public void api(int pid, ApiEvent api) {
        apis.add(api);
    }

    @Override
    public void cpuOp(int pid, CpuOpEvent op) {
        cpuOps.add(op);
    }

    @Override
    public void sync(int pid, SyncEvent sync) {
        syncs.add(sync);
    }

    @Override
    public void range(int pid, RangeEvent range) {
        ranges.add(range);
    }

    @Override
    public void drops(int pid, DropsEvent d) {
        drops.add(d);
    }

    @Override
    public void device(int pid, DeviceProperties device) {
        devices.add(device);
    }
}
