package dev.vprof.trace;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.ApiRecord;
import dev.vprof.bindings.VprofRing.ArgsRecord;
import dev.vprof.bindings.VprofRing.ClockSyncRecord;
import dev.vprof.bindings.VprofRing.CpuOpRecord;
import dev.vprof.bindings.VprofRing.DeviceRecord;
import dev.vprof.bindings.VprofRing.KernelDescRecord;
import dev.vprof.bindings.VprofRing.KernelRecord;
import dev.vprof.bindings.VprofRing.MarkerRecord;
import dev.vprof.bindings.VprofRing.MemcpyRecord;
import dev.vprof.bindings.VprofRing.MemsetRecord;
import dev.vprof.bindings.VprofRing.StringRecord;
import dev.vprof.capture.CaptureFormatException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The last stage of reading a trace: vprof events into ring records (vprof_ring.h), spilled
 * ({@link RecordSpill}): names and kernel shapes interned as STRING and KERNEL_DESC records
 * before their first use, an event's kept fields as ARGS records just before its own record, and
 * the records that must come first (the top level's fields, devices, clock pairs) apart, in
 * {@link #head}. It knows the records, nothing of JSON.
 */
final class TraceRecordWriter {
    /** Distinct name bytes interned per file: a real trace has a few MB; past this it is not one. */
    static final long MAX_NAME_BYTES = 64L << 20;
    /** Bytes of an ARGS piece: what a record of {@code VPROF_RECORD_MAX} leaves after its header. */
    static final int ARGS_PIECE = (int) (VprofRing.RECORD_MAX - ArgsRecord.SIZE);

    private final Path file;
    final RecordSpill records;
    final RecordSpill head;
    private final Map<String, Integer> strings = new HashMap<>();
    private final Map<String, Integer> headStrings = new HashMap<>();
    private final Set<String> cutNames = new HashSet<>();
    private long stringBytes;
    private int nextStringId = 1;
    private final Map<DescKey, Integer> descs = new HashMap<>();
    private int nextDescId = 1;
    private int nextMarkerId = 1;
    /** Whether the last {@link #intern} cut its name to {@code VPROF_STRING_MAX} bytes. */
    private boolean lastCut;
    long namesCut;
    long longestName;
    long argsRecords;

    /** A kernel's launch shape: what a KERNEL_DESC holds. */
    record DescKey(int nameId, int device, int context, int stream, int gx, int gy, int gz, int bx, int by,
                   int bz, int smem, int regs, int graphId, long graphNode) {}

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
            bytes = cut(bytes);
        }
        stringBytes += value.length();
        if (stringBytes > MAX_NAME_BYTES) {
            throw new CaptureFormatException(file + " holds more than " + MAX_NAME_BYTES
                    + " bytes of distinct names; it is not a trace vprof reads");
        }
        id = nextStringId++;
        // A cut name is interned under its whole text, so every event of it finds the same id.
        strings.put(value, id);
        writeString(records, id, bytes);
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
            writeString(head, id, cut(key.getBytes(StandardCharsets.UTF_8)));
        }
        return id;
    }

    private static byte[] cut(byte[] bytes) {
        if (bytes.length <= VprofRing.STRING_MAX) {
            return bytes;
        }
        int cut = (int) VprofRing.STRING_MAX;
        while (cut > 0 && (bytes[cut] & 0xC0) == 0x80) {
            cut--; // do not split a UTF-8 sequence
        }
        return Arrays.copyOf(bytes, cut);
    }

    private static void writeString(RecordSpill s, int id, byte[] bytes) throws IOException {
        long at = s.begin(StringRecord.SIZE + bytes.length, VprofRing.REC_STRING);
        MemorySegment g = s.segment();
        g.set(RecordSpill.INT, at + StringRecord.ID, id);
        g.set(RecordSpill.INT, at + StringRecord.LEN, bytes.length);
        MemorySegment.copy(bytes, 0, g, RecordSpill.BYTE, at + StringRecord.SIZE, bytes.length);
    }

    /**
     * An ARGS object of {@code len} bytes for the record of type {@code target} that follows (0:
     * the process), in pieces of at most {@link #ARGS_PIECE} bytes; {@code len} 0 writes nothing.
     */
    void args(RecordSpill s, int target, byte[] bytes, int len) throws IOException {
        for (int off = 0; off < len; off += ARGS_PIECE) {
            int n = Math.min(ARGS_PIECE, len - off);
            long at = s.begin(ArgsRecord.SIZE + n, VprofRing.REC_ARGS);
            MemorySegment g = s.segment();
            g.set(RecordSpill.SHORT, at + ArgsRecord.TARGET, (short) target);
            g.set(RecordSpill.SHORT, at + ArgsRecord.FLAGS, (short) ((off == 0 ? VprofRing.ARGS_FIRST : 0)
                    | (off + n == len ? VprofRing.ARGS_LAST : 0)));
            g.set(RecordSpill.INT, at + ArgsRecord.LEN, n);
            MemorySegment.copy(bytes, off, g, RecordSpill.BYTE, at + ArgsRecord.SIZE, n);
            argsRecords++;
        }
    }

    /** The kept fields of the next event (none when {@code len} is 0). */
    private void argsFor(int target, byte[] bytes, int len) throws IOException {
        if (len > 0) {
            args(records, target, bytes, len);
        }
    }

    void kernel(DescKey shape, long start, long end, int correlation, byte[] args, int argsLen) throws IOException {
        Integer descId = descs.get(shape);
        RecordSpill s = records;
        if (descId == null) {
            descId = nextDescId++;
            descs.put(shape, descId);
            long at = s.begin(KernelDescRecord.SIZE, VprofRing.REC_KERNEL_DESC);
            MemorySegment g = s.segment();
            g.set(RecordSpill.INT, at + KernelDescRecord.ID, descId);
            g.set(RecordSpill.INT, at + KernelDescRecord.NAME_ID, shape.nameId());
            g.set(RecordSpill.INT, at + KernelDescRecord.DEVICE_ID, shape.device());
            g.set(RecordSpill.INT, at + KernelDescRecord.CONTEXT_ID, shape.context());
            g.set(RecordSpill.INT, at + KernelDescRecord.STREAM_ID, shape.stream());
            g.set(RecordSpill.INT, at + KernelDescRecord.GRAPH_ID, shape.graphId());
            g.set(RecordSpill.INT, at + KernelDescRecord.GRID_X, shape.gx());
            g.set(RecordSpill.INT, at + KernelDescRecord.GRID_Y, shape.gy());
            g.set(RecordSpill.INT, at + KernelDescRecord.GRID_Z, shape.gz());
            g.set(RecordSpill.INT, at + KernelDescRecord.BLOCK_X, shape.bx());
            g.set(RecordSpill.INT, at + KernelDescRecord.BLOCK_Y, shape.by());
            g.set(RecordSpill.INT, at + KernelDescRecord.BLOCK_Z, shape.bz());
            g.set(RecordSpill.INT, at + KernelDescRecord.SHARED_MEMORY, shape.smem());
            g.set(RecordSpill.INT, at + KernelDescRecord.REGISTERS, shape.regs());
            g.set(RecordSpill.LONG, at + KernelDescRecord.GRAPH_NODE_ID, shape.graphNode());
        }
        argsFor(VprofRing.REC_KERNEL, args, argsLen);
        long at = s.begin(KernelRecord.SIZE, VprofRing.REC_KERNEL);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + KernelRecord.START, start);
        g.set(RecordSpill.LONG, at + KernelRecord.END, end);
        g.set(RecordSpill.INT, at + KernelRecord.CORRELATION_ID, correlation);
        g.set(RecordSpill.INT, at + KernelRecord.DESC_ID, descId);
    }

    void memcpy(long start, long end, long bytes, int correlation, int device, int context, int stream,
                int copyKind, int srcKind, int dstKind, byte[] args, int argsLen) throws IOException {
        argsFor(VprofRing.REC_MEMCPY, args, argsLen);
        RecordSpill s = records;
        long at = s.begin(MemcpyRecord.SIZE, VprofRing.REC_MEMCPY);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + MemcpyRecord.START, start);
        g.set(RecordSpill.LONG, at + MemcpyRecord.END, end);
        g.set(RecordSpill.LONG, at + MemcpyRecord.BYTES, bytes);
        g.set(RecordSpill.INT, at + MemcpyRecord.CORRELATION_ID, correlation);
        g.set(RecordSpill.INT, at + MemcpyRecord.DEVICE_ID, device);
        g.set(RecordSpill.INT, at + MemcpyRecord.CONTEXT_ID, context);
        g.set(RecordSpill.INT, at + MemcpyRecord.STREAM_ID, stream);
        g.set(RecordSpill.BYTE, at + MemcpyRecord.COPY_KIND, (byte) copyKind);
        g.set(RecordSpill.BYTE, at + MemcpyRecord.SRC_KIND, (byte) srcKind);
        g.set(RecordSpill.BYTE, at + MemcpyRecord.DST_KIND, (byte) dstKind);
        g.set(RecordSpill.BYTE, at + MemcpyRecord.FLAGS, (byte) 1);
    }

    void memset(long start, long end, long bytes, int correlation, int device, int context, int stream,
                byte[] args, int argsLen) throws IOException {
        argsFor(VprofRing.REC_MEMSET, args, argsLen);
        RecordSpill s = records;
        long at = s.begin(MemsetRecord.SIZE, VprofRing.REC_MEMSET);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + MemsetRecord.START, start);
        g.set(RecordSpill.LONG, at + MemsetRecord.END, end);
        g.set(RecordSpill.LONG, at + MemsetRecord.BYTES, bytes);
        g.set(RecordSpill.INT, at + MemsetRecord.CORRELATION_ID, correlation);
        g.set(RecordSpill.INT, at + MemsetRecord.DEVICE_ID, device);
        g.set(RecordSpill.INT, at + MemsetRecord.CONTEXT_ID, context);
        g.set(RecordSpill.INT, at + MemsetRecord.STREAM_ID, stream);
    }

    void api(long start, long end, int correlation, int cbid, int domain, int tid, byte[] args, int argsLen)
            throws IOException {
        argsFor(VprofRing.REC_API, args, argsLen);
        RecordSpill s = records;
        long at = s.begin(ApiRecord.SIZE, VprofRing.REC_API);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + ApiRecord.START, start);
        g.set(RecordSpill.LONG, at + ApiRecord.END, end);
        g.set(RecordSpill.INT, at + ApiRecord.CORRELATION_ID, correlation);
        g.set(RecordSpill.INT, at + ApiRecord.CBID, cbid);
        g.set(RecordSpill.INT, at + ApiRecord.DOMAIN, domain);
        g.set(RecordSpill.INT, at + ApiRecord.TID, tid);
    }

    void cpuOp(int nameId, long start, long end, int tid, int kind, byte[] args, int argsLen) throws IOException {
        argsFor(VprofRing.REC_CPU_OP, args, argsLen);
        RecordSpill s = records;
        long at = s.begin(CpuOpRecord.SIZE, VprofRing.REC_CPU_OP);
        MemorySegment g = s.segment();
        g.set(RecordSpill.LONG, at + CpuOpRecord.START, start);
        g.set(RecordSpill.LONG, at + CpuOpRecord.END, end);
        g.set(RecordSpill.INT, at + CpuOpRecord.NAME_ID, nameId);
        g.set(RecordSpill.INT, at + CpuOpRecord.TID, tid);
        g.set(RecordSpill.INT, at + CpuOpRecord.KIND, kind);
    }

    /** A slice on a thread as an NVTX-like range: START with its name (after its ARGS), END, sharing an id. */
    void range(int nameId, int domainId, long start, long end, int tid, byte[] args, int argsLen) throws IOException {
        int id = nextMarkerId++;
        argsFor(VprofRing.REC_MARKER, args, argsLen);
        RecordSpill s = records;
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

    /** One GPU's properties, as a DEVICE record at the head (its name a STRING of its own there). */
    void device(DeviceProps d) throws IOException {
        RecordSpill h = head;
        int nameId = nextStringId++;
        writeString(h, nameId, cut(d.name().getBytes(StandardCharsets.UTF_8)));
        long at = h.begin(DeviceRecord.SIZE, VprofRing.REC_DEVICE);
        MemorySegment g = h.segment();
        g.set(RecordSpill.INT, at + DeviceRecord.ID, d.id());
        g.set(RecordSpill.INT, at + DeviceRecord.NAME_ID, nameId);
        g.set(RecordSpill.LONG, at + DeviceRecord.GLOBAL_MEMORY_BYTES, d.globalMemory());
        g.set(RecordSpill.INT, at + DeviceRecord.SM_COUNT, d.sms());
        g.set(RecordSpill.INT, at + DeviceRecord.COMPUTE_MAJOR, d.computeMajor());
        g.set(RecordSpill.INT, at + DeviceRecord.COMPUTE_MINOR, d.computeMinor());
        g.set(RecordSpill.INT, at + DeviceRecord.WARP_SIZE, d.warpSize());
        g.set(RecordSpill.INT, at + DeviceRecord.MAX_THREADS_PER_BLOCK, d.maxThreadsPerBlock());
        g.set(RecordSpill.INT, at + DeviceRecord.MAX_WARPS_PER_SM, d.maxWarpsPerSm());
        g.set(RecordSpill.INT, at + DeviceRecord.MAX_SHARED_MEMORY_PER_SM, d.sharedMemoryPerSm());
        g.set(RecordSpill.INT, at + DeviceRecord.MAX_SHARED_MEMORY_PER_BLOCK, d.sharedMemoryPerBlock());
        g.set(RecordSpill.INT, at + DeviceRecord.MAX_REGISTERS_PER_SM, d.registersPerSm());
        g.set(RecordSpill.INT, at + DeviceRecord.MAX_REGISTERS_PER_BLOCK, d.registersPerBlock());
    }

    /** What a DEVICE record holds of a {@code deviceProperties} entry. */
    record DeviceProps(int id, String name, long globalMemory, int sms, int computeMajor, int computeMinor,
                       int warpSize, int maxThreadsPerBlock, int maxWarpsPerSm, int sharedMemoryPerSm,
                       int sharedMemoryPerBlock, int registersPerSm, int registersPerBlock) {}

    /** A clock pair whose CUPTI time is CLOCK_REALTIME: a trace's times are epoch ns already. */
    void identityClock(long t) throws IOException {
        long at = head.begin(ClockSyncRecord.SIZE, VprofRing.REC_CLOCK_SYNC);
        MemorySegment g = head.segment();
        g.set(RecordSpill.LONG, at + ClockSyncRecord.CUPTI_NS, t);
        g.set(RecordSpill.LONG, at + ClockSyncRecord.REALTIME_NS, t);
        g.set(RecordSpill.LONG, at + ClockSyncRecord.MONOTONIC_NS, t);
    }
}
