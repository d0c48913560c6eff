package dev.vprof.capture;

import java.util.ArrayList;
import java.util.List;

/** Writes every visited record down as a line of text, for exact comparisons in tests. */
final class CollectingVisitor implements RecordVisitor {
    final List<String> lines = new ArrayList<>();
    long kernels;
    /** What {@link #wantsKernels} says: false for a visitor like the steps' scan. */
    boolean takesKernels = true;

    @Override
    public boolean wantsKernels() {
        return takesKernels;
    }

    @Override
    public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
        kernels++;
        lines.add(pid + " kernel " + start + ".." + end + " corr=" + correlationId + " " + name
                + (desc == null ? "" : " dev=" + desc.deviceId() + " stream=" + desc.streamId()));
    }

    @Override
    public void memcpy(int pid, MemcpyEvent m) {
        lines.add(pid + " " + m);
    }

    @Override
    public void memset(int pid, MemsetEvent m) {
        lines.add(pid + " " + m);
    }

    @Override
    public void marker(int pid, MarkerEvent m) {
        lines.add(pid + " " + m);
    }

    @Override
    public void api(int pid, ApiEvent a) {
        lines.add(pid + " " + a);
    }

    @Override
    public void range(int pid, RangeEvent r) {
        lines.add(pid + " " + r);
    }

    @Override
    public void drops(int pid, DropsEvent d) {
        lines.add(pid + " " + d);
    }

    @Override
    public void clockSync(int pid, ClockSync c) {
        lines.add(pid + " " + c);
    }
}
