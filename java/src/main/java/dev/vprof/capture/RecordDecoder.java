package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.ApiRecord;
import dev.vprof.bindings.VprofRing.ClockSyncRecord;
import dev.vprof.bindings.VprofRing.CpuOpRecord;
import dev.vprof.bindings.VprofRing.DeviceRecord;
import dev.vprof.bindings.VprofRing.DropsRecord;
import dev.vprof.bindings.VprofRing.KernelDescRecord;
import dev.vprof.bindings.VprofRing.KernelRecord;
import dev.vprof.bindings.VprofRing.MarkerRecord;
import dev.vprof.bindings.VprofRing.MemcpyRecord;
import dev.vprof.bindings.VprofRing.MemsetRecord;
import dev.vprof.bindings.VprofRing.RangeRecord;
import dev.vprof.bindings.VprofRing.StringRecord;
import dev.vprof.bindings.VprofRing.SyncRecord;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes one process's ring-encoded records (vprof_ring.h) into {@link RecordVisitor}
 * calls, keeping that process's interned STRINGs and KERNEL_DESCs. Feed it the process's
 * records in order; a STRING or KERNEL_DESC whose id was seen before replaces it (ids
 * restart at 1 whenever the agent is armed).
 *
 * <p>Nothing in the input is trusted: every length is checked against the record and the
 * buffer, records shorter than their type are skipped and counted, and interning stops at
 * a fixed budget so that a hostile file cannot make the decoder hold unbounded memory.
 *
 * <p>Records of ring format 1 (files written before graph node ids, range counts and drain
 * windows) are shorter: a KERNEL_DESC or RANGE of that length is read with the new fields as 0, and
 * so is a CLOCK_SYNC without its boot time.
 * Files the trace reader wrote before CPU ops had their own record kept them as marker ranges of
 * two domains of its own ({@value #LEGACY_CPU_OP_DOMAIN}, {@value #LEGACY_PYTHON_DOMAIN}): those
 * come out as {@link RecordVisitor#cpuOp} calls, as a CPU_OP record does.
 *
 * <p>An ARGS record (in one or more pieces) belongs to the record that follows it: the visitor
 * hears {@link RecordVisitor#eventArgs} just before that record's own call, or never when another
 * kind of record comes first (counted as malformed).
 */
public final class RecordDecoder {

    /** The name given to a kernel whose KERNEL_DESC (or its STRING) the file does not hold. */
    public static final String UNKNOWN_KERNEL = "<unknown kernel>";

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final int TYPES = VprofRing.REC_TYPE_MAX + 1;
    /** The marker domain of CPU ops in files the trace reader wrote before the CPU_OP record. */
    static final String LEGACY_CPU_OP_DOMAIN = "pytorch.cpu_op";
    /** The marker domain of Python frames in those files. */
    static final String LEGACY_PYTHON_DOMAIN = "pytorch.python_function";
    /** Legacy CPU-op ranges open at once (the trace reader wrote each START next to its END). */
    static final int MAX_LEGACY_OPEN = 1 << 16;
    /** Format 1 ended these records where format 2's first new field begins. */
    static final long KERNEL_DESC_V1_SIZE = KernelDescRecord.GRAPH_NODE_ID;
    static final long RANGE_V1_SIZE = RangeRecord.CORRELATION_ID;
    /** CLOCK_SYNC records ended before boottime_ns until the agent read CLOCK_BOOTTIME. */
    static final long CLOCK_SYNC_NO_BOOT_SIZE = ClockSyncRecord.BOOTTIME_NS;

    /** Interning limits shared by all decoders of one pass over a file. */
    static final class Budget {
        /** Chars of live interned strings. */
        long stringBytesLeft = 32L << 20;
        /** Live interned strings and kernel descs together. */
        long entriesLeft = 512 * 1024;
    }

    private final int pid;
    private final Budget budget;
    private final Warnings warnings;
    private final IntMap<String> strings = new IntMap<>();
    private final IntMap<KernelDesc> descs = new IntMap<>();
    private KernelDesc lastDesc;
    /** Where a reader collects CLOCK_SYNC pairs for its clock fit; null if none. */
    ClockPairs clockPairs;
    /** Only CLOCK_SYNC records are decoded (a clock fit's pass); the others are only walked past. */
    boolean clocksOnly;

    private final long[] malformed = new long[TYPES];
    private long unknownTypes;
    private int lastUnknownType;
    private long unresolvedKernels;
    private long notInterned;
    private long damagedRuns;
    private long orphanArgs;
    private long legacyOverflow;

    /** The ARGS object being put together from its pieces. */
    private final ArgsPieces argsPieces = new ArgsPieces();
    /** The record type the last complete ARGS belongs to (0: none waiting), its fields, an API call's name. */
    private int pendingTarget;
    private EventArgs pendingArgs;
    private String pendingName;
    /** The name the next API record takes from its ARGS. */
    private String apiName;

    private record LegacyOp(long start, String name, int tid, int kind) {}

    private final Map<Integer, LegacyOp> legacyOpen = new HashMap<>();

    /** A decoder with its own interning budget, for code outside a {@link CaptureReader}. */
    public RecordDecoder(int pid) {
        this(pid, new Budget(), new Warnings());
    }

    RecordDecoder(int pid, Budget budget, Warnings warnings) {
        this.pid = pid;
        this.budget = budget;
        this.warnings = warnings;
    }

    /** The interned string {@code id}, or null. */
    public String string(int id) {
        return strings.get(id);
    }

    /** The interned kernel desc {@code id}, or null. */
    public KernelDesc kernelDesc(int id) {
        return descs.get(id);
    }

    /**
     * Decodes the whole records in {@code seg[offset, offset+length)}. Returns false when a
     * record header was damaged, so that the rest of the run could not be walked (it is
     * skipped and a warning says so).
     */
    public boolean decode(MemorySegment seg, long offset, long length, RecordVisitor v) {
        if (offset < 0 || length < 0 || offset + length > seg.byteSize()) {
            throw new IndexOutOfBoundsException("records [" + offset + ", +" + length + ") outside a segment of "
                    + seg.byteSize() + " bytes");
        }
        long pos = offset;
        final long end = offset + length;
        final boolean kernels = v.wantsKernels();
        while (pos < end) {
            if (end - pos < VprofRing.RecordHeader.SIZE) {
                damaged(pos - offset, "a record header cut short");
                return false;
            }
            int len = seg.get(INT, pos);
            int type = seg.get(INT, pos + VprofRing.RecordHeader.TYPE);
            if (len < VprofRing.RecordHeader.SIZE || (len & 7) != 0 || len > VprofRing.RECORD_MAX || len > end - pos) {
                damaged(pos - offset, "a record length of " + len);
                return false;
            }
            if (clocksOnly && type != VprofRing.REC_CLOCK_SYNC) {
                pos += len;
                continue;
            }
            if (pendingTarget != 0 && type != VprofRing.REC_ARGS && type != VprofRing.REC_PADDING) {
                pairArgs(type, v);
            }
            switch (type) {
                case VprofRing.REC_KERNEL -> {
                    if (kernels) {
                        kernel(seg, pos, len, v);
                    }
                }
                case VprofRing.REC_KERNEL_DESC -> kernelDesc(seg, pos, len, v);
                case VprofRing.REC_STRING -> string(seg, pos, len, v);
                case VprofRing.REC_MEMCPY -> memcpy(seg, pos, len, v);
                case VprofRing.REC_MEMSET -> memset(seg, pos, len, v);
                case VprofRing.REC_MARKER -> marker(seg, pos, len, v);
                case VprofRing.REC_API -> api(seg, pos, len, v);
                case VprofRing.REC_CLOCK_SYNC -> clockSync(seg, pos, len, v);
                case VprofRing.REC_RANGE -> range(seg, pos, len, v);
                case VprofRing.REC_DROPS -> drops(seg, pos, len, v);
                case VprofRing.REC_DEVICE -> device(seg, pos, len, v);
                case VprofRing.REC_SYNC -> sync(seg, pos, len, v);
                case VprofRing.REC_CPU_OP -> cpuOp(seg, pos, len, v);
                case VprofRing.REC_ARGS -> args(seg, pos, len, v);
                case VprofRing.REC_PADDING -> { }
                default -> {
                    unknownTypes++;
                    lastUnknownType = type;
                }
            }
            pos += len;
        }
        return true;
    }

    /** Adds a warning for each kind of problem seen, with its count. Call once, at the end. */
    void finish() {
        for (int t = 0; t < TYPES; t++) {
            if (malformed[t] > 0) {
                warnings.add("pid " + pid + ": skipped " + malformed[t] + " " + typeName(t)
                        + " records shorter than their type or with bad fields");
            }
        }
        if (unknownTypes > 0) {
            warnings.add("pid " + pid + ": skipped " + unknownTypes + " records of unknown type (last: "
                    + Integer.toUnsignedString(lastUnknownType) + "); a newer agent may have written them");
        }
        if (unresolvedKernels > 0) {
            warnings.add("pid " + pid + ": " + unresolvedKernels + " kernels refer to a kernel description or"
                    + " name the file does not hold; they are reported as " + UNKNOWN_KERNEL);
        }
        if (notInterned > 0) {
            warnings.add("pid " + pid + ": " + notInterned + " names or kernel descriptions were not kept"
                    + " (interning limit reached)");
        }
        if (orphanArgs > 0) {
            warnings.add("pid " + pid + ": " + orphanArgs + " ARGS records were not followed by the record they"
                    + " belong to; their fields were left out");
        }
        if (legacyOverflow > 0) {
            warnings.add("pid " + pid + ": " + legacyOverflow + " CPU ops were left out: more than " + MAX_LEGACY_OPEN
                    + " were open at once");
        }
        if (damagedRuns > 0) {
            warnings.add("pid " + pid + ": " + damagedRuns + " record runs had a damaged record header;"
                    + " the records after it in that chunk were skipped");
        }
    }

    /** Warnings of a standalone decoder (after {@link #finish}). */
    public List<String> warnings() {
        finish();
        return warnings.list();
    }

    private void kernel(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < KernelRecord.SIZE) {
            malformed[VprofRing.REC_KERNEL]++;
            return;
        }
        long start = seg.get(LONG, pos + KernelRecord.START);
        long end = seg.get(LONG, pos + KernelRecord.END);
        int correlationId = seg.get(INT, pos + KernelRecord.CORRELATION_ID);
        int descId = seg.get(INT, pos + KernelRecord.DESC_ID);
        KernelDesc desc = lastDesc;
        if (desc == null || desc.id() != descId) {
            desc = descs.get(descId);
            lastDesc = desc;
        }
        String name;
        if (desc == null) {
            name = UNKNOWN_KERNEL;
            unresolvedKernels++;
        } else if (desc.name() != null) {
            name = desc.name();
        } else {
            // The desc arrived before its STRING: resolve now and remember it.
            String late = strings.get(desc.nameId());
            if (late != null) {
                desc = withName(desc, late);
                descs.put(descId, desc);
                lastDesc = desc;
                name = late;
            } else {
                name = UNKNOWN_KERNEL;
                unresolvedKernels++;
            }
        }
        v.kernel(pid, start, end, correlationId, desc, name);
    }

    private void kernelDesc(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < KERNEL_DESC_V1_SIZE) {
            malformed[VprofRing.REC_KERNEL_DESC]++;
            return;
        }
        int id = seg.get(INT, pos + KernelDescRecord.ID);
        int nameId = seg.get(INT, pos + KernelDescRecord.NAME_ID);
        String name = strings.get(nameId);
        KernelDesc desc = new KernelDesc(id, nameId, name,
                seg.get(INT, pos + KernelDescRecord.DEVICE_ID),
                seg.get(INT, pos + KernelDescRecord.CONTEXT_ID),
                seg.get(INT, pos + KernelDescRecord.STREAM_ID),
                seg.get(INT, pos + KernelDescRecord.GRAPH_ID),
                seg.get(INT, pos + KernelDescRecord.GRID_X),
                seg.get(INT, pos + KernelDescRecord.GRID_Y),
                seg.get(INT, pos + KernelDescRecord.GRID_Z),
                seg.get(INT, pos + KernelDescRecord.BLOCK_X),
                seg.get(INT, pos + KernelDescRecord.BLOCK_Y),
                seg.get(INT, pos + KernelDescRecord.BLOCK_Z),
                seg.get(INT, pos + KernelDescRecord.SHARED_MEMORY),
                seg.get(INT, pos + KernelDescRecord.REGISTERS),
                len >= KernelDescRecord.SIZE ? seg.get(LONG, pos + KernelDescRecord.GRAPH_NODE_ID) : 0L);
        if (descs.get(id) == null) {
            if (budget.entriesLeft <= 0) {
                notInterned++;
                return;
            }
            budget.entriesLeft--;
        }
        descs.put(id, desc);
        lastDesc = null;
        v.kernelDesc(pid, desc);
    }

    private void string(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < StringRecord.SIZE) {
            malformed[VprofRing.REC_STRING]++;
            return;
        }
        int id = seg.get(INT, pos + StringRecord.ID);
        long byteCount = Integer.toUnsignedLong(seg.get(INT, pos + StringRecord.LEN));
        if (id == 0 || byteCount > VprofRing.STRING_MAX || byteCount > len - StringRecord.SIZE) {
            malformed[VprofRing.REC_STRING]++;
            return;
        }
        String old = strings.get(id);
        long oldChars = old == null ? 0 : old.length();
        // The budget counts chars; a string never has more chars than its UTF-8 bytes,
        // so checking the byte count first keeps the budget from going below zero.
        if ((old == null && budget.entriesLeft <= 0) || budget.stringBytesLeft + oldChars < byteCount) {
            notInterned++;
            return;
        }
        byte[] bytes = new byte[(int) byteCount];
        MemorySegment.copy(seg, BYTE, pos + StringRecord.SIZE, bytes, 0, bytes.length);
        String value = new String(bytes, StandardCharsets.UTF_8);
        if (old == null) {
            budget.entriesLeft--;
        }
        budget.stringBytesLeft += oldChars - value.length();
        strings.put(id, value);
        v.string(pid, id, value);
    }

    private void memcpy(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < MemcpyRecord.SIZE) {
            malformed[VprofRing.REC_MEMCPY]++;
            return;
        }
        v.memcpy(pid, new MemcpyEvent(
                seg.get(LONG, pos + MemcpyRecord.START),
                seg.get(LONG, pos + MemcpyRecord.END),
                seg.get(LONG, pos + MemcpyRecord.BYTES),
                seg.get(INT, pos + MemcpyRecord.CORRELATION_ID),
                seg.get(INT, pos + MemcpyRecord.DEVICE_ID),
                seg.get(INT, pos + MemcpyRecord.CONTEXT_ID),
                seg.get(INT, pos + MemcpyRecord.STREAM_ID),
                Byte.toUnsignedInt(seg.get(BYTE, pos + MemcpyRecord.COPY_KIND)),
                Byte.toUnsignedInt(seg.get(BYTE, pos + MemcpyRecord.SRC_KIND)),
                Byte.toUnsignedInt(seg.get(BYTE, pos + MemcpyRecord.DST_KIND)),
                Byte.toUnsignedInt(seg.get(BYTE, pos + MemcpyRecord.FLAGS))));
    }

    private void memset(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < MemsetRecord.SIZE) {
            malformed[VprofRing.REC_MEMSET]++;
            return;
        }
        v.memset(pid, new MemsetEvent(
                seg.get(LONG, pos + MemsetRecord.START),
                seg.get(LONG, pos + MemsetRecord.END),
                seg.get(LONG, pos + MemsetRecord.BYTES),
                seg.get(INT, pos + MemsetRecord.CORRELATION_ID),
                seg.get(INT, pos + MemsetRecord.DEVICE_ID),
                seg.get(INT, pos + MemsetRecord.CONTEXT_ID),
                seg.get(INT, pos + MemsetRecord.STREAM_ID),
                seg.get(INT, pos + MemsetRecord.VALUE)));
    }

    private void marker(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < MarkerRecord.SIZE) {
            malformed[VprofRing.REC_MARKER]++;
            return;
        }
        int nameId = seg.get(INT, pos + MarkerRecord.NAME_ID);
        int domainId = seg.get(INT, pos + MarkerRecord.DOMAIN_ID);
        long ts = seg.get(LONG, pos + MarkerRecord.TIMESTAMP);
        int id = seg.get(INT, pos + MarkerRecord.ID);
        int flags = seg.get(INT, pos + MarkerRecord.FLAGS);
        String name = nameId == 0 ? null : strings.get(nameId);
        String domain = domainId == 0 ? null : strings.get(domainId);
        int tid = seg.get(INT, pos + MarkerRecord.TID);
        if (legacyCpuOp(id, flags, ts, name, domain, tid, v)) {
            return;
        }
        v.marker(pid, new MarkerEvent(ts, id, flags, name, domain, tid));
    }

    /**
     * A marker of a CPU op as the trace reader wrote them before the CPU_OP record: its START is
     * held until its END (which follows it), and the pair goes out as one {@link RecordVisitor#cpuOp}.
     */
    private boolean legacyCpuOp(int id, int flags, long ts, String name, String domain, int tid, RecordVisitor v) {
        if ((flags & VprofRing.MARKER_END) != 0 && !legacyOpen.isEmpty()) {
            LegacyOp open = legacyOpen.remove(id);
            if (open != null) {
                v.cpuOp(pid, new CpuOpEvent(open.start(), Math.max(open.start(), ts), open.kind(), open.name(), open.tid()));
                return true;
            }
            return false;
        }
        boolean op = LEGACY_CPU_OP_DOMAIN.equals(domain);
        if ((flags & VprofRing.MARKER_START) == 0 || !(op || LEGACY_PYTHON_DOMAIN.equals(domain))) {
            return false;
        }
        if (legacyOpen.size() >= MAX_LEGACY_OPEN && !legacyOpen.containsKey(id)) {
            legacyOverflow++;
            return true;
        }
        legacyOpen.put(id, new LegacyOp(ts, name, tid, op ? VprofRing.CPU_OP_OPERATOR : VprofRing.CPU_OP_PYTHON));
        return true;
    }

    private void cpuOp(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < CpuOpRecord.SIZE) {
            malformed[VprofRing.REC_CPU_OP]++;
            return;
        }
        long start = seg.get(LONG, pos + CpuOpRecord.START);
        long end = seg.get(LONG, pos + CpuOpRecord.END);
        int kind = seg.get(INT, pos + CpuOpRecord.KIND);
        if ((kind != VprofRing.CPU_OP_OPERATOR && kind != VprofRing.CPU_OP_PYTHON) || end < start) {
            malformed[VprofRing.REC_CPU_OP]++;
            return;
        }
        int nameId = seg.get(INT, pos + CpuOpRecord.NAME_ID);
        v.cpuOp(pid, new CpuOpEvent(start, end, kind, nameId == 0 ? null : strings.get(nameId),
                seg.get(INT, pos + CpuOpRecord.TID)));
    }

    /** One piece of an ARGS object; the last piece makes it wait for the record it belongs to. */
    private void args(MemorySegment seg, long pos, int len, RecordVisitor v) {
        try {
            ArgsPieces.Whole whole = argsPieces.add(seg, pos, len);
            if (whole != null) {
                argsDone(whole.segment(), whole.from(), whole.length(), whole.target(), v);
            }
        } catch (ArgsCodec.Malformed e) {
            malformed[VprofRing.REC_ARGS]++;
        }
    }

    private void argsDone(MemorySegment seg, long from, int total, int target, RecordVisitor v) {
        if (pendingTarget != 0) {
            orphanArgs++; // a second ARGS before the record of the first
        }
        pendingTarget = 0;
        pendingArgs = null;
        pendingName = null;
        try {
            // A process's own fields (once per process) always; an event's only for a visitor that asks.
            EventArgs args = target == 0 || v.wantsEventArgs()
                    ? new EventArgs(target, ArgsCodec.decodeObject(seg, from, total, strings::get)) : null;
            if (target == 0) {
                if (args != null) {
                    v.eventArgs(pid, args);
                }
                return;
            }
            pendingTarget = target;
            pendingArgs = args;
            if (target == VprofRing.REC_API) {
                pendingName = args != null ? args.string("name")
                        : ArgsCodec.topString(seg, from, total, strings::get, "name");
            }
        } catch (ArgsCodec.Malformed e) {
            malformed[VprofRing.REC_ARGS]++;
        }
    }

    /** The record after a complete ARGS: its own, or another (the ARGS then belongs to nothing). */
    private void pairArgs(int type, RecordVisitor v) {
        if (type == pendingTarget) {
            if (pendingArgs != null) {
                v.eventArgs(pid, pendingArgs);
            }
            apiName = pendingName;
        } else if (type != VprofRing.REC_STRING && type != VprofRing.REC_KERNEL_DESC) {
            orphanArgs++;
        } else {
            return; // interning between an ARGS and its record: still waiting
        }
        pendingTarget = 0;
        pendingArgs = null;
        pendingName = null;
    }

    private void api(MemorySegment seg, long pos, int len, RecordVisitor v) {
        String name = apiName;
        apiName = null;
        if (len < ApiRecord.SIZE) {
            malformed[VprofRing.REC_API]++;
            return;
        }
        v.api(pid, new ApiEvent(
                seg.get(LONG, pos + ApiRecord.START),
                seg.get(LONG, pos + ApiRecord.END),
                seg.get(INT, pos + ApiRecord.CORRELATION_ID),
                seg.get(INT, pos + ApiRecord.CBID),
                seg.get(INT, pos + ApiRecord.DOMAIN),
                seg.get(INT, pos + ApiRecord.TID),
                name));
    }

    /** A SYNC record; one too short, of a type CUPTI does not define, or ending before it starts is malformed. */
    private void sync(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < SyncRecord.SIZE) {
            malformed[VprofRing.REC_SYNC]++;
            return;
        }
        long start = seg.get(LONG, pos + SyncRecord.START);
        long end = seg.get(LONG, pos + SyncRecord.END);
        int type = seg.get(INT, pos + SyncRecord.TYPE);
        if (type < VprofRing.SYNC_UNKNOWN || type > VprofRing.SYNC_CONTEXT_SYNCHRONIZE
                || Long.compareUnsigned(end, start) < 0) {
            malformed[VprofRing.REC_SYNC]++;
            return;
        }
        v.sync(pid, new SyncEvent(start, end,
                seg.get(INT, pos + SyncRecord.CORRELATION_ID),
                type,
                seg.get(INT, pos + SyncRecord.CONTEXT_ID),
                seg.get(INT, pos + SyncRecord.STREAM_ID),
                seg.get(INT, pos + SyncRecord.EVENT_ID)));
    }

    private void clockSync(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < CLOCK_SYNC_NO_BOOT_SIZE) {
            malformed[VprofRing.REC_CLOCK_SYNC]++;
            return;
        }
        long cupti = seg.get(LONG, pos + ClockSyncRecord.CUPTI_NS);
        long realtime = seg.get(LONG, pos + ClockSyncRecord.REALTIME_NS);
        long boottime = len < ClockSyncRecord.SIZE ? 0 : seg.get(LONG, pos + ClockSyncRecord.BOOTTIME_NS);
        if (clockPairs != null) {
            clockPairs.add(pid, cupti, realtime, boottime);
        }
        v.clockSync(pid, new ClockSync(cupti, realtime, seg.get(LONG, pos + ClockSyncRecord.MONOTONIC_NS), boottime));
    }

    private void range(MemorySegment seg, long pos, int len, RecordVisitor v) {
        int edge = len < RANGE_V1_SIZE ? 0 : seg.get(INT, pos + RangeRecord.EDGE);
        if (edge < VprofRing.RANGE_BEGIN || edge > VprofRing.RANGE_LATE_END) {
            malformed[VprofRing.REC_RANGE]++;
            return;
        }
        int source = seg.get(INT, pos + RangeRecord.SOURCE);
        int index = seg.get(INT, pos + RangeRecord.INDEX);
        int captureId = seg.get(INT, pos + RangeRecord.CAPTURE_ID);
        long cuptiNs = seg.get(LONG, pos + RangeRecord.CUPTI_NS);
        long realtimeNs = seg.get(LONG, pos + RangeRecord.REALTIME_NS);
        long ringDrops = seg.get(LONG, pos + RangeRecord.RING_DROPS);
        long ringDropsKernels = seg.get(LONG, pos + RangeRecord.RING_DROPS_KERNELS);
        long cuptiDrops = seg.get(LONG, pos + RangeRecord.CUPTI_DROPS);
        if (len < RangeRecord.SIZE) {
            v.range(pid, new RangeEvent(edge, source, index, captureId, cuptiNs, realtimeNs, ringDrops,
                    ringDropsKernels, cuptiDrops));
            return;
        }
        v.range(pid, new RangeEvent(edge, source, index, captureId, cuptiNs, realtimeNs, ringDrops,
                ringDropsKernels, cuptiDrops,
                seg.get(INT, pos + RangeRecord.CORRELATION_ID),
                seg.get(INT, pos + RangeRecord.FLAGS),
                seg.get(LONG, pos + RangeRecord.DRAINED_CUPTI_NS),
                seg.get(LONG, pos + RangeRecord.KERNEL_LAUNCHES),
                seg.get(LONG, pos + RangeRecord.GRAPH_LAUNCHES),
                seg.get(LONG, pos + RangeRecord.KERNELS),
                seg.get(LONG, pos + RangeRecord.GRAPH_KERNELS),
                seg.get(LONG, pos + RangeRecord.KERNELS_MISSING),
                seg.get(LONG, pos + RangeRecord.CLIPPED),
                seg.get(LONG, pos + RangeRecord.REJECTED_ZERO_TS),
                seg.get(LONG, pos + RangeRecord.REJECTED_START_ZERO),
                seg.get(LONG, pos + RangeRecord.REJECTED_END_ZERO),
                seg.get(LONG, pos + RangeRecord.REJECTED_END_BEFORE_START),
                seg.get(LONG, pos + RangeRecord.REJECTED_OUTSIDE_RANGE),
                seg.get(LONG, pos + RangeRecord.LATE),
                seg.get(LONG, pos + RangeRecord.REJECTED_BAD_RECORD)));
    }

    private void drops(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < DropsRecord.SIZE) {
            malformed[VprofRing.REC_DROPS]++;
            return;
        }
        v.drops(pid, new DropsEvent(
                seg.get(INT, pos + DropsRecord.REASON),
                seg.get(INT, pos + DropsRecord.CONTEXT_ID),
                seg.get(INT, pos + DropsRecord.STREAM_ID),
                seg.get(INT, pos + DropsRecord.RECORD_TYPE),
                seg.get(LONG, pos + DropsRecord.COUNT)));
    }

    private void device(MemorySegment seg, long pos, int len, RecordVisitor v) {
        if (len < DeviceRecord.SIZE) {
            malformed[VprofRing.REC_DEVICE]++;
            return;
        }
        int nameId = seg.get(INT, pos + DeviceRecord.NAME_ID);
        int flags = seg.get(INT, pos + DeviceRecord.FLAGS);
        StringBuilder uuid = new StringBuilder(32);
        for (int i = 0; i < DeviceRecord.UUID_SIZE; i++) {
            uuid.append(String.format("%02x", Byte.toUnsignedInt(seg.get(BYTE, pos + DeviceRecord.UUID + i))));
        }
        v.device(pid, new DeviceProperties(
                seg.get(INT, pos + DeviceRecord.ID),
                nameId == 0 ? null : strings.get(nameId),
                seg.get(LONG, pos + DeviceRecord.GLOBAL_MEMORY_BYTES),
                seg.get(LONG, pos + DeviceRecord.GLOBAL_MEMORY_BANDWIDTH),
                seg.get(INT, pos + DeviceRecord.SM_COUNT),
                seg.get(INT, pos + DeviceRecord.COMPUTE_MAJOR),
                seg.get(INT, pos + DeviceRecord.COMPUTE_MINOR),
                seg.get(INT, pos + DeviceRecord.CORE_CLOCK_KHZ),
                seg.get(INT, pos + DeviceRecord.L2_CACHE_BYTES),
                seg.get(INT, pos + DeviceRecord.WARP_SIZE),
                seg.get(INT, pos + DeviceRecord.MAX_THREADS_PER_BLOCK),
                seg.get(INT, pos + DeviceRecord.MAX_WARPS_PER_SM),
                seg.get(INT, pos + DeviceRecord.MAX_BLOCKS_PER_SM),
                seg.get(INT, pos + DeviceRecord.MAX_SHARED_MEMORY_PER_SM),
                seg.get(INT, pos + DeviceRecord.MAX_SHARED_MEMORY_PER_BLOCK),
                seg.get(INT, pos + DeviceRecord.MAX_REGISTERS_PER_SM),
                seg.get(INT, pos + DeviceRecord.MAX_REGISTERS_PER_BLOCK),
                (flags & VprofRing.DEVICE_ECC) != 0,
                (flags & VprofRing.DEVICE_MIG) != 0,
                uuid.toString()));
    }

    private void damaged(long at, String what) {
        damagedRuns++;
        warnings.add("pid " + pid + ": " + what + " at byte " + at + " of a record run; skipped the rest of it");
    }

    private static KernelDesc withName(KernelDesc d, String name) {
        return new KernelDesc(d.id(), d.nameId(), name, d.deviceId(), d.contextId(), d.streamId(), d.graphId(),
                d.gridX(), d.gridY(), d.gridZ(), d.blockX(), d.blockY(), d.blockZ(), d.sharedMemory(), d.registers(),
                d.graphNodeId());
    }

    static String typeName(int type) {
        // Named by the generated bindings: a new record type needs no entry here.
        String name = VprofRing.recordName(type);
        return name != null ? name : "type " + type;
    }
}
