package dev.vprof.trace;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.ClockSync;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.KernelShape;
import dev.vprof.capture.RecordEncoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The last stage of reading a trace: vprof events into ring records (vprof_ring.h), spilled
 * ({@link RecordSpill}): names and kernel shapes interned as STRING and KERNEL_DESC records
 * before their first use, an event's kept fields as ARGS records just before its own record, and
 * the records that must come first (the top level's fields, devices, clock pairs) apart, in
 * {@link #head}. It knows the records, nothing of JSON; {@link RecordEncoder} lays each one out.
 */
final class TraceRecordWriter {
    /** Distinct name bytes interned per file: a real trace has a few MB; past this it is not one. */
    static final long MAX_NAME_BYTES = 64L << 20;
    /** Bytes of an ARGS piece: what a record of {@code VPROF_RECORD_MAX} leaves after its header. */
    static final int ARGS_PIECE = RecordEncoder.ARGS_PIECE;

    private final Path file;
    final RecordSpill records;
    final RecordSpill head;
    private final Map<String, Integer> strings = new HashMap<>();
    private final Map<String, Integer> headStrings = new HashMap<>();
    private final Set<String> cutNames = new HashSet<>();
    private long stringBytes;
    private int nextStringId = 1;
    private final Map<KernelShape, Integer> descs = new HashMap<>();
    private int nextDescId = 1;
    private int nextMarkerId = 1;
    /** Whether the last {@link #intern} cut its name to {@code VPROF_STRING_MAX} bytes. */
    private boolean lastCut;
    long namesCut;
    long longestName;
    long argsRecords;

    TraceRecordWriter(Path file, Path spillDir) {
        this.file = file;
        this.records = new RecordSpill(spillDir);
        this.head = new RecordSpill(spillDir);
    }

    /** The STRING id of {@code value}, written before its first use; a name past STRING_MAX bytes is cut. */
    int intern(String value) throws IOException {
        Integer id = strings.get(value);
        if (id != null) {
            lastCut = !cutNames.isEmpty() && cutNames.contains(value);
            return id;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        lastCut = bytes.length > VprofRing.STRING_MAX;
        if (lastCut) {
            cutNames.add(value);
            namesCut++;
            longestName = Math.max(longestName, bytes.length);
            bytes = RecordEncoder.fitString(bytes);
        }
        stringBytes += value.length();
        if (stringBytes > MAX_NAME_BYTES) {
            throw new CaptureFormatException(file + " holds more than " + MAX_NAME_BYTES
                    + " bytes of distinct names; it is not a trace vprof reads");
        }
        id = nextStringId++;
        // A cut name is interned under its whole text, so every event of it finds the same id.
        strings.put(value, id);
        RecordEncoder.string(records, id, bytes);
        return id;
    }

    /** String values kept in STRING records of their own: at most this many per file (the rest are written inline). */
    static final int MAX_SHARED_VALUES = 1 << 16;
    private final NameTable values = new NameTable((long) MAX_SHARED_VALUES * TraceTokenizer.MAX_SHARED_VALUE);
    private int sharedValues;

    /**
     * The STRING id of a short string value of an event's fields (chars {@code c[off, off+len)}),
     * interned on first use while fewer than {@link #MAX_SHARED_VALUES} are; 0: write it inline.
     * Bounded, so the decoder's interning budget is never the one a trace exhausts.
     */
    int internValue(char[] c, int off, int len) throws IOException {
        String v = values.of(c, off, len);
        int known = values.lastId();
        if (known != 0) {
            return known; // the common case: found from the chars, no hashing of a String
        }
        Integer id = strings.get(v);
        if (id == null) {
            if (sharedValues >= MAX_SHARED_VALUES) {
                return 0;
            }
            sharedValues++;
            id = intern(v);
        }
        values.lastId(id);
        return id;
    }

    /** Whether the name the last {@link #intern} took is cut (to VPROF_STRING_MAX bytes) in its STRING. */
    boolean lastCut() {
        return lastCut;
    }

    /** The STRING id of a key of the top-level fields, in the records that come first. */
    int headKey(String key) throws IOException {
        Integer id = headStrings.get(key);
        if (id == null) {
            id = nextStringId++;
            headStrings.put(key, id);
            RecordEncoder.string(head, id, RecordEncoder.fitString(key.getBytes(StandardCharsets.UTF_8)));
        }
        return id;
    }

    /**
     * An ARGS object of {@code len} bytes for the record of type {@code target} that follows (0:
     * the process), in pieces of at most {@link #ARGS_PIECE} bytes; {@code len} 0 writes nothing.
     */
    void args(RecordSpill s, int target, byte[] bytes, int len) throws IOException {
        argsRecords += RecordEncoder.args(s, target, bytes, len);
    }

    /** The kept fields of the next event (none when {@code len} is 0). */
    private void argsFor(int target, byte[] bytes, int len) throws IOException {
        if (len > 0) {
            args(records, target, bytes, len);
        }
    }

    void kernel(KernelShape shape, long start, long end, int correlation, byte[] args, int argsLen) throws IOException {
        Integer descId = descs.get(shape);
        if (descId == null) {
            descId = nextDescId++;
            descs.put(shape, descId);
            RecordEncoder.kernelDesc(records, descId, shape);
        }
        argsFor(VprofRing.REC_KERNEL, args, argsLen);
        RecordEncoder.kernel(records, start, end, correlation, descId);
    }

    void memcpy(long start, long end, long bytes, int correlation, int device, int context, int stream,
                int copyKind, int srcKind, int dstKind, byte[] args, int argsLen) throws IOException {
        argsFor(VprofRing.REC_MEMCPY, args, argsLen);
        // flags bit 0, asynchronous (vprof_ring.h): as this reader has always marked a trace's copies
        RecordEncoder.memcpy(records, start, end, bytes, correlation, device, context, stream, copyKind, srcKind,
                dstKind, 1);
    }

    void memset(long start, long end, long bytes, int correlation, int device, int context, int stream,
                byte[] args, int argsLen) throws IOException {
        argsFor(VprofRing.REC_MEMSET, args, argsLen);
        RecordEncoder.memset(records, start, end, bytes, correlation, device, context, stream, 0);
    }

    void api(long start, long end, int correlation, int cbid, int domain, int tid, byte[] args, int argsLen)
            throws IOException {
        argsFor(VprofRing.REC_API, args, argsLen);
        RecordEncoder.api(records, start, end, correlation, cbid, domain, tid);
    }

    void cpuOp(int nameId, long start, long end, int tid, int kind, byte[] args, int argsLen) throws IOException {
        argsFor(VprofRing.REC_CPU_OP, args, argsLen);
        RecordEncoder.cpuOp(records, start, end, nameId, tid, kind);
    }

    /** A slice on a thread as an NVTX-like range: START with its name (after its ARGS), END, sharing an id. */
    void range(int nameId, int domainId, long start, long end, int tid, byte[] args, int argsLen) throws IOException {
        int id = nextMarkerId++;
        argsFor(VprofRing.REC_MARKER, args, argsLen);
        RecordEncoder.marker(records, start, id, VprofRing.MARKER_START, nameId, domainId, tid);
        RecordEncoder.marker(records, end, id, VprofRing.MARKER_END, 0, domainId, tid);
    }

    /** One GPU's properties, as a DEVICE record at the head (its name a STRING of its own there). */
    void device(DeviceProps d) throws IOException {
        int nameId = nextStringId++;
        RecordEncoder.string(head, nameId, RecordEncoder.fitString(d.name().getBytes(StandardCharsets.UTF_8)));
        RecordEncoder.device(head, new DeviceProperties(d.id(), d.name(), d.globalMemory(), 0, d.sms(),
                d.computeMajor(), d.computeMinor(), 0, 0, d.warpSize(), d.maxThreadsPerBlock(), d.maxWarpsPerSm(), 0,
                d.sharedMemoryPerSm(), d.sharedMemoryPerBlock(), d.registersPerSm(), d.registersPerBlock(), false,
                false, null), nameId);
    }

    /** What a DEVICE record holds of a {@code deviceProperties} entry. */
    record DeviceProps(int id, String name, long globalMemory, int sms, int computeMajor, int computeMinor,
                       int warpSize, int maxThreadsPerBlock, int maxWarpsPerSm, int sharedMemoryPerSm,
                       int sharedMemoryPerBlock, int registersPerSm, int registersPerBlock) {}

    /** A clock pair whose CUPTI time is CLOCK_REALTIME: a trace's times are epoch ns already. */
    void identityClock(long t) throws IOException {
        RecordEncoder.clockSync(head, new ClockSync(t, t, t, 0));
    }
}
