package dev.vprof.trace;

import dev.vprof.adapt.ApiNames;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ArgsCodec;
import dev.vprof.capture.CopyKindNames;
import dev.vprof.capture.KernelShape;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The middle stage of reading a trace: each Kineto event ({@link KinetoEvent}) into the vprof
 * event it is (a kernel, a copy, a set, a CUDA call, a CPU op, an annotation), with its times on
 * the trace's clock, its device, stream and thread, and the fields a ring record cannot give back
 * (for the ARGS record before it), handed to the {@link TraceRecordWriter}; and the top level into
 * the process's facts. It counts what it leaves out. docs/pytorch-traces.md is the mapping.
 *
 * <p>What the records hold must come back exactly from the Kineto export, so a field is left out
 * of the ARGS only when its record holds it exactly: {@link #KERNEL_HELD}, {@link #COPY_HELD} and
 * {@link #API_HELD} are the args that {@code export.KinetoJsonWriter} writes from the records.
 */
final class EventMapper implements TraceTokenizer.Handler {
    /** Devices read from {@code deviceProperties}. */
    static final int MAX_DEVICES = 1024;
    /** Unknown API names listed by name (the rest are counted). */
    static final int NAMES_LISTED = 8;

    /** A kernel's args that its KERNEL and KERNEL_DESC records hold. */
    static final int KERNEL_HELD = bits(KinetoEvent.Arg.DEVICE, KinetoEvent.Arg.CONTEXT, KinetoEvent.Arg.STREAM,
            KinetoEvent.Arg.CORRELATION, KinetoEvent.Arg.REGISTERS, KinetoEvent.Arg.SHARED_MEMORY,
            KinetoEvent.Arg.GRID, KinetoEvent.Arg.BLOCK);
    /** A copy's or a set's args that its MEMCPY or MEMSET record holds. */
    static final int COPY_HELD = bits(KinetoEvent.Arg.DEVICE, KinetoEvent.Arg.CONTEXT, KinetoEvent.Arg.STREAM,
            KinetoEvent.Arg.CORRELATION, KinetoEvent.Arg.BYTES);
    /** A CUDA call's args that its API record holds. */
    static final int API_HELD = bits(KinetoEvent.Arg.CBID, KinetoEvent.Arg.CORRELATION);

    private static int bits(KinetoEvent.Arg... args) {
        int b = 0;
        for (KinetoEvent.Arg a : args) {
            b |= a.bit();
        }
        return b;
    }

    private final TraceFileReader.Parsed out;
    private final TorchTraceOptions options;
    private final TraceRecordWriter w;
    private final IntSeen apiCorrelations = new IntSeen();
    private long lastStartNs = Long.MIN_VALUE;
    private long lastDevice = Long.MIN_VALUE;
    private final ArgsCodec.Encoder extras = new ArgsCodec.Encoder();
    /** The context each stream was first seen with (device << 32 | stream): the one the export writes for it. */
    private final Map<Long, Long> streamContexts = new HashMap<>();
    private long lastStreamKey = Long.MIN_VALUE;
    private long lastStreamContext;
    private int keyArgs;

    EventMapper(TraceFileReader.Parsed out, TorchTraceOptions options, TraceRecordWriter writer) {
        this.out = out;
        this.options = options;
        this.w = writer;
    }

    @Override
    public int key(String key) throws IOException {
        return w.intern(key);
    }

    @Override
    public int headKey(String key) throws IOException {
        return w.headKey(key);
    }

    @Override
    public int valueId(char[] c, int off, int len) throws IOException {
        return w.internValue(c, off, len);
    }

    @Override
    public boolean mayKeep(KinetoEvent e) {
        TraceCategory k = e.kind;
        return !(e.ph != 0 && e.ph != 'X') && k != TraceCategory.OTHER
                && !((k == TraceCategory.CPU_OP || k == TraceCategory.PYTHON) && !options.cpuOps());
    }

    @Override
    public void event(KinetoEvent e) throws IOException {
        if (e.ph == 'M') {
            if ("process_name".equals(e.name) && e.argName != null && out.command == null) {
                out.command = e.argName;
            }
            if ("process_labels".equals(e.name) && "CPU".equals(e.argLabels) && e.pidIsInt && out.osPid == null) {
                out.osPid = (int) e.pid;
            }
            if ("thread_name".equals(e.name) && e.argName != null && e.pidIsInt) {
                Map<Integer, String> names = out.threadNames.computeIfAbsent(e.pid, k -> new HashMap<>());
                if (names.size() < MAX_THREAD_NAMES || names.containsKey(tid(e))) {
                    names.put(tid(e), threadName(e.argName));
                }
            }
            return;
        }
        TraceCategory kind = e.kind;
        if (kind == null || kind == TraceCategory.OTHER) {
            out.otherEvents++;
            return;
        }
        out.pytorchEvents++;
        if (e.ph != 'X') {
            out.otherEvents++;
            return;
        }
        if (!e.hasTs || !e.hasDur) {
            out.missingTimes++;
            return;
        }
        if (e.dur < 0) {
            out.negativeDurations++;
            return;
        }
        long start = e.ts;
        long end = Math.addExact(e.ts, e.dur);
        out.minNs = Math.min(out.minNs, start);
        out.maxNs = Math.max(out.maxNs, end);
        if (kind.gpu) {
            if (start < lastStartNs) {
                out.outOfOrder++;
            }
            lastStartNs = Math.max(lastStartNs, start);
        } else if (e.pidIsInt && out.osPid == null && kind != TraceCategory.PYTHON) {
            out.osPid = (int) e.pid;
        }
        if (e.fieldsLost) {
            out.fieldsLost++;
        }
        String name = e.name == null ? "" : e.name;
        switch (kind) {
            case KERNEL -> kernel(e, name, start, end);
            case MEMCPY -> memcpy(e, name, start, end);
            case MEMSET -> memset(e, name, start, end);
            case RUNTIME -> api(e, name, start, end, VprofRing.API_RUNTIME);
            case DRIVER -> api(e, name, start, end, VprofRing.API_DRIVER);
            case ANNOTATION -> {
                out.annotations++;
                int nameId = w.intern(name);
                int len = extras(e, 0, !w.lastCut(), cpuPidKept(e), cpuTidKept(e));
                w.range(nameId, 0, start, end, tid(e), extras.buffer(), len);
            }
            case GPU_ANNOTATION -> {
                out.annotations++;
                int nameId = w.intern(name);
                boolean nameKept = !w.lastCut();
                int domainId = w.intern(TorchTraceImport.DOMAIN_GPU_ANNOTATION);
                long stream = stream(e);
                int len = extras(e, 0, nameKept, cpuPidKept(e), e.tidIsInt && e.tid == stream);
                w.range(nameId, domainId, start, end, (int) stream, extras.buffer(), len);
            }
            case CPU_OP, PYTHON -> {
                if (!options.cpuOps()) {
                    out.cpuSkipped++;
                    return;
                }
                out.cpuOps++;
                int nameId = w.intern(name);
                int len = extras(e, 0, !w.lastCut(), cpuPidKept(e), cpuTidKept(e));
                w.cpuOp(nameId, start, end, tid(e), kind == TraceCategory.CPU_OP ? VprofRing.CPU_OP_OPERATOR
                        : VprofRing.CPU_OP_PYTHON, extras.buffer(), len);
            }
            default -> { }
        }
    }

    /** A host event's pid is the process's: the export writes it back so. */
    private boolean cpuPidKept(KinetoEvent e) {
        return !e.pidIsInt || (out.osPid != null && e.pid == out.osPid);
    }

    /** A host event's integer tid the export writes back as a 32-bit Kineto tid. */
    private static boolean cpuTidKept(KinetoEvent e) {
        return e.tidIsInt ? e.tid == (int) e.tid : e.tidText == null;
    }

    /** A GPU event's pid and tid are its device and stream: the export writes them back so. */
    private boolean gpuPidKept(KinetoEvent e) {
        return !e.pidIsInt || e.pid == device(e);
    }

    private boolean gpuTidKept(KinetoEvent e) {
        return e.tidIsInt ? e.tid == stream(e) : e.tidText == null;
    }

    /**
     * The fields of {@code e} the records will not give back, into {@link #extras}: its length, or 0
     * when there are none. {@code held} are the args its record holds exactly.
     */
    private int extras(KinetoEvent e, int held, boolean nameKept, boolean pidKept, boolean tidKept) throws IOException {
        ArgsCodec.Encoder x = extras;
        x.reset();
        x.beginObject();
        int fields = 0;
        if (!e.catCanonical) {
            x.key(w.intern("cat"));
            x.string(e.kind.old);
            fields++;
        }
        if (!nameKept && e.name != null) {
            x.key(w.intern("name"));
            x.string(e.name);
            fields++;
        }
        if (!pidKept && e.pidIsInt) {
            x.key(w.intern("pid"));
            x.integer(e.pid);
            fields++;
        }
        if (!tidKept && (e.tidIsInt || e.tidText != null)) {
            x.key(w.intern("tid"));
            if (e.tidIsInt) {
                x.integer(e.tid);
            } else {
                x.string(e.tidText);
            }
            fields++;
        }
        if (e.tsText != null) {
            x.key(w.intern("ts"));
            x.number(e.tsText);
            fields++;
        }
        if (e.durText != null) {
            x.key(w.intern("dur"));
            x.number(e.durText);
            fields++;
        }
        if (e.others > 0) {
            x.append(e.other.buffer(), 0, e.other.length());
            fields += e.others;
        }
        // The args read exactly into the event that its record does not hold after all: from the event.
        int fromEvent = e.exact & ~held;
        if (e.spans > 0 || fromEvent != 0) {
            if (keyArgs == 0) {
                keyArgs = w.intern("args");
            }
            x.key(keyArgs);
            x.beginObject();
            x.append(e.args.buffer(), 0, e.args.length());
            if (fromEvent != 0) {
                for (KinetoEvent.Arg a : KinetoEvent.Arg.values()) {
                    if ((fromEvent & a.bit()) != 0) {
                        x.key(w.intern(a.key));
                        encode(x, e, a);
                    }
                }
            }
            x.end();
            fields++;
        }
        x.end();
        if (x.overflowed()) {
            out.fieldsLost++;
            return 0;
        }
        if (fields > 0) {
            out.argsKept++;
        }
        return fields == 0 ? 0 : x.length();
    }

    /** An arg the tokenizer read exactly into {@code e} (an integer, or grid and block's three). */
    private static void encode(ArgsCodec.Encoder x, KinetoEvent e, KinetoEvent.Arg a) {
        switch (a) {
            case DEVICE -> x.integer(e.device);
            case STREAM -> x.integer(e.stream);
            case CORRELATION -> x.integer(e.correlation);
            case CONTEXT -> x.integer(e.context);
            case CBID -> x.integer(e.cbid);
            case BYTES -> x.integer(e.bytes);
            case REGISTERS -> x.integer(e.registers);
            case SHARED_MEMORY -> x.integer(e.sharedMemory);
            case GRID, BLOCK -> {
                long[] v = a == KinetoEvent.Arg.GRID ? e.grid : e.block;
                x.beginArray();
                x.integer(v[0]);
                x.integer(v[1]);
                x.integer(v[2]);
                x.end();
            }
            default -> throw new IllegalArgumentException("not read exactly: " + a);
        }
    }

    /** The args of a GPU event its record holds exactly, given the stream's context as the export writes it. */
    private int gpuHeld(KinetoEvent e, int kindHeld, long device, long stream) {
        int held = kindHeld & e.exact;
        if ((held & KinetoEvent.Arg.CONTEXT.bit()) != 0 && firstContext(device, stream, e.context) != e.context) {
            held &= ~KinetoEvent.Arg.CONTEXT.bit();
        }
        if (e.device < 0) {
            held &= ~KinetoEvent.Arg.DEVICE.bit(); // none given: the record's device is the pid's
        }
        return held;
    }

    /** The context stream {@code stream} of {@code device} was first seen with (the first one stays). */
    private long firstContext(long device, long stream, long context) {
        long key = device << 32 | (stream & 0xFFFFFFFFL);
        if (key == lastStreamKey) {
            return lastStreamContext;
        }
        Long first = streamContexts.putIfAbsent(key, Math.max(context, 0));
        lastStreamKey = key;
        lastStreamContext = first != null ? first : Math.max(context, 0);
        return lastStreamContext;
    }

    /** Thread names kept per process (a trace names each thread it has events of, once or twice). */
    static final int MAX_THREAD_NAMES = 4096;

    /**
     * The thread's own name from Kineto's {@code "thread 1262 (pt_autograd_0)"}: what is in the
     * parentheses, the name the thread had in the OS; any other form whole.
     */
    static String threadName(String kineto) {
        int open = kineto.indexOf(" (");
        if (kineto.startsWith("thread ") && open > 0 && kineto.endsWith(")")) {
            return kineto.substring(open + 2, kineto.length() - 1);
        }
        return kineto;
    }

    /** The thread: an integer {@code tid}, else the number ending a text one, else a hash of it. */
    static int tid(KinetoEvent e) {
        if (e.tidIsInt) {
            return (int) e.tid;
        }
        return e.tidText == null ? 0 : trailingNumber(e.tidText, e.tidText.hashCode() & 0x7fffffff);
    }

    /** The GPU stream: {@code args.stream}, else an old trace's {@code tid: "stream 7"}. */
    static long stream(KinetoEvent e) {
        if (e.stream >= 0) {
            return e.stream;
        }
        if (e.tidIsInt) {
            return e.tid;
        }
        return e.tidText == null ? 0 : trailingNumber(e.tidText, 0);
    }

    static long device(KinetoEvent e) {
        if (e.device >= 0) {
            return e.device;
        }
        return e.pidIsInt ? e.pid : 0;
    }

    private static int trailingNumber(String s, int otherwise) {
        int i = s.length();
        while (i > 0 && Character.isDigit(s.charAt(i - 1))) {
            i--;
        }
        if (i == s.length() || s.length() - i > 9) {
            return otherwise;
        }
        return Integer.parseInt(s.substring(i));
    }

    private void noteDevice(long device) {
        if (device == lastDevice) {
            return; // the common case, every kernel of one GPU: no String per kernel
        }
        lastDevice = device;
        String d = Long.toString(device);
        if (out.devicesSeen.size() < MAX_DEVICES && !out.devicesSeen.contains(d)) {
            out.devicesSeen.add(d);
        }
    }

    private void kernel(KinetoEvent e, String name, long start, long end) throws IOException {
        out.kernels++;
        int nameId = w.intern(name);
        boolean nameKept = !w.lastCut();
        long device = device(e);
        long stream = stream(e);
        noteDevice(device);
        KernelShape shape = new KernelShape(nameId, (int) device,
                (int) Math.max(e.context, 0), (int) stream, (int) e.grid[0], (int) e.grid[1], (int) e.grid[2],
                (int) e.block[0], (int) e.block[1], (int) e.block[2], (int) e.sharedMemory, (int) e.registers,
                (int) e.graphId, e.graphNodeId);
        int len = extras(e, gpuHeld(e, KERNEL_HELD, device, stream), nameKept, gpuPidKept(e), gpuTidKept(e));
        w.kernel(shape, start, end, (int) Math.max(e.correlation, 0), extras.buffer(), len);
    }

    private void memcpy(KinetoEvent e, String name, long start, long end) throws IOException {
        out.memcpys++;
        long device = device(e);
        long stream = stream(e);
        noteDevice(device);
        int copyKind = CopyKindNames.copyKind(name);
        int src = CopyKindNames.memoryKind(name, true);
        int dst = CopyKindNames.memoryKind(name, false);
        boolean nameKept = name.equals(CopyKindNames.memcpy(copyKind, src, dst));
        int len = extras(e, gpuHeld(e, COPY_HELD, device, stream), nameKept, gpuPidKept(e), gpuTidKept(e));
        w.memcpy(start, end, Math.max(e.bytes, 0), (int) Math.max(e.correlation, 0), (int) device,
                (int) Math.max(e.context, 0), (int) stream, copyKind, src, dst, extras.buffer(), len);
    }

    private void memset(KinetoEvent e, String name, long start, long end) throws IOException {
        out.memsets++;
        long device = device(e);
        long stream = stream(e);
        noteDevice(device);
        int len = extras(e, gpuHeld(e, COPY_HELD, device, stream), name.equals(CopyKindNames.MEMSET), gpuPidKept(e),
                gpuTidKept(e));
        w.memset(start, end, Math.max(e.bytes, 0), (int) Math.max(e.correlation, 0), (int) device,
                (int) Math.max(e.context, 0), (int) stream, extras.buffer(), len);
    }

    /**
     * A CUDA call: {@code args.cbid}, else the callback id CUPTI gives its name. A name CUPTI does
     * not number (or numbers otherwise) is kept as the call's name in its ARGS, with callback id 0.
     */
    private void api(KinetoEvent e, String name, long start, long end, int domain) throws IOException {
        if (name.startsWith("hip")) {
            out.rocm = true;
            out.hipApiCalls++;
            return;
        }
        int cbid = (int) e.cbid;
        if (e.cbid < 0 || e.cbid > Integer.MAX_VALUE) {
            cbid = ApiNames.cbid(domain, name);
            if (cbid < 0) {
                out.namedApiCalls++;
                if (out.namedApiNames.size() < NAMES_LISTED) {
                    out.namedApiNames.add(name.length() > 80 ? name.substring(0, 80) + "..." : name);
                }
                cbid = 0;
            }
        }
        int correlation = (int) Math.max(e.correlation, 0);
        if (correlation != 0 && apiCorrelations.add(correlation)) {
            out.duplicateCorrelations++;
        }
        out.correlationCheckFull = apiCorrelations.full();
        out.apiCalls++;
        int held = API_HELD & e.exact;
        boolean nameKept = name.equals(ApiNames.name(domain, cbid));
        int len = extras(e, held, nameKept, cpuPidKept(e), cpuTidKept(e));
        w.api(start, end, correlation, cbid, domain, tid(e), extras.buffer(), len);
    }

    /** The top level into the facts, then the records that come first: its fields, the devices, the clock pairs. */
    void finish(TraceTokenizer.Top top) throws IOException {
        Map<String, Object> f = top.fields();
        if (f.get("distributedInfo") instanceof Map<?, ?> d) {
            out.rank = intOrNull(d.get("rank"));
            out.worldSize = intOrNull(d.get("world_size"));
            out.backend = d.get("backend") instanceof String b ? b : null;
        }
        out.baseNs = f.get("baseTimeNanoseconds") instanceof Long l ? l : null;
        out.cuptiVersion = f.get("cupti_version") instanceof Long l ? l : 0;
        out.cudaRuntimeVersion = f.get("cuda_runtime_version") instanceof Long l ? l : null;
        out.cudaDriverVersion = f.get("cuda_driver_version") instanceof Long l ? l : null;
        out.displayTimeUnit = f.get("displayTimeUnit") instanceof String s ? s : null;
        out.hostName = f.get("host_name") instanceof String s ? s : null;
        out.topFieldsLost = top.lost();
        if (top.encoded().length > 2) { // more than an empty object
            w.args(w.head, 0, top.encoded(), top.encoded().length);
        }
        if (f.get("deviceProperties") instanceof List<?> devices) {
            int n = 0;
            for (Object o : devices) {
                if (++n > MAX_DEVICES || !(o instanceof Map<?, ?> d) || !(d.get("id") instanceof Long id)
                        || id != id.intValue()) {
                    continue;
                }
                String devName = d.get("name") instanceof String s ? s : "";
                if (devName.startsWith("AMD")) {
                    out.rocm = true;
                }
                int warp = intOr(d, "warpSize", 32);
                w.device(new TraceRecordWriter.DeviceProps(id.intValue(), devName, longOr(d, "totalGlobalMem"),
                        intOr(d, "numSms", 0), intOr(d, "computeMajor", 0), intOr(d, "computeMinor", 0), warp,
                        intOr(d, "maxThreadsPerBlock", 0),
                        warp > 0 ? intOr(d, "maxThreadsPerMultiprocessor", 0) / warp : 0,
                        d.containsKey("sharedMemPerMultiprocessor") ? intOr(d, "sharedMemPerMultiprocessor", 0)
                                : intOr(d, "maxSharedMemoryPerMultiProcessor", 0),
                        intOr(d, "sharedMemPerBlock", 0), intOr(d, "regsPerMultiprocessor", 0),
                        intOr(d, "regsPerBlock", 0)));
            }
        }
        if (out.minNs != Long.MAX_VALUE) {
            long base = out.baseOrZero();
            w.identityClock(Math.addExact(out.minNs, base));
            w.identityClock(Math.addExact(out.maxNs, base));
        }
    }

    private static Integer intOrNull(Object o) {
        return o instanceof Long l && l == l.intValue() ? l.intValue() : null;
    }

    private static int intOr(Map<?, ?> m, String key, int otherwise) {
        return m.get(key) instanceof Long l && l == l.intValue() ? l.intValue() : otherwise;
    }

    private static long longOr(Map<?, ?> m, String key) {
        return m.get(key) instanceof Long l ? l : 0;
    }
}
