package dev.vprof.trace;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.adapt.ApiNames;
import dev.vprof.bindings.VprofRing.ApiRecord;
import dev.vprof.bindings.VprofRing.ClockSyncRecord;
import dev.vprof.bindings.VprofRing.DeviceRecord;
import dev.vprof.bindings.VprofRing.KernelDescRecord;
import dev.vprof.bindings.VprofRing.KernelRecord;
import dev.vprof.bindings.VprofRing.MarkerRecord;
import dev.vprof.bindings.VprofRing.MemcpyRecord;
import dev.vprof.bindings.VprofRing.MemsetRecord;
import dev.vprof.bindings.VprofRing.StringRecord;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.ProcessInfo;
import java.io.BufferedInputStream;
import java.io.CharConversionException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads one PyTorch profiler (Kineto) trace file with Jackson's streaming parser into ring
 * records ({@link RecordSpill}) and the facts of its process. The mapping, and what is dropped,
 * is docs/pytorch-traces.md. Every bound is checked as the bytes come: the decompressed size
 * ({@link TorchTraceOptions#maxBytes}), the longest string token, the distinct names held.
 */
final class TraceFileReader {
    /** The longest string token read at all: a longer one (a name of more than this) ends the read. */
    static final int MAX_TOKEN_CHARS = 32 << 20;
    /** Distinct name bytes interned per file: a real trace has a few MB; past this it is not one. */
    static final long MAX_NAME_BYTES = 64L << 20;
    /** Devices read from {@code deviceProperties}. */
    static final int MAX_DEVICES = 1024;
    /** Unknown API names listed by name in the warning (the rest are counted). */
    private static final int NAMES_LISTED = 8;

    static final String DOMAIN_CPU_OP = TorchTraceImport.DOMAIN_CPU_OP;
    static final String DOMAIN_PYTHON = TorchTraceImport.DOMAIN_PYTHON;
    static final String DOMAIN_GPU_ANNOTATION = TorchTraceImport.DOMAIN_GPU_ANNOTATION;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_TOKEN_CHARS).build())
            .build();
    private static final ObjectMapper TREE = new ObjectMapper(FACTORY);

    /** What one file held: its records (spilled) and the facts for its PROCESS chunk. */
    static final class Parsed implements AutoCloseable {
        final Path file;
        final RecordSpill records;
        final RecordSpill head;
        Integer rank;
        Integer worldSize;
        String backend;
        Integer osPid;
        String command;
        String hostName;
        Long baseNs;
        long cuptiVersion;
        Long cudaRuntimeVersion;
        Long cudaDriverVersion;
        String displayTimeUnit;
        boolean fractionalTimes;
        long minNs = Long.MAX_VALUE;
        long maxNs = Long.MIN_VALUE;
        long kernels;
        long memcpys;
        long memsets;
        long apiCalls;
        long annotations;
        long cpuSlices;
        long cpuSkipped;
        long namesCut;
        long longestName;
        long negativeDurations;
        long missingTimes;
        long duplicateCorrelations;
        boolean correlationCheckFull;
        long outOfOrder;
        long hipApiCalls;
        long unknownApiCalls;
        final Set<String> unknownApiNames = new LinkedHashSet<>();
        /** Events of categories that are not PyTorch's (flows, spans), and PyTorch events that are not complete slices. */
        long otherEvents;
        long pytorchEvents;
        long jsonBytes;
        final List<String> devicesSeen = new ArrayList<>();
        boolean rocm;
        /** {@code thread_name} metadata by pid, then tid: the last name a thread was given. */
        final Map<Long, Map<Integer, String>> threadNames = new HashMap<>();

        Parsed(Path file, Path spillDir) {
            this.file = file;
            this.records = new RecordSpill(spillDir);
            this.head = new RecordSpill(spillDir);
        }

        long baseOrZero() {
            return baseNs == null ? 0 : baseNs;
        }

        /** Named warnings about what this file held, one sentence each. */
        List<String> warnings() {
            List<String> w = new ArrayList<>();
            String f = file.getFileName().toString();
            if (namesCut > 0) {
                w.add(f + ": " + namesCut + " names longer than " + VprofRing.STRING_MAX
                        + " bytes were cut to that length (the longest had " + longestName + " bytes)");
            }
            if (negativeDurations > 0) {
                w.add(f + ": " + negativeDurations + " events with a negative duration were left out");
            }
            if (missingTimes > 0) {
                w.add(f + ": " + missingTimes + " complete events without ts or dur were left out");
            }
            if (duplicateCorrelations > 0) {
                w.add(f + ": " + duplicateCorrelations + " CUDA API calls repeat a correlation id of an earlier "
                        + "call; their launch-to-kernel links are ambiguous");
            }
            if (unknownApiCalls > 0) {
                w.add(f + ": " + unknownApiCalls + " CUDA API calls have neither a cbid nor a name vprof knows ("
                        + String.join(", ", unknownApiNames) + (unknownApiCalls > unknownApiNames.size() ? ", ..." : "")
                        + "); they are kept as calls with callback id 0");
            }
            if (hipApiCalls > 0) {
                w.add(f + ": a ROCm (HIP) trace: its kernels, copies and annotations are read, its " + hipApiCalls
                        + " HIP API calls are not (they have no CUDA callback id)");
            }
            if (baseNs == null && minNs != Long.MAX_VALUE && minNs < 946_684_800_000_000_000L) {
                w.add(f + ": the trace has no baseTimeNanoseconds and its times are not wall-clock times; "
                        + "its timeline starts near 1970");
            }
            return w;
        }

        @Override
        public void close() throws IOException {
            try {
                records.close();
            } finally {
                head.close();
            }
        }
    }

    private final Parsed out;
    private final TorchTraceOptions options;
    private final NameTable names = new NameTable();
    private final Map<String, Integer> strings = new HashMap<>();
    private long stringBytes;
    private int nextStringId = 1;
    private final Map<DescKey, Integer> descs = new HashMap<>();
    private int nextDescId = 1;
    private int nextMarkerId = 1;
    private final IntSeen apiCorrelations = new IntSeen();
    private long lastStartNs = Long.MIN_VALUE;
    private long lastDevice = Long.MIN_VALUE;
    private JsonNode deviceProperties;

    private record DescKey(int nameId, int device, int context, int stream, int gx, int gy, int gz, int bx, int by,
                           int bz, int smem, int regs, int graphId, long graphNode) {}

    private TraceFileReader(Parsed out, TorchTraceOptions options) {
        this.out = out;
        this.options = options;
    }

    /** Reads {@code file}; the caller closes the result. Errors are one sentence naming the file. */
    static Parsed read(Path file, TorchTraceOptions options, Path spillDir) throws IOException {
        Parsed parsed = new Parsed(file, spillDir);
        try {
            try {
                new TraceFileReader(parsed, options).readFile();
            } catch (ArithmeticException e) {
                throw new CaptureFormatException(file + " has times outside what 64-bit ns hold; "
                        + "it is not a trace vprof reads");
            }
            return parsed;
        } catch (IOException | RuntimeException e) {
            parsed.close();
            throw e;
        }
    }

    private void readFile() throws IOException {
        Path file = out.file;
        try (InputStream raw = Files.newInputStream(file)) {
            BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
            in.mark(2);
            int b0 = in.read();
            int b1 = in.read();
            in.reset();
            InputStream json = (b0 == 0x1f && b1 == 0x8b) ? new GZIPInputStream(in, 1 << 16) : in;
            BoundedInputStream bounded = new BoundedInputStream(json, options.maxBytes());
            try (JsonParser p = FACTORY.createParser(bounded)) {
                readTop(p);
            } finally {
                out.jsonBytes = bounded.count();
            }
        } catch (BoundedInputStream.LimitException e) {
            throw new CaptureFormatException(file + " holds more than " + options.maxBytes()
                    + " bytes of JSON (--max-bytes); raise --max-bytes if the trace is really that large");
        } catch (StreamConstraintsException e) {
            throw new CaptureFormatException(file + " has a JSON token over the reader's bounds ("
                    + firstLine(e.getOriginalMessage()) + "); it is not a trace vprof reads");
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new CaptureFormatException(file + " is not valid JSON" + where + " ("
                    + firstLine(e.getOriginalMessage()) + "); check that the file is whole");
        } catch (CharConversionException e) {
            // Jackson guesses UTF-16/32 from zero bytes at the start; a PyTorch trace is UTF-8, so
            // such a file is not one, and the decoder's complaint is about bytes, not JSON.
            throw new CaptureFormatException(file + " is not UTF-8 JSON text (" + firstLine(e.getMessage())
                    + "); it is not a trace vprof reads");
        } catch (EOFException | ZipException e) {
            throw new CaptureFormatException(file + " is cut short or damaged (gzip: "
                    + firstLine(e.getMessage()) + "); copy the trace again");
        }
        if (out.pytorchEvents == 0) {
            throw new CaptureFormatException(file + " holds no PyTorch profiler events (no kernel, cpu_op, "
                    + "cuda_runtime or user_annotation event): it is not a PyTorch profiler trace");
        }
        finishHead();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "no detail";
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    private void readTop(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.START_ARRAY) {
            throw new CaptureFormatException(out.file + " is a JSON array of trace events (Chrome's array form), "
                    + "not a PyTorch profiler trace (an object with traceEvents)");
        }
        if (t != JsonToken.START_OBJECT) {
            throw new CaptureFormatException(out.file + " is not a PyTorch profiler trace (it does not start with a "
                    + "JSON object)");
        }
        boolean sawEvents = false;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            t = p.nextToken();
            switch (field) {
                case "traceEvents" -> {
                    if (t != JsonToken.START_ARRAY) {
                        throw new CaptureFormatException(out.file + ": traceEvents is not an array");
                    }
                    sawEvents = true;
                    readEvents(p);
                }
                case "deviceProperties" -> {
                    if (t == JsonToken.START_ARRAY) {
                        deviceProperties = TREE.readTree(p);
                    } else {
                        p.skipChildren();
                    }
                }
                case "distributedInfo" -> {
                    if (t == JsonToken.START_OBJECT) {
                        JsonNode d = TREE.readTree(p);
                        out.rank = intOrNull(d.get("rank"));
                        out.worldSize = intOrNull(d.get("world_size"));
                        JsonNode backend = d.get("backend");
                        out.backend = backend != null && backend.isTextual() ? backend.asText() : null;
                    } else {
                        p.skipChildren();
                    }
                }
                case "baseTimeNanoseconds" -> out.baseNs = t.isNumeric() ? p.getValueAsLong(0) : null;
                case "cupti_version" -> out.cuptiVersion = t.isNumeric() ? p.getValueAsLong(0) : 0;
                case "cuda_runtime_version" -> out.cudaRuntimeVersion = t.isNumeric() ? p.getValueAsLong(0) : null;
                case "cuda_driver_version" -> out.cudaDriverVersion = t.isNumeric() ? p.getValueAsLong(0) : null;
                case "displayTimeUnit" -> out.displayTimeUnit = t == JsonToken.VALUE_STRING ? p.getText() : null;
                case "host_name" -> out.hostName = t == JsonToken.VALUE_STRING ? p.getText() : null;
                default -> p.skipChildren();
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new CaptureFormatException(out.file + " is not a PyTorch profiler trace (unexpected " + t + ")");
        }
        if (!sawEvents) {
            throw new CaptureFormatException(out.file + " has no traceEvents: it is not a PyTorch profiler trace");
        }
    }

    private static Integer intOrNull(JsonNode n) {
        return n != null && n.canConvertToInt() ? n.asInt() : null;
    }

    // ---- events -----------------------------------------------------------------------

    /** One event's fields, reused: only what the mapping needs is kept. */
    private static final class Event {
        char ph;
        Kind kind;
        String name;
        long pid;
        boolean pidIsInt;
        long tid;
        boolean tidIsInt;
        String tidText;
        long ts;
        boolean hasTs;
        long dur;
        boolean hasDur;
        long device = -1;
        long stream = -1;
        long correlation = -1;
        long context = -1;
        long cbid = -1;
        long bytes = -1;
        long registers;
        long sharedMemory;
        long graphId;
        long graphNodeId;
        final long[] grid = new long[3];
        final long[] block = new long[3];
        String argName;
        String argLabels;

        void reset() {
            ph = 0;
            kind = null;
            name = tidText = argName = argLabels = null;
            pid = tid = 0;
            pidIsInt = tidIsInt = hasTs = hasDur = false;
            ts = dur = 0;
            device = stream = correlation = context = cbid = bytes = -1;
            registers = sharedMemory = graphId = graphNodeId = 0;
            grid[0] = grid[1] = grid[2] = 0;
            block[0] = block[1] = block[2] = 0;
        }
    }

    private final Event ev = new Event();

    private void readEvents(JsonParser p) throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.START_OBJECT) {
                if (t == null) {
                    throw new EOFException("the JSON ends inside traceEvents");
                }
                p.skipChildren();
                continue;
            }
            ev.reset();
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                t = p.nextToken();
                switch (f) {
                    case "ph" -> ev.ph = t == JsonToken.VALUE_STRING && p.getTextLength() == 1
                            ? p.getTextCharacters()[p.getTextOffset()] : '?';
                    case "cat" -> ev.kind = t == JsonToken.VALUE_STRING
                            ? Kind.of(p.getTextCharacters(), p.getTextOffset(), p.getTextLength()) : Kind.OTHER;
                    case "name" -> ev.name = t == JsonToken.VALUE_STRING
                            ? names.of(p.getTextCharacters(), p.getTextOffset(), p.getTextLength()) : null;
                    case "pid" -> {
                        if (t == JsonToken.VALUE_NUMBER_INT) {
                            ev.pid = p.getLongValue();
                            ev.pidIsInt = true;
                        }
                    }
                    case "tid" -> {
                        if (t == JsonToken.VALUE_NUMBER_INT) {
                            ev.tid = p.getLongValue();
                            ev.tidIsInt = true;
                        } else if (t == JsonToken.VALUE_STRING) {
                            ev.tidText = p.getText();
                        }
                    }
                    case "ts" -> {
                        if (t.isNumeric()) {
                            ev.ts = microsToNs(p);
                            ev.hasTs = true;
                        }
                    }
                    case "dur" -> {
                        if (t.isNumeric()) {
                            ev.dur = microsToNs(p);
                            ev.hasDur = true;
                        }
                    }
                    case "args" -> {
                        if (t == JsonToken.START_OBJECT) {
                            readArgs(p);
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            if (t != JsonToken.END_OBJECT) {
                throw new EOFException("the JSON ends inside an event");
            }
            dispatch();
        }
    }

    private void readArgs(JsonParser p) throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            t = p.nextToken();
            switch (f) {
                case "device" -> ev.device = p.getValueAsLong(-1);
                case "stream" -> ev.stream = p.getValueAsLong(-1);
                case "correlation" -> ev.correlation = p.getValueAsLong(-1);
                case "context" -> ev.context = p.getValueAsLong(-1);
                case "cbid" -> ev.cbid = p.getValueAsLong(-1);
                case "bytes" -> ev.bytes = p.getValueAsLong(-1);
                case "registers per thread" -> ev.registers = p.getValueAsLong(0);
                case "shared memory" -> ev.sharedMemory = p.getValueAsLong(0);
                case "graph id" -> ev.graphId = p.getValueAsLong(0);
                case "graph node id" -> ev.graphNodeId = p.getValueAsLong(0);
                case "grid" -> readTriple(p, t, ev.grid);
                case "block" -> readTriple(p, t, ev.block);
                case "name" -> ev.argName = t == JsonToken.VALUE_STRING ? p.getText() : null;
                case "labels" -> ev.argLabels = t == JsonToken.VALUE_STRING ? p.getText() : null;
                default -> p.skipChildren();
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new EOFException("the JSON ends inside an event's args");
        }
    }

    private static void readTriple(JsonParser p, JsonToken t, long[] into) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        int i = 0;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == null) {
                throw new EOFException("the JSON ends inside an array");
            }
            if (i < 3 && t.isNumeric()) {
                into[i] = p.getValueAsLong(0);
            }
            i++;
            p.skipChildren();
        }
    }

    /**
     * A {@code ts} or {@code dur} in µs as ns, exactly from the number's text (a double cannot hold
     * an epoch µs with its ns decimals): 3 decimals are ns, a 4th rounds half up.
     */
    private long microsToNs(JsonParser p) throws IOException {
        char[] buf = p.getTextCharacters();
        int off = p.getTextOffset();
        int len = p.getTextLength();
        int end = off + len;
        int i = off;
        boolean negative = false;
        if (i < end && (buf[i] == '-' || buf[i] == '+')) {
            negative = buf[i] == '-';
            i++;
        }
        long whole = 0;
        int digits = 0;
        while (i < end && buf[i] >= '0' && buf[i] <= '9') {
            // 16 digits: an epoch in µs (Kineto's ts), whose ns still fit a long below 9.2e15 µs
            if (++digits > 16 || (digits == 16 && whole >= 922_337_203_685_477L)) {
                return slowMicrosToNs(p);
            }
            whole = whole * 10 + (buf[i] - '0');
            i++;
        }
        long frac = 0;
        int fracDigits = 0;
        boolean roundUp = false;
        if (i < end && buf[i] == '.') {
            i++;
            while (i < end && buf[i] >= '0' && buf[i] <= '9') {
                int d = buf[i] - '0';
                if (fracDigits < 3) {
                    frac = frac * 10 + d;
                    fracDigits++;
                } else if (fracDigits == 3) {
                    roundUp = d >= 5;
                    fracDigits++;
                }
                if (d != 0) {
                    out.fractionalTimes = true;
                }
                i++;
            }
        }
        if (i != end) {
            return slowMicrosToNs(p); // an exponent
        }
        int kept = Math.min(fracDigits, 3);
        for (int k = kept; k < 3; k++) {
            frac *= 10;
        }
        long ns = whole * 1000 + frac + (roundUp ? 1 : 0);
        return negative ? -ns : ns;
    }

    private long slowMicrosToNs(JsonParser p) throws IOException {
        BigDecimal us = new BigDecimal(p.getText());
        BigDecimal ns = us.movePointRight(3).setScale(0, RoundingMode.HALF_UP);
        if (us.stripTrailingZeros().scale() > 0) {
            out.fractionalTimes = true;
        }
        try {
            return ns.longValueExact();
        } catch (ArithmeticException e) {
            throw new CaptureFormatException(out.file + " has a time of " + p.getText()
                    + " µs, outside what 64-bit ns hold; it is not a trace vprof reads");
        }
    }

    private void dispatch() throws IOException {
        Event e = ev;
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
        Kind kind = e.kind;
        if (kind == null || kind == Kind.OTHER) {
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
        if (start < out.minNs) {
            out.minNs = start;
        }
        if (end > out.maxNs) {
            out.maxNs = end;
        }
        if (kind.gpu) {
            if (start < lastStartNs) {
                out.outOfOrder++;
            }
            lastStartNs = Math.max(lastStartNs, start);
        } else if (e.pidIsInt && out.osPid == null && kind != Kind.PYTHON) {
            out.osPid = (int) e.pid;
        }
        String name = e.name == null ? "" : e.name;
        switch (kind) {
            case KERNEL -> kernel(e, name, start, end);
            case MEMCPY -> memcpy(e, name, start, end);
            case MEMSET -> memset(e, start, end);
            case RUNTIME -> api(e, name, start, end, VprofRing.API_RUNTIME);
            case DRIVER -> api(e, name, start, end, VprofRing.API_DRIVER);
            case ANNOTATION -> range(name, 0, start, end, tid(e));
            case GPU_ANNOTATION -> {
                out.annotations++;
                range(name, intern(DOMAIN_GPU_ANNOTATION), start, end, (int) stream(e));
            }
            case CPU_OP, PYTHON -> {
                if (options.cpuOps()) {
                    out.cpuSlices++;
                    range(name, intern(kind == Kind.CPU_OP ? DOMAIN_CPU_OP : DOMAIN_PYTHON), start, end, tid(e));
                } else {
                    out.cpuSkipped++;
                }
            }
            default -> { }
        }
    }

    private enum Kind {
        KERNEL(true), MEMCPY(true), MEMSET(true), GPU_ANNOTATION(true), RUNTIME(false), DRIVER(false),
        ANNOTATION(false), CPU_OP(false), PYTHON(false), OTHER(false);

        final boolean gpu;

        Kind(boolean gpu) {
            this.gpu = gpu;
        }

        private static final String[] NAMES = {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset",
            "cuda_runtime", "Runtime", "cuda_driver", "Driver", "user_annotation", "User Annotation",
            "gpu_user_annotation", "cpu_op", "Operator", "python_function"};
        private static final Kind[] KINDS = new Kind[NAMES.length];

        static {
            for (int i = 0; i < NAMES.length; i++) {
                KINDS[i] = of(NAMES[i]);
            }
        }

        /** {@link #of(String)} of the characters {@code buf[off, off+len)}, allocating nothing. */
        static Kind of(char[] buf, int off, int len) {
            outer:
            for (int i = 0; i < NAMES.length; i++) {
                String k = NAMES[i];
                if (k.length() != len) {
                    continue;
                }
                for (int j = 0; j < len; j++) {
                    if (k.charAt(j) != buf[off + j]) {
                        continue outer;
                    }
                }
                return KINDS[i];
            }
            return OTHER;
        }

        /** The categories of current Kineto traces, and of the old ones ({@code "Kernel"}, {@code "Runtime"}...). */
        static Kind of(String cat) {
            return switch (cat) {
                case "kernel", "Kernel" -> KERNEL;
                case "gpu_memcpy", "Memcpy" -> MEMCPY;
                case "gpu_memset", "Memset" -> MEMSET;
                case "cuda_runtime", "Runtime" -> RUNTIME;
                case "cuda_driver", "Driver" -> DRIVER;
                case "user_annotation", "User Annotation" -> ANNOTATION;
                case "gpu_user_annotation" -> GPU_ANNOTATION;
                case "cpu_op", "Operator" -> CPU_OP;
                case "python_function" -> PYTHON;
                default -> OTHER;
            };
        }
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

    private int tid(Event e) {
        if (e.tidIsInt) {
            return (int) e.tid;
        }
        return e.tidText == null ? 0 : trailingNumber(e.tidText, e.tidText.hashCode() & 0x7fffffff);
    }

    /** The GPU stream: {@code args.stream}, else an old trace's {@code tid: "stream 7"}. */
    private long stream(Event e) {
        if (e.stream >= 0) {
            return e.stream;
        }
        if (e.tidIsInt) {
            return e.tid;
        }
        return e.tidText == null ? 0 : trailingNumber(e.tidText, 0);
    }

    private long device(Event e) {
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

    private void kernel(Event e, String name, long start, long end) throws IOException {
        out.kernels++;
        int nameId = intern(name);
        long device = device(e);
        noteDevice(device);
        DescKey key = new DescKey(nameId, (int) device, (int) Math.max(e.context, 0), (int) stream(e),
                (int) e.grid[0], (int) e.grid[1], (int) e.grid[2], (int) e.block[0], (int) e.block[1],
                (int) e.block[2], (int) e.sharedMemory, (int) e.registers, (int) e.graphId, e.graphNodeId);
        Integer descId = descs.get(key);
        if (descId == null) {
            descId = nextDescId++;
            descs.put(key, descId);
            RecordSpill s = out.records;
            long at = s.begin(KernelDescRecord.SIZE, VprofRing.REC_KERNEL_DESC);
            MemorySegment g = s.segment();
            g.set(RecordSpill.INT, at + KernelDescRecord.ID, descId);
            g.set(RecordSpill.INT, at + KernelDescRecord.NAME_ID, nameId);
            g.set(RecordSpill.INT, at + KernelDescRecord.DEVICE_ID, key.device());
            g.set(RecordSpill.INT, at + KernelDescRecord.CONTEXT_ID, key.context());
            g.set(RecordSpill.INT, at + KernelDescRecord.STREAM_ID, key.stream());
            g.set(RecordSpill.INT, at + KernelDescRecord.GRAPH_ID, key.graphId());
            g.set(RecordSpill.INT, at + KernelDescRecord.GRID_X, key.gx());
            g.set(RecordSpill.INT, at + KernelDescRecord.GRID_Y, key.gy());
            g.set(RecordSpill.INT, at + KernelDescRecord.GRID_Z, key.gz());
            g.set(RecordSpill.INT, at + KernelDescRecord.BLOCK_X, key.bx());
            g.set(RecordSpill.INT, at + KernelDescRecord.BLOCK_Y, key.by());
            g.set(RecordSpill.INT, at + KernelDescRecord.BLOCK_Z, key.bz());
            g.set(RecordSpill.INT, at + KernelDescRecord.SHARED_MEMORY, key.smem());
            g.set(RecordSpill.INT, at + KernelDescRecord.REGISTERS, key.regs());
            g.set(RecordSpill.LONG, at + KernelDescRecord.GRAPH_NODE_ID, key.graphNode());
        }
        RecordSpill s = out.records;
        long at = s.begin(KernelRecord.SIZE, VprofRing.REC_KERNEL);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + KernelRecord.START, start);
        g.set(RecordSpill.LONG, at + KernelRecord.END, end);
        g.set(RecordSpill.INT, at + KernelRecord.CORRELATION_ID, (int) Math.max(e.correlation, 0));
        g.set(RecordSpill.INT, at + KernelRecord.DESC_ID, descId);
    }

    private void memcpy(Event e, String name, long start, long end) throws IOException {
        out.memcpys++;
        long device = device(e);
        noteDevice(device);
        RecordSpill s = out.records;
        long at = s.begin(MemcpyRecord.SIZE, VprofRing.REC_MEMCPY);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + MemcpyRecord.START, start);
        g.set(RecordSpill.LONG, at + MemcpyRecord.END, end);
        g.set(RecordSpill.LONG, at + MemcpyRecord.BYTES, Math.max(e.bytes, 0));
        g.set(RecordSpill.INT, at + MemcpyRecord.CORRELATION_ID, (int) Math.max(e.correlation, 0));
        g.set(RecordSpill.INT, at + MemcpyRecord.DEVICE_ID, (int) device);
        g.set(RecordSpill.INT, at + MemcpyRecord.CONTEXT_ID, (int) Math.max(e.context, 0));
        g.set(RecordSpill.INT, at + MemcpyRecord.STREAM_ID, (int) stream(e));
        g.set(RecordSpill.BYTE, at + MemcpyRecord.COPY_KIND, (byte) CopyKinds.copyKind(name));
        g.set(RecordSpill.BYTE, at + MemcpyRecord.SRC_KIND, (byte) CopyKinds.memoryKind(name, true));
        g.set(RecordSpill.BYTE, at + MemcpyRecord.DST_KIND, (byte) CopyKinds.memoryKind(name, false));
        g.set(RecordSpill.BYTE, at + MemcpyRecord.FLAGS, (byte) 1);
    }

    private void memset(Event e, long start, long end) throws IOException {
        out.memsets++;
        long device = device(e);
        noteDevice(device);
        RecordSpill s = out.records;
        long at = s.begin(MemsetRecord.SIZE, VprofRing.REC_MEMSET);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + MemsetRecord.START, start);
        g.set(RecordSpill.LONG, at + MemsetRecord.END, end);
        g.set(RecordSpill.LONG, at + MemsetRecord.BYTES, Math.max(e.bytes, 0));
        g.set(RecordSpill.INT, at + MemsetRecord.CORRELATION_ID, (int) Math.max(e.correlation, 0));
        g.set(RecordSpill.INT, at + MemsetRecord.DEVICE_ID, (int) device);
        g.set(RecordSpill.INT, at + MemsetRecord.CONTEXT_ID, (int) Math.max(e.context, 0));
        g.set(RecordSpill.INT, at + MemsetRecord.STREAM_ID, (int) stream(e));
    }

    private void api(Event e, String name, long start, long end, long domain) throws IOException {
        if (name.startsWith("hip")) {
            out.rocm = true;
            out.hipApiCalls++;
            return;
        }
        int cbid = (int) e.cbid;
        if (e.cbid < 0) {
            cbid = ApiNames.cbid((int) domain, name);
            if (cbid < 0) {
                out.unknownApiCalls++;
                if (out.unknownApiNames.size() < NAMES_LISTED) {
                    out.unknownApiNames.add(name.length() > 80 ? name.substring(0, 80) + "..." : name);
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
        RecordSpill s = out.records;
        long at = s.begin(ApiRecord.SIZE, VprofRing.REC_API);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + ApiRecord.START, start);
        g.set(RecordSpill.LONG, at + ApiRecord.END, end);
        g.set(RecordSpill.INT, at + ApiRecord.CORRELATION_ID, correlation);
        g.set(RecordSpill.INT, at + ApiRecord.CBID, cbid);
        g.set(RecordSpill.INT, at + ApiRecord.DOMAIN, (int) domain);
        g.set(RecordSpill.INT, at + ApiRecord.TID, tid(e));
    }

    /** A slice on a thread as an NVTX-like range: START with its name, END, sharing an id. */
    private void range(String name, int domainId, long start, long end, int tid) throws IOException {
        if (domainId == 0) {
            out.annotations++;
        }
        int nameId = intern(name);
        int id = nextMarkerId++;
        RecordSpill s = out.records;
        long at = s.begin(MarkerRecord.SIZE, VprofRing.REC_MARKER);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + MarkerRecord.TIMESTAMP, start);
        g.set(RecordSpill.INT, at + MarkerRecord.ID, id);
        g.set(RecordSpill.INT, at + MarkerRecord.FLAGS, VprofRing.MARKER_START);
        g.set(RecordSpill.INT, at + MarkerRecord.NAME_ID, nameId);
        g.set(RecordSpill.INT, at + MarkerRecord.DOMAIN_ID, domainId);
        g.set(RecordSpill.INT, at + MarkerRecord.TID, tid);
        at = s.begin(MarkerRecord.SIZE, VprofRing.REC_MARKER);
        g = s.segment();
        g.set(RecordSpill.LONG, at + MarkerRecord.TIMESTAMP, end);
        g.set(RecordSpill.INT, at + MarkerRecord.ID, id);
        g.set(RecordSpill.INT, at + MarkerRecord.FLAGS, VprofRing.MARKER_END);
        g.set(RecordSpill.INT, at + MarkerRecord.DOMAIN_ID, domainId);
        g.set(RecordSpill.INT, at + MarkerRecord.TID, tid);
    }

    /** The STRING id of {@code value}, written before its first use; names past STRING_MAX bytes are cut. */
    private int intern(String value) throws IOException {
        Integer id = strings.get(value);
        if (id != null) {
            return id;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > VprofRing.STRING_MAX) {
            out.namesCut++;
            out.longestName = Math.max(out.longestName, bytes.length);
            int cut = (int) VprofRing.STRING_MAX;
            while (cut > 0 && (bytes[cut] & 0xC0) == 0x80) {
                cut--; // do not split a UTF-8 sequence
            }
            bytes = Arrays.copyOf(bytes, cut);
        }
        stringBytes += value.length();
        if (stringBytes > MAX_NAME_BYTES) {
            throw new CaptureFormatException(out.file + " holds more than " + MAX_NAME_BYTES
                    + " bytes of distinct names; it is not a trace vprof reads");
        }
        id = nextStringId++;
        // A cut name is interned under its whole text, so every event of it finds the same id.
        strings.put(value, id);
        writeString(out.records, id, bytes);
        return id;
    }

    private static void writeString(RecordSpill s, int id, byte[] bytes) throws IOException {
        long at = s.begin(StringRecord.SIZE + bytes.length, VprofRing.REC_STRING);
        MemorySegment g = s.segment();
        g.set(RecordSpill.INT, at + StringRecord.ID, id);
        g.set(RecordSpill.INT, at + StringRecord.LEN, bytes.length);
        MemorySegment.copy(bytes, 0, g, RecordSpill.BYTE, at + StringRecord.SIZE, bytes.length);
    }

    /** The records that must come before the others: devices and the clock pairs. */
    private void finishHead() throws IOException {
        RecordSpill h = out.head;
        if (deviceProperties != null && deviceProperties.isArray()) {
            int n = 0;
            for (JsonNode d : deviceProperties) {
                if (++n > MAX_DEVICES || !d.isObject() || !d.path("id").canConvertToInt()) {
                    continue;
                }
                String devName = d.path("name").asText("");
                if (devName.startsWith("AMD")) {
                    out.rocm = true;
                }
                int nameId = nextStringId++;
                byte[] nb = devName.getBytes(StandardCharsets.UTF_8);
                writeString(h, nameId, Arrays.copyOf(nb, Math.min(nb.length, (int) VprofRing.STRING_MAX)));
                long at = h.begin(DeviceRecord.SIZE, VprofRing.REC_DEVICE);
                MemorySegment g = h.segment();
                int warp = d.path("warpSize").asInt(32);
                g.set(RecordSpill.INT, at + DeviceRecord.ID, d.path("id").asInt());
                g.set(RecordSpill.INT, at + DeviceRecord.NAME_ID, nameId);
                g.set(RecordSpill.LONG, at + DeviceRecord.GLOBAL_MEMORY_BYTES, d.path("totalGlobalMem").asLong(0));
                g.set(RecordSpill.INT, at + DeviceRecord.SM_COUNT, d.path("numSms").asInt(0));
                g.set(RecordSpill.INT, at + DeviceRecord.COMPUTE_MAJOR, d.path("computeMajor").asInt(0));
                g.set(RecordSpill.INT, at + DeviceRecord.COMPUTE_MINOR, d.path("computeMinor").asInt(0));
                g.set(RecordSpill.INT, at + DeviceRecord.WARP_SIZE, warp);
                g.set(RecordSpill.INT, at + DeviceRecord.MAX_THREADS_PER_BLOCK, d.path("maxThreadsPerBlock").asInt(0));
                g.set(RecordSpill.INT, at + DeviceRecord.MAX_WARPS_PER_SM,
                        warp > 0 ? d.path("maxThreadsPerMultiprocessor").asInt(0) / warp : 0);
                g.set(RecordSpill.INT, at + DeviceRecord.MAX_SHARED_MEMORY_PER_SM,
                        d.has("sharedMemPerMultiprocessor") ? d.path("sharedMemPerMultiprocessor").asInt(0)
                                : d.path("maxSharedMemoryPerMultiProcessor").asInt(0));
                g.set(RecordSpill.INT, at + DeviceRecord.MAX_SHARED_MEMORY_PER_BLOCK, d.path("sharedMemPerBlock").asInt(0));
                g.set(RecordSpill.INT, at + DeviceRecord.MAX_REGISTERS_PER_SM, d.path("regsPerMultiprocessor").asInt(0));
                g.set(RecordSpill.INT, at + DeviceRecord.MAX_REGISTERS_PER_BLOCK, d.path("regsPerBlock").asInt(0));
            }
        }
        if (out.minNs != Long.MAX_VALUE) {
            long base = out.baseOrZero();
            long first = Math.addExact(out.minNs, base);
            long last = Math.addExact(out.maxNs, base);
            // The trace's times are already epoch ns: CUPTI time = CLOCK_REALTIME, so the clock fit is the identity.
            for (long t : new long[] {first, last}) {
                long at = h.begin(ClockSyncRecord.SIZE, VprofRing.REC_CLOCK_SYNC);
                MemorySegment g = h.segment();
                g.set(RecordSpill.LONG, at + ClockSyncRecord.CUPTI_NS, t);
                g.set(RecordSpill.LONG, at + ClockSyncRecord.REALTIME_NS, t);
                g.set(RecordSpill.LONG, at + ClockSyncRecord.MONOTONIC_NS, t);
            }
        }
    }

    /** Facts for the process's PROCESS chunk. */
    static Map<String, String> facts(Parsed p) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("source", "pytorch-profiler-trace");
        f.put("file", p.file.toString());
        f.put("timePrecision", p.fractionalTimes ? "ns" : "us");
        if (p.displayTimeUnit != null) {
            f.put("displayTimeUnit", p.displayTimeUnit);
        }
        if (p.baseNs != null) {
            f.put("baseTimeNanoseconds", Long.toString(p.baseNs));
        }
        if (p.cudaRuntimeVersion != null) {
            f.put("cudaRuntimeVersion", Long.toString(p.cudaRuntimeVersion));
        }
        if (p.cudaDriverVersion != null) {
            f.put("cudaDriverVersion", Long.toString(p.cudaDriverVersion));
        }
        if (p.cuptiVersion != 0) {
            f.put("cuptiVersion", Long.toString(p.cuptiVersion));
        }
        if (p.backend != null) {
            f.put("distributedBackend", p.backend);
        }
        if (p.hostName != null) {
            f.put("host", p.hostName);
        }
        if (p.rocm) {
            f.put("platform", "rocm");
        }
        // The host process's threads: the pid the trace labels CPU (its GPU rows name streams).
        Map<Integer, String> threads = p.osPid == null ? null : p.threadNames.get((long) p.osPid);
        if (threads != null) {
            new TreeMap<>(threads).forEach((tid, name) -> f.put(ProcessInfo.THREAD_NAME_FACT + tid, name));
        }
        return f;
    }
}
