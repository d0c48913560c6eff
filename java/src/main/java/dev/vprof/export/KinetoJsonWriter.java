package dev.vprof.export;

import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuOpKind;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.trace.TorchTraceImport;
import dev.vprof.timeline.TimelineSource;
import dev.vprof.timeline.TimelineVisitor;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes one process of a {@link TimelineSource} in the shape of the PyTorch profiler's (Kineto's) trace,
 * so that Holistic Trace Analysis and the PyTorch tooling read vprof captures:
 *
 * <ul>
 *   <li>top level: {@code schemaVersion}, {@code distributedInfo} (this process's rank and the
 *       capture's world size, {@link KinetoRanks}), {@code deviceProperties} (Kineto's field names,
 *       from the capture's DEVICE records), {@code displayTimeUnit}, {@code baseTimeNanoseconds},
 *       {@code traceEvents}, {@code traceName};
 *   <li>GPU work as {@code X} events with pid = device ordinal, tid = stream, categories
 *       {@code kernel}, {@code gpu_memcpy}, {@code gpu_memset}, names in Kineto's form
 *       ({@code Memcpy HtoD (Pinned -> Device)}) and args {@code device}, {@code stream},
 *       {@code correlation}, {@code grid}, {@code block} ...;
 *   <li>host API calls as {@code cuda_runtime} / {@code cuda_driver} with {@code correlation} and
 *       {@code cbid}; NVTX ranges as {@code user_annotation}; with {@code --steps}, one
 *       {@code ProfilerStep#N} {@code user_annotation} per step ({@link ProfilerSteps});
 *   <li>{@code ac2g} flows from each launch to its GPU op.
 * </ul>
 *
 * <p>The header is written in the text form of PyTorch's writer ({@code "rank": 0}, a space after
 * each colon): HTA finds a file's rank by scanning its text for {@code "rank": N}, and a compact
 * {@code "rank":0} is not found (every file then counts as rank 0 and only the last one read is
 * kept). {@code distributedInfo} comes first, so a reader of the first lines finds it; strings are
 * escaped JSON, so no name can hold the pattern.
 *
 * <p>{@code ts} is microseconds (three decimals) after {@code baseTimeNanoseconds}, as Kineto
 * writes it. Kineto links GPU work to the PyTorch operator that caused it through
 * {@code External id}; vprof records no operators, so it sets {@code External id} to the CUPTI
 * correlation id on both ends of a launch, which keeps HTA's launch/kernel pairing intact.
 *
 * <p>HTA reads one trace file per rank; {@link KinetoFiles} writes one file per process, all of
 * them in one walk ({@code ProcessFile}: header and metadata first, the events as they come, the
 * steps and the end last).
 */
public final class KinetoJsonWriter {

    /** What a write produced. */
    public record Stats(long bytes, long events) {}

    /**
     * Writes {@code process} of {@code source} as the rank {@code rank}, with a ProfilerStep annotation
     * per step: a walk of its own (several processes at once: {@link KinetoFiles}).
     */
    public Stats write(TimelineSource source, TimelineProcess process, KinetoRanks.Rank rank, List<ProfilerSteps.Step> steps,
                       String traceName, OutputStream out) throws IOException {
        ProcessFile file = new ProcessFile(source.layout(), process, rank, out);
        source.walk(new TimelineVisitor() {
            @Override
            public void gpuOp(GpuStream stream, GpuOp op) throws IOException {
                if (stream.device().process() == process) {
                    file.gpuOp(stream, op);
                }
            }

            @Override
            public void apiCall(CpuThread thread, ApiCall call) throws IOException {
                if (thread.process() == process) {
                    file.apiCall(thread, call);
                }
            }

            @Override
            public void range(CpuThread thread, int nameId, long startNs, long endNs, int domainId) throws IOException {
                if (thread.process() == process) {
                    file.range(thread, nameId, startNs, endNs, domainId);
                }
            }
        });
        return file.finish(steps, traceName);
    }

    /**
     * One process's file as a walk goes: the header and every metadata event when opened, events as
     * they come, steps and the end when finished.
     */
    // Written once per GPU op: as bytes, not converted from text each time.
    private static final byte[] EXTERNAL_ID = JsonOut.ascii("\"External id\":");
    private static final byte[] DEVICE = JsonOut.ascii("\"device\":");
    private static final byte[] STREAM = JsonOut.ascii(",\"stream\":");
    private static final byte[] CORRELATION = JsonOut.ascii(",\"correlation\":");
    private static final byte[] REGISTERS = JsonOut.ascii(",\"registers per thread\":");
    private static final byte[] SHARED_MEMORY = JsonOut.ascii(",\"shared memory\":");

    static final class ProcessFile {
        private final JsonOut json;
        private final TraceEvents ev;
        private final Correlations corr;
        private final int pid;

        ProcessFile(Timeline timeline, TimelineProcess process, KinetoRanks.Rank rank, OutputStream out) throws IOException {
            this.json = new JsonOut(out);
            this.pid = process.pid();
            long earliest = timeline.earliestNs();
            long base = earliest == Long.MAX_VALUE ? 0 : earliest;
            json.raw("{\n  \"schemaVersion\": 1,\n  \"distributedInfo\": {\"backend\": \"\", \"rank\": ");
            json.number(rank.rank());
            json.raw(", \"world_size\": ");
            json.number(rank.worldSize());
            json.raw("},\n  \"deviceProperties\": [");
            List<GpuDevice> devices = new ArrayList<>(process.devices());
            devices.sort(Comparator.comparingInt(GpuDevice::deviceId));
            for (int i = 0; i < devices.size(); i++) {
                json.raw(i == 0 ? "\n    " : ",\n    ");
                writeDeviceProperties(json, devices.get(i));
            }
            json.raw("\n  ],\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
            json.number(base);
            json.raw(",\n  \"traceEvents\": [");

            this.ev = new TraceEvents(json, base, timeline, true, "ac2g");
            ev.metadata("process_name", pid, 0, "name", process.name().isEmpty() ? "pid " + pid : process.name());
            ev.metadata("process_labels", pid, 0, "labels", "CPU");
            for (GpuDevice d : devices) {
                if (d.streams().isEmpty()) {
                    continue; // a DEVICE record of a GPU this process ran nothing on: in deviceProperties only
                }
                ev.metadata("process_name", d.deviceId(), 0, "name", "GPU " + d.deviceId());
                ev.metadata("process_labels", d.deviceId(), 0, "labels", "GPU " + d.deviceId() + (d.name().isEmpty() ? "" : " " + d.name()));
            }
            this.corr = new Correlations(process, 0);
            for (GpuDevice d : process.devices()) {
                for (GpuStream st : d.streams()) {
                    ev.metadata("thread_name", d.deviceId(), st.streamId(), "name", "stream " + st.streamId());
                }
            }
            for (CpuThread t : process.threads()) {
                ev.metadata("thread_name", pid, t.tid(), "name", t.name().isEmpty() ? "thread " + t.tid() : t.name());
            }
        }

        void range(CpuThread t, int nameId, long startNs, long endNs, int domainId) throws IOException {
            // A PyTorch trace's CPU ops read back as CPU ops, not annotations (docs/pytorch-traces.md).
            String domain = domainId == 0 ? null : ev.text(domainId);
            String cat = TorchTraceImport.DOMAIN_CPU_OP.equals(domain) ? "cpu_op"
                    : TorchTraceImport.DOMAIN_PYTHON.equals(domain) ? "python_function"
                    : TorchTraceImport.DOMAIN_GPU_ANNOTATION.equals(domain) ? "gpu_user_annotation" : "user_annotation";
            ev.complete(ev.name(nameId), cat, pid, t.tid(), startNs, endNs);
            json.raw("}}");
        }

        void apiCall(CpuThread t, ApiCall call) throws IOException {
            String cat = call.kind() == ApiKind.DRIVER ? "cuda_driver" : "cuda_runtime";
            long c = call.correlationId();
            boolean linked = c != 0 && corr.apiCallHasGpuOp(c);
            ev.complete(ev.name(call.nameId()), cat, pid, t.tid(), call.start(), call.end());
            if (linked) {
                json.raw("\"External id\":");
                json.number(c);
                json.raw(',');
            }
            json.raw("\"cbid\":");
            json.number(call.callbackId());
            json.raw(",\"correlation\":");
            json.number(c);
            json.raw("}}");
            if (linked) {
                ev.flow('s', c, pid, t.tid(), call.start());
            }
        }

        void gpuOp(GpuStream s, GpuOp op) throws IOException {
            int device = s.device().deviceId();
            GpuOpKind kind = op.kind();
            long c = op.correlationId();
            boolean linked = c != 0 && corr.gpuOpHasLaunch(c);
            ev.complete(ev.name(op), TraceEvents.category(kind), device, s.streamId(), op.start(), op.end());
            if (linked) {
                json.raw(EXTERNAL_ID);
                json.number(c);
                json.raw(',');
            }
            json.raw(DEVICE);
            json.number(device);
            json.raw(STREAM);
            json.number(s.streamId());
            json.raw(CORRELATION);
            json.number(c);
            if (kind == GpuOpKind.KERNEL) {
                json.raw(REGISTERS);
                json.number(op.registersPerThread());
                json.raw(SHARED_MEMORY);
                json.number(op.sharedMemoryBytes());
                ev.gridAndBlock(op);
                json.raw("}}");
            } else {
                long dur = op.end() - op.start();
                json.raw(",\"bytes\":");
                json.number(op.bytes());
                json.raw(",\"memory bandwidth (GB/s)\":");
                // bytes per ns is GB/s.
                json.number(dur > 0 ? (double) op.bytes() / dur : 0.0);
                json.raw("}}");
            }
            if (linked) {
                ev.flow('f', c, device, s.streamId(), op.start());
            }
        }

        /** The steps, then the end of the file (flushed, not closed). */
        Stats finish(List<ProfilerSteps.Step> steps, String traceName) throws IOException {
            for (ProfilerSteps.Step step : steps) {
                ev.complete(JsonOut.quoted(step.name()), "user_annotation", pid, step.tid(), step.startNs(), step.endNs());
                json.raw("}}");
            }
            json.raw("\n  ],\n  \"traceName\": ");
            json.string(traceName);
            json.raw("\n}\n");
            json.flush();
            return new Stats(json.bytes(), ev.count);
        }
    }

    /**
     * One entry of {@code deviceProperties} with Kineto's field names and spacing; what the capture
     * did not record (a file without DEVICE records, fields CUPTI's device record lacks such as
     * {@code sharedMemPerBlockOptin}) is left out rather than written as 0.
     */
    private static void writeDeviceProperties(JsonOut json, GpuDevice d) throws IOException {
        json.raw("{\"id\": ");
        json.number(d.deviceId());
        if (!d.name().isEmpty()) {
            json.raw(", \"name\": ");
            json.string(d.name());
        }
        field(json, "totalGlobalMem", d.totalGlobalMemBytes());
        if (d.computeMajor() > 0) {
            field(json, "computeMajor", d.computeMajor());
            json.raw(", \"computeMinor\": ");
            json.number(d.computeMinor());
        }
        GpuDevice.Limits l = d.limits();
        field(json, "maxThreadsPerBlock", l.maxThreadsPerBlock());
        field(json, "maxThreadsPerMultiprocessor", l.maxThreadsPerMultiprocessor());
        field(json, "regsPerBlock", l.regsPerBlock());
        field(json, "warpSize", l.warpSize());
        field(json, "sharedMemPerBlock", l.sharedMemPerBlock());
        field(json, "numSms", d.numSms());
        field(json, "regsPerMultiprocessor", l.regsPerMultiprocessor());
        field(json, "sharedMemPerMultiprocessor", l.sharedMemPerMultiprocessor());
        json.raw("}");
    }

    /** {@code , "name": value} when the value was recorded (non-zero). */
    private static void field(JsonOut json, String name, long value) throws IOException {
        if (value > 0) {
            json.raw(", \"");
            json.raw(name);
            json.raw("\": ");
            json.number(value);
        }
    }
}
