package dev.vprof.trace;

import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CpuOpEvent;
import dev.vprof.capture.EventArgs;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.RecordDecoder;
import dev.vprof.capture.RecordVisitor;
import java.util.ArrayList;
import java.util.List;

/** For the stage tests: the records a spill holds (all in its memory block), decoded to one line each. */
final class TraceStages {
    private TraceStages() {}

    static List<String> decode(RecordSpill spill) {
        List<String> out = new ArrayList<>();
        RecordDecoder d = new RecordDecoder(1);
        d.decode(spill.segment(), 0, spill.bytes(), new RecordVisitor() {
            @Override
            public boolean wantsEventArgs() {
                return true;
            }

            @Override
            public void eventArgs(int pid, EventArgs args) {
                out.add("args " + args.fields());
            }

            @Override
            public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                out.add("kernel " + name + " " + start + ".." + end + " corr " + correlationId + " dev " + desc.deviceId()
                        + " ctx " + desc.contextId() + " stream " + desc.streamId() + " grid " + desc.gridX());
            }

            @Override
            public void memcpy(int pid, MemcpyEvent m) {
                out.add("memcpy " + m.copyKind() + "/" + m.srcKind() + "/" + m.dstKind() + " " + m.bytes());
            }

            @Override
            public void memset(int pid, MemsetEvent m) {
                out.add("memset " + m.bytes());
            }

            @Override
            public void api(int pid, ApiEvent a) {
                out.add("api " + a.cbid() + " " + a.name() + " tid " + a.tid());
            }

            @Override
            public void cpuOp(int pid, CpuOpEvent op) {
                out.add("cpu_op " + op.name() + " kind " + op.kind() + " tid " + op.tid() + " " + op.start() + ".." + op.end());
            }

            @Override
            public void marker(int pid, MarkerEvent m) {
                out.add("marker " + m.flags() + " " + m.name() + " " + m.domain() + " tid " + m.tid());
            }

            @Override
            public void kernelDesc(int pid, KernelDesc desc) {
                out.add("desc " + desc.id());
            }
        });
        if (!d.warnings().isEmpty()) {
            out.add("warnings " + d.warnings());
        }
        return out;
    }
}
