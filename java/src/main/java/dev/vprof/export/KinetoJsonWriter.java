package dev.vprof.export;

import dev.vprof.capture.EventArgs;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuOpKind;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ThreadSliceKind;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.timeline.TimelineSource;
import dev.vprof.timeline.TimelineVisitor;
import dev.vprof.trace.TorchTraceImport;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 *       ({@code Memcpy HtoD (Pinned -> Device)}) and args {@code device}, {@code context},
 *       {@code stream}, {@code correlation}, {@code grid}, {@code block} ...;
 *   <li>host API calls as {@code cuda_runtime} / {@code cuda_driver} with {@code correlation} and
 *       {@code cbid}; NVTX ranges as {@code user_annotation}; a trace's CPU ops as {@code cpu_op}
 *       and {@code python_function}; with {@code --steps}, one {@code ProfilerStep#N}
 *       {@code user_annotation} per step ({@link ProfilerSteps});
 *   <li>{@code ac2g} flows from each launch to its GPU op.
 * </ul>
 *
 * <p><b>A trace read back.</b> What a PyTorch profiler trace held that no record holds comes back
 * as it was: the process's top-level fields ({@link TimelineProcess#sourceFields()}:
 * {@code distributedInfo} with its backend, {@code deviceProperties} as the trace wrote them, the
 * versions, {@code baseTimeNanoseconds} or its absence, {@code traceName}...) and each event's
 * ({@link dev.vprof.timeline.SliceView#args()}): the args beyond those the records hold
 * ({@code External id}, {@code queued}, {@code blocks per SM}, occupancy, a CPU op's inputs...),
 * and any field the records cannot give back as it was (a name, pid or tid). A kept arg wins over
 * the one this writer would make of the records, so no key is written twice. The trace reader keeps
 * exactly the args this writer does not write from the records (its {@code EventMapper}).
 *
 * <p>The header is written in the text form of PyTorch's writer ({@code "rank": 0}, a space after
 * each colon): HTA finds a file's rank by scanning its text for {@code "rank": N}, and a compact
 * {@code "rank":0} is not found (every file then counts as rank 0 and only the last one read is
 * kept). {@code distributedInfo} comes first, so a reader of the first lines finds it; strings are
 * escaped JSON, so no name can hold the pattern.
 *
 * <p>{@code ts} is microseconds (three decimals) after {@code baseTimeNanoseconds}, as Kineto
 * writes it. Kineto links GPU work to the PyTorch operator that caused it through
 * {@code External id}; where the capture kept none (an agent's), it sets {@code External id} to
 * the CUPTI correlation id on both ends of a launch, which keeps HTA's launch/kernel pairing intact.
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
            public boolean wantsEventArgs() {
                return true;
            }

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
            public void threadSlice(CpuThread thread, ThreadSliceKind kind, int nameId, long startNs, long endNs,
                                    int domainId, EventArgs args) throws IOException {
                if (thread.process() == process) {
                    file.threadSlice(thread, kind, nameId, startNs, endNs, domainId, args);
                }
            }
        });
        return file.finish(steps, traceName);
    }

    // Written once per GPU op: as bytes, not converted from text each time.
    private static final byte[] EXTERNAL_ID = JsonOut.ascii("\"External id\":");
    private static final byte[] DEVICE = JsonOut.ascii("\"device\":");
    private static final byte[] CONTEXT = JsonOut.ascii("\"context\":");
    private static final byte[] STREAM = JsonOut.ascii("\"stream\":");
    private static final byte[] CORRELATION = JsonOut.ascii("\"correlation\":");
    private static final byte[] CBID = JsonOut.ascii("\"cbid\":");
    private static final byte[] REGISTERS = JsonOut.ascii("\"registers per thread\":");
    private static final byte[] SHARED_MEMORY = JsonOut.ascii("\"shared memory\":");
    private static final byte[] GRID = JsonOut.ascii("\"grid\":[");
    private static final byte[] BLOCK = JsonOut.ascii("\"block\":[");
    private static final byte[] BYTES = JsonOut.ascii("\"bytes\":");
    private static final byte[] BANDWIDTH = JsonOut.ascii("\"memory bandwidth (GB/s)\":");

    /** The top-level fields this writer writes itself, from the records or from the kept ones. */
    private static final Set<String> OWN_TOP = Set.of("schemaVersion", "distributedInfo", "deviceProperties",
            "displayTimeUnit", "baseTimeNanoseconds", "traceEvents", "traceName");
    /** An event's fields this writer writes itself; a kept one of these replaces its own. */
    private static final Set<String> OWN_EVENT = Set.of("ph", "cat", "name", "pid", "tid", "ts", "dur", "args");

    /**
     * One process's file as a walk goes: the header and every metadata event when opened, events as
     * they come, steps and the end when finished.
     */
    static final class ProcessFile {
        private final JsonOut json;
        private final TraceEvents ev;
        private final Correlations corr;
        /** The pid of the process's host events: its own, or the one its trace had. */
        private final long pid;
        /** The kept top-level fields of the source (empty for an agent's process). */
        private final Map<String, Object> top;
        /** The kept args of the event being written (null: none), and whether no arg is written yet. */
        private Map<String, Object> kept;
        private boolean firstArg;

        ProcessFile(Timeline timeline, TimelineProcess process, KinetoRanks.Rank rank, OutputStream out) throws IOException {
            this.json = new JsonOut(out);
            this.pid = process.sourcePid();
            EventArgs source = process.sourceFields();
            this.top = source == null ? Map.of() : source.fields();
            long base;
            if (source != null) {
                // A trace's own time base, or none: its ts are then epoch µs, and are written back so.
                base = top.get("baseTimeNanoseconds") instanceof Long b ? b : 0;
            } else {
                long earliest = timeline.earliestNs();
                base = earliest == Long.MAX_VALUE ? 0 : earliest;
            }
            writeHeader(process, rank, source == null || top.containsKey("baseTimeNanoseconds"), base);

            this.ev = new TraceEvents(json, base, timeline, true, "ac2g");
            ev.metadata("process_name", pid, 0, "name", process.name().isEmpty() ? "pid " + pid : process.name());
            ev.metadata("process_labels", pid, 0, "labels", "CPU");
            for (GpuDevice d : devices(process)) {
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
                ev.metadata("thread_name", pid, tid(t), "name", t.name().isEmpty() ? "thread " + t.tid() : t.name());
            }
        }

        private static List<GpuDevice> devices(TimelineProcess process) {
            List<GpuDevice> devices = new ArrayList<>(process.devices());
            devices.sort(Comparator.comparingInt(GpuDevice::deviceId));
            return devices;
        }

        /** The top level up to the events: a trace's own fields where it had them, else from the records. */
        private void writeHeader(TimelineProcess process, KinetoRanks.Rank rank, boolean writeBase, long base)
                throws IOException {
            json.raw("{\n  \"schemaVersion\": ");
            json.value(top.getOrDefault("schemaVersion", 1L));
            Map<?, ?> dist = top.get("distributedInfo") instanceof Map<?, ?> m ? m : Map.of();
            json.raw(",\n  \"distributedInfo\": {\"backend\": ");
            json.value(dist.get("backend") instanceof String b ? b : "");
            json.raw(", \"rank\": ");
            json.number(rank.rank());
            json.raw(", \"world_size\": ");
            json.number(rank.worldSize());
            for (Map.Entry<?, ?> e : dist.entrySet()) {
                String k = String.valueOf(e.getKey());
                if (!k.equals("backend") && !k.equals("rank") && !k.equals("world_size")) {
                    json.raw(", ");
                    json.string(k);
                    json.raw(": ");
                    json.value(e.getValue());
                }
            }
            json.raw("},\n  \"deviceProperties\": ");
            if (top.containsKey("deviceProperties")) {
                json.value(top.get("deviceProperties"));
            } else {
                json.raw('[');
                List<GpuDevice> devices = devices(process);
                for (int i = 0; i < devices.size(); i++) {
                    json.raw(i == 0 ? "\n    " : ",\n    ");
                    writeDeviceProperties(json, devices.get(i));
                }
                json.raw("\n  ]");
            }
            json.raw(",\n  \"displayTimeUnit\": ");
            json.value(top.getOrDefault("displayTimeUnit", "ms"));
            if (writeBase) {
                json.raw(",\n  \"baseTimeNanoseconds\": ");
                json.number(base);
            }
            others(top, OWN_TOP, ",\n  ", ": ");
            json.raw(",\n  \"traceEvents\": [");
        }

        /** A host thread's tid as Kineto writes it: a signed 32-bit number. */
        private static long tid(CpuThread t) {
            return (int) t.tid();
        }

        /**
         * Opens an X event up to its args and writes its kept args: its own fields where the source
         * kept them ({@code fields}), else from the records. The caller writes its args through
         * {@link #arg} and closes with "}}".
         */
        private void open(EventArgs fields, byte[] quotedName, byte[] cat, long evPid, long tid, long start, long end)
                throws IOException {
            firstArg = true;
            if (fields == null) {
                kept = null;
                ev.complete(quotedName, cat, evPid, tid, start, end);
                return;
            }
            Map<String, Object> f = fields.fields();
            Map<String, Object> a = fields.args();
            kept = a.isEmpty() ? null : a;
            if (f.size() == (f.containsKey("args") ? 1 : 0)) {
                ev.complete(quotedName, cat, evPid, tid, start, end);
            } else {
                ev.next();
                json.raw("{\"ph\":\"X\"");
                field(f, "cat", () -> {
                    json.raw('"');
                    json.raw(cat);
                    json.raw('"');
                });
                field(f, "name", () -> json.raw(quotedName));
                field(f, "pid", () -> json.number(evPid));
                field(f, "tid", () -> json.number(tid));
                field(f, "ts", () -> json.micros(start - ev.base));
                field(f, "dur", () -> json.micros(end - start));
                others(f, OWN_EVENT, ",", ":");
                json.raw(",\"args\":{");
            }
            if (kept != null) {
                for (Map.Entry<String, Object> e : kept.entrySet()) {
                    if (!firstArg) {
                        json.raw(',');
                    }
                    firstArg = false;
                    json.string(e.getKey());
                    json.raw(':');
                    json.value(e.getValue());
                }
            }
        }

        /** The source's kept fields that vprof does not write itself, each as {@code sep "key" colon value}. */
        private void others(Map<String, Object> kept, Set<String> written, String sep, String colon)
                throws IOException {
            for (Map.Entry<String, Object> e : kept.entrySet()) {
                if (!written.contains(e.getKey())) {
                    json.raw(sep);
                    json.string(e.getKey());
                    json.raw(colon);
                    json.value(e.getValue());
                }
            }
        }

        /** Writes vprof's value of a field when the trace's event had none of its own. */
        @FunctionalInterface
        private interface Value {
            void write() throws IOException;
        }

        /** The field {@code ,"key":} with the event's own value of {@code key} if it kept one, else {@code ours}. */
        private void field(Map<String, Object> own, String key, Value ours) throws IOException {
            json.raw(',');
            json.string(key);
            json.raw(':');
            if (own.containsKey(key)) {
                json.value(own.get(key));
            } else {
                ours.write();
            }
        }

        /** Starts the arg {@code key} (its quoted key and colon), unless the event kept its own: false then. */
        private boolean arg(byte[] quotedKeyColon, String key) throws IOException {
            if (kept != null && kept.containsKey(key)) {
                return false;
            }
            if (!firstArg) {
                json.raw(',');
            }
            firstArg = false;
            json.raw(quotedKeyColon);
            return true;
        }

        private static final byte[] USER_ANNOTATION = JsonOut.ascii("user_annotation");
        private static final byte[] GPU_USER_ANNOTATION = JsonOut.ascii("gpu_user_annotation");
        private static final byte[] CPU_OP = JsonOut.ascii("cpu_op");
        private static final byte[] PYTHON_FUNCTION = JsonOut.ascii("python_function");
        private static final byte[] CUDA_RUNTIME = JsonOut.ascii("cuda_runtime");
        private static final byte[] CUDA_DRIVER = JsonOut.ascii("cuda_driver");

        /** A range or a CPU op; a trace's GPU annotation goes back to its category, on the CPU thread numbered as its stream. */
        void threadSlice(CpuThread t, ThreadSliceKind kind, int nameId, long startNs, long endNs, int domainId,
                         EventArgs args) throws IOException {
            byte[] cat = switch (kind) {
                case CPU_OP -> CPU_OP;
                case PYTHON_FUNCTION -> PYTHON_FUNCTION;
                case NVTX_RANGE -> domainId != 0 && TorchTraceImport.DOMAIN_GPU_ANNOTATION.equals(ev.text(domainId))
                        ? GPU_USER_ANNOTATION : USER_ANNOTATION;
            };
            open(args, ev.name(nameId), cat, pid, tid(t), startNs, endNs);
            json.raw("}}");
        }

        void apiCall(CpuThread t, ApiCall call) throws IOException {
            long c = call.correlationId();
            boolean linked = c != 0 && corr.apiCallHasGpuOp(c);
            long tid = tid(t);
            open(call.args(), ev.name(call.nameId()), call.kind() == ApiKind.DRIVER ? CUDA_DRIVER : CUDA_RUNTIME, pid,
                    tid, call.start(), call.end());
            if (linked && arg(EXTERNAL_ID, "External id")) {
                json.number(c);
            }
            if (arg(CBID, "cbid")) {
                json.number(call.callbackId());
            }
            if (arg(CORRELATION, "correlation")) {
                json.number(c);
            }
            json.raw("}}");
            if (linked) {
                ev.flow('s', c, pid, tid, call.start());
            }
        }

        void gpuOp(GpuStream s, GpuOp op) throws IOException {
            int device = s.device().deviceId();
            GpuOpKind kind = op.kind();
            long c = op.correlationId();
            boolean linked = c != 0 && corr.gpuOpHasLaunch(c);
            open(op.args(), ev.name(op), TraceEvents.category(kind), device, s.streamId(), op.start(), op.end());
            if (linked && arg(EXTERNAL_ID, "External id")) {
                json.number(c);
            }
            if (arg(DEVICE, "device")) {
                json.number(device);
            }
            if (s.contextId() >= 0 && arg(CONTEXT, "context")) {
                json.number(s.contextId());
            }
            if (arg(STREAM, "stream")) {
                json.number(s.streamId());
            }
            if (arg(CORRELATION, "correlation")) {
                json.number(c);
            }
            if (kind == GpuOpKind.KERNEL) {
                if (arg(REGISTERS, "registers per thread")) {
                    json.number(op.registersPerThread());
                }
                if (arg(SHARED_MEMORY, "shared memory")) {
                    json.number(op.sharedMemoryBytes());
                }
                if (arg(GRID, "grid")) {
                    triple(op.gridX(), op.gridY(), op.gridZ());
                }
                if (arg(BLOCK, "block")) {
                    triple(op.blockX(), op.blockY(), op.blockZ());
                }
            } else {
                if (arg(BYTES, "bytes")) {
                    json.number(op.bytes());
                }
                if (arg(BANDWIDTH, "memory bandwidth (GB/s)")) {
                    long dur = op.end() - op.start();
                    json.number(dur > 0 ? (double) op.bytes() / dur : 0.0); // bytes per ns is GB/s
                }
            }
            json.raw("}}");
            if (linked) {
                ev.flow('f', c, device, s.streamId(), op.start());
            }
        }

        private void triple(long x, long y, long z) throws IOException {
            json.number(x);
            json.raw(',');
            json.number(y);
            json.raw(',');
            json.number(z);
            json.raw(']');
        }

        /** The steps, then the end of the file (flushed, not closed). */
        Stats finish(List<ProfilerSteps.Step> steps, String traceName) throws IOException {
            for (ProfilerSteps.Step step : steps) {
                ev.complete(JsonOut.quoted(step.name()), "user_annotation", pid, step.tid(), step.startNs(), step.endNs());
                json.raw("}}");
            }
            json.raw("\n  ],\n  \"traceName\": ");
            json.value(top.get("traceName") instanceof String n ? n : traceName);
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
