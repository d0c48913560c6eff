package dev.vprof.adapt;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.CpuOpEvent;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.EventArgs;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.capture.SyncEvent;
import dev.vprof.capture.Warnings;
import dev.vprof.names.KernelNames;
import dev.vprof.time.RangeEdges;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ThreadSliceKind;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * One streaming pass of a capture's records onto a {@link Timeline}'s tracks: GPU ops onto stream
 * tracks, NVTX markers into thread ranges, API records into thread API calls, RANGE pairs into
 * capture ranges, a trace's CPU ops into thread slices of their own kind, every CUPTI time mapped
 * to epoch ns through its process's clock mapping; an event's ARGS (the source's fields no record
 * holds) go with it. What it maps goes to an {@link AdaptedRecords}: counted for the layout, or
 * into a streamed walk. The mapping is deterministic, so two passes over one file map alike.
 * Nothing is kept per record, except NVTX ranges whose END has not come yet.
 */
final class RecordAdapter implements RecordVisitor {
    /** NVTX start/end ranges left open at once; a real program has a handful, a broken one could leak. */
    static final int MAX_OPEN_MARKERS = 1 << 16;
    /** How often (in records) the progress callback hears from the pass. */
    static final long PROGRESS_EVERY = 1 << 20;

    private final Timeline timeline;
    private final AdaptedRecords out;
    private final KernelNames names;
    /** A kernel's name as recorded to its id in the timeline's string table, shown as {@link #names} says. */
    private final Map<String, Integer> kernelNameIds;
    private final GpuOp op = new GpuOp();
    private final ApiCall call = new ApiCall();
    /** Numbers NVTX ranges (started or instant) in the order the pass meets them. */
    private long nextSerial = 1;
    /** The times {@link #timed} mapped last. */
    private long startNs;
    private long endNs;
    private final Map<Integer, ClockMapping> clocks;
    private final Warnings notes;
    private final LongConsumer progress;
    private final Map<Integer, Proc> procs = new LinkedHashMap<>();
    private Proc last;
    private long records;
    private long clampedOps;
    private long markersWithoutStart;
    private long markersOverflowed;
    /** The fields of the record the decoder hands over next (it calls {@link #eventArgs} just before it). */
    private EventArgs pendingArgs;
    /** Timeline string ids of the CPU-op kinds' labels (0: not interned yet). */
    private final int[] kindLabels = new int[ThreadSliceKind.values().length];

    // Kernel names repeat millions of times and the decoder hands out the same String for a name:
    // a small cache on the String's identity lets most kernels skip the intern table, also when
    // kernels of a few names alternate (a layer's GEMM, norm and attention).
    private static final int NAME_CACHE = 64;
    private final String[] cachedNames = new String[NAME_CACHE];
    private final int[] cachedNameIds = new int[NAME_CACHE];

    long rangesStart = Long.MAX_VALUE;
    long rangesEnd = Long.MIN_VALUE;
    long dataStart = Long.MAX_VALUE;
    long dataEnd = Long.MIN_VALUE;
    long gpuOps;

    /** Per-process state of the pass. */
    private final class Proc {
        final int pid;
        final TimelineProcess process;
        final ClockMapping clock;
        final Map<Integer, OpenMarker> openMarkers = new HashMap<>();
        RangeEvent openRange;
        long openRangeStartNs;
        long firstNs = Long.MAX_VALUE;
        long lastNs = Long.MIN_VALUE;
        // The streams of the last GPU ops: kernels mostly go to a few streams in turn (compute,
        // communication, copies), so a few entries spare the lookup through device and stream maps.
        static final int STREAM_CACHE = 4;
        final int[] cachedDevice = new int[STREAM_CACHE];
        final long[] cachedStreamId = new long[STREAM_CACHE];
        final GpuStream[] cachedStream = new GpuStream[STREAM_CACHE];
        int nextCacheSlot;

        Proc(int pid) {
            this.pid = pid;
            this.process = timeline.process(pid);
            this.clock = clocks.getOrDefault(pid, ClockMapping.identity());
        }

        long epoch(long cuptiNs) {
            return clock.toEpochNs(cuptiNs);
        }

        void touch(long startNs, long endNs) {
            firstNs = Math.min(firstNs, startNs);
            lastNs = Math.max(lastNs, endNs);
        }

        GpuStream stream(int device, long streamId) {
            for (int i = 0; i < STREAM_CACHE; i++) {
                GpuStream s = cachedStream[i];
                if (s != null && cachedDevice[i] == device && cachedStreamId[i] == streamId) {
                    return s;
                }
            }
            GpuStream s = process.device(device).stream(streamId);
            int i = nextCacheSlot;
            nextCacheSlot = (i + 1) % STREAM_CACHE;
            cachedDevice[i] = device;
            cachedStreamId[i] = streamId;
            cachedStream[i] = s;
            return s;
        }

        /** A range edge in epoch ns, by the time layer's one rule. */
        long rangeEdge(RangeEvent e) {
            return RangeEdges.epochNs(e, clock);
        }
    }

    private record OpenMarker(long startNs, int nameId, int domainId, int tid, long serial, EventArgs args) {}

    /**
     * @param kernelNameIds shared by passes over one file, so each kernel name is demangled once
     */
    RecordAdapter(Timeline timeline, AdaptedRecords out, Map<Integer, ClockMapping> clocks, KernelNames names,
                  Map<String, Integer> kernelNameIds, Warnings notes, LongConsumer progress) {
        this.names = names;
        this.timeline = timeline;
        this.out = out;
        this.kernelNameIds = kernelNameIds;
        this.clocks = clocks;
        this.notes = notes;
        this.progress = progress;
    }

    private Proc proc(int pid) {
        Proc p = last;
        if (p == null || p.pid != pid) {
            p = procs.computeIfAbsent(pid, Proc::new);
            last = p;
        }
        if (++records % PROGRESS_EVERY == 0 && progress != null) {
            progress.accept(records);
        }
        return p;
    }

    /**
     * The process of a record with a start and an end, both mapped to epoch ns into
     * {@link #startNs} and {@link #endNs} (an end before the start becomes the start, counted).
     */
    private Proc timed(int pid, long cuptiStart, long cuptiEnd) {
        Proc p = proc(pid);
        startNs = p.epoch(cuptiStart);
        endNs = ordered(startNs, p.epoch(cuptiEnd));
        p.touch(startNs, endNs);
        return p;
    }

    @Override
    public void chunk(int chunkIndex, int pid) {
        out.chunk(chunkIndex);
    }

    @Override
    public boolean wantsEventArgs() {
        return out.wantsEventArgs();
    }

    @Override
    public void eventArgs(int pid, EventArgs args) {
        if (args.target() == 0) {
            out.processFields(proc(pid).process, args);
        } else {
            pendingArgs = args;
        }
    }

    /** The fields of the record being mapped (null when none), taken once. */
    private EventArgs takeArgs() {
        EventArgs a = pendingArgs;
        pendingArgs = null;
        return a;
    }

    // The name cache is keyed by identity on purpose (a hit skips the map); a miss only looks the name up.
    @SuppressWarnings("ReferenceEquality")
    @Override
    public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
        Proc p = timed(pid, start, end);
        long s = startNs;
        long e = endNs;
        int slot = System.identityHashCode(name) & (NAME_CACHE - 1);
        int nameId;
        if (cachedNames[slot] == name) {
            nameId = cachedNameIds[slot];
        } else {
            Integer id = kernelNameIds.get(name);
            if (id == null) {
                id = timeline.intern(names.show(name));
                kernelNameIds.put(name, id);
            }
            nameId = id;
            cachedNames[slot] = name;
            cachedNameIds[slot] = nameId;
        }
        long corr = Integer.toUnsignedLong(correlationId);
        EventArgs args = takeArgs();
        if (desc == null) {
            // No KERNEL_DESC in the file: device and stream unknown, kept visible on a "GPU -1".
            out.gpuOp(p.stream(-1, -1), op.kernel(nameId, s, e, corr, 0, 0, 0, 0, 0, 0, 0, 0).args(args));
        } else {
            out.gpuOp(p.stream(desc.deviceId(), Integer.toUnsignedLong(desc.streamId())).context(desc.contextId()),
                    op.kernel(nameId, s, e, corr,
                    clamp(desc.gridX(), 0x7fff_ffff), clamp(desc.gridY(), 0xffff), clamp(desc.gridZ(), 0xffff),
                    clamp(desc.blockX(), 0x7ff), clamp(desc.blockY(), 0x7ff), clamp(desc.blockZ(), 0x7f),
                    clamp(desc.registers(), 0xff), clamp(desc.sharedMemory(), 0xff_ffff))
                    .graphNode(desc.fromGraph() ? desc.graphNodeId() : 0).args(args));
        }
        gpuOps++;
    }

    @Override
    public void memcpy(int pid, MemcpyEvent m) {
        Proc p = timed(pid, m.start(), m.end());
        // Name id 0: the writers name a copy by its kinds ("Memcpy HtoD (Pinned -> Device)").
        out.gpuOp(p.stream(m.deviceId(), Integer.toUnsignedLong(m.streamId())).context(m.contextId()),
                op.memcpy(0, startNs, endNs, Integer.toUnsignedLong(m.correlationId()), Math.max(0, m.bytes()),
                        m.copyKind(), m.srcKind(), m.dstKind()).args(takeArgs()));
        gpuOps++;
    }

    @Override
    public void memset(int pid, MemsetEvent m) {
        Proc p = timed(pid, m.start(), m.end());
        out.gpuOp(p.stream(m.deviceId(), Integer.toUnsignedLong(m.streamId())).context(m.contextId()),
                op.memset(0, startNs, endNs, Integer.toUnsignedLong(m.correlationId()), Math.max(0, m.bytes()), m.value())
                        .args(takeArgs()));
        gpuOps++;
    }

    /** A GPU's properties from its DEVICE record, onto the process's device of that id. */
    @Override
    public void device(int pid, DeviceProperties d) {
        out.device(proc(pid).process, d);
    }

    @Override
    public void api(int pid, ApiEvent a) {
        Proc p = timed(pid, a.start(), a.end());
        ApiKind kind = ApiNames.isDriver(a.domain()) ? ApiKind.DRIVER : ApiKind.RUNTIME;
        out.apiCall(p.process.thread(Integer.toUnsignedLong(a.tid())), call.set(kind,
                timeline.intern(ApiNames.name(a)), startNs, endNs,
                Integer.toUnsignedLong(a.correlationId()), a.cbid()).args(takeArgs()));
    }

    /**
     * A host wait on the GPU, as a runtime API call named "cudaStreamSynchronize (sync)" (and kin),
     * so every export shows it where API calls go. CUPTI's synchronization record names no thread
     * and this pass keeps nothing per record to find the API record of the same call, so it goes on
     * the process's main thread (tid = pid), where an inference engine's step loop synchronizes.
     */
    @Override
    public void sync(int pid, SyncEvent s) {
        Proc p = timed(pid, s.start(), s.end());
        out.apiCall(p.process.thread(Integer.toUnsignedLong(pid)), call.set(ApiKind.RUNTIME,
                timeline.intern(SyncEvent.callName(s.type()) + " (sync)"), startNs, endNs,
                Integer.toUnsignedLong(s.correlationId()), SyncEvent.runtimeCallbackId(s.type())).args(takeArgs()));
    }

    /**
     * A trace's CPU op: a complete slice on its thread, of its own kind, labelled with its category
     * where a format shows a domain.
     */
    @Override
    public void cpuOp(int pid, CpuOpEvent c) {
        Proc p = timed(pid, c.start(), c.end());
        ThreadSliceKind kind = c.isPython() ? ThreadSliceKind.PYTHON_FUNCTION : ThreadSliceKind.CPU_OP;
        int label = kindLabels[kind.ordinal()];
        if (label == 0) {
            label = timeline.intern(kind.category());
            kindLabels[kind.ordinal()] = label;
        }
        int nameId = timeline.intern(c.name() == null ? "(unnamed CPU op)" : c.name());
        out.range(p.process.thread(Integer.toUnsignedLong(c.tid())), nextSerial++, false, nameId, startNs, endNs, label,
                kind, takeArgs());
    }

    @Override
    public void marker(int pid, MarkerEvent m) {
        EventArgs args = takeArgs();
        Proc p = proc(pid);
        long t = p.epoch(m.timestamp());
        p.touch(t, t);
        int flags = m.flags();
        if ((flags & VprofRing.MARKER_END) != 0) {
            OpenMarker open = p.openMarkers.remove(m.id());
            if (open == null) {
                markersWithoutStart++;
                return;
            }
            out.range(p.process.thread(Integer.toUnsignedLong(open.tid())), open.serial(), true, open.nameId(),
                    open.startNs(), Math.max(open.startNs(), t), open.domainId(), ThreadSliceKind.NVTX_RANGE, open.args());
            return;
        }
        int nameId = timeline.intern(m.name() == null ? "(unnamed NVTX range)" : m.name());
        int domainId = m.domain() == null ? 0 : timeline.intern(m.domain());
        if ((flags & VprofRing.MARKER_START) != 0) {
            if (p.openMarkers.size() >= MAX_OPEN_MARKERS && !p.openMarkers.containsKey(m.id())) {
                markersOverflowed++;
                return;
            }
            long serial = nextSerial++;
            OpenMarker replaced = p.openMarkers.put(m.id(), new OpenMarker(t, nameId, domainId, m.tid(), serial, args));
            if (replaced != null) { // started again before its END: the first start never ends
                out.rangeCancelled(replaced.serial());
            }
            out.rangeStarted(p.process, Integer.toUnsignedLong(m.tid()), serial, t, nameId, domainId);
        } else {
            // An instant mark: a zero-length range, which every viewer draws as a tick.
            out.range(p.process.thread(Integer.toUnsignedLong(m.tid())), nextSerial++, false, nameId, t, t, domainId,
                    ThreadSliceKind.NVTX_RANGE, args);
        }
    }

    @Override
    public void range(int pid, RangeEvent e) {
        if (e.isLateBegin() || e.isLateEnd()) {
            return; // late work of a range already drawn: its records land on their streams as usual
        }
        Proc p = proc(pid);
        long t = p.rangeEdge(e);
        if (e.isBegin()) {
            if (p.openRange != null) {
                closeRange(p, p.openRange, p.openRangeStartNs, Math.max(p.openRangeStartNs, p.lastNs), false);
            }
            p.openRange = e;
            p.openRangeStartNs = t;
            return;
        }
        if (p.openRange == null) {
            long start = Math.min(t, p.firstNs == Long.MAX_VALUE ? t : p.firstNs);
            notes.add("pid " + pid + ": capture range " + e.index() + " has an END but no BEGIN in the file; "
                    + "drawn from its first record");
            closeRange(p, e, start, t, true);
            return;
        }
        closeRange(p, p.openRange, p.openRangeStartNs, Math.max(p.openRangeStartNs, t), true);
        p.openRange = null;
    }

    private void closeRange(Proc p, RangeEvent begin, long start, long end, boolean ended) {
        if (!ended) {
            notes.add("pid " + p.pid + ": capture range " + begin.index() + " never ended (the agent or the capture "
                    + "stopped early); drawn up to its last record");
        }
        out.captureRange(p.process, new CaptureRange(begin.index(), start, end, begin.sourceName()));
        rangesStart = Math.min(rangesStart, start);
        rangesEnd = Math.max(rangesEnd, end);
    }

    /** Closes what the file left open. */
    void finish() {
        for (Proc p : procs.values()) {
            if (p.openRange != null) {
                closeRange(p, p.openRange, p.openRangeStartNs, Math.max(p.openRangeStartNs, p.lastNs), false);
                p.openRange = null;
            }
            if (!p.openMarkers.isEmpty()) {
                notes.add("pid " + p.pid + ": " + p.openMarkers.size() + " NVTX range(s) never ended; drawn up to "
                        + "the process's last record");
                long end = p.lastNs;
                p.openMarkers.values().forEach(m -> out.range(p.process.thread(Integer.toUnsignedLong(m.tid())),
                        m.serial(), true, m.nameId(), m.startNs(), Math.max(m.startNs(), end), m.domainId(),
                        ThreadSliceKind.NVTX_RANGE, m.args()));
                p.openMarkers.clear();
            }
            dataStart = Math.min(dataStart, p.firstNs);
            dataEnd = Math.max(dataEnd, p.lastNs);
        }
        if (markersWithoutStart > 0) {
            notes.add(markersWithoutStart + " NVTX range END(s) without a START in the file were left out");
        }
        if (markersOverflowed > 0) {
            notes.add(markersOverflowed + " NVTX range START(s) were left out: more than " + MAX_OPEN_MARKERS
                    + " ranges were open at once in one process");
        }
        if (clampedOps > 0) {
            notes.add(clampedOps + " record(s) ended before they started; drawn with zero length");
        }
    }

    long records() {
        return records;
    }

    private long ordered(long start, long end) {
        if (end < start) {
            clampedOps++;
            return start;
        }
        return end;
    }

    private static int clamp(int v, int max) {
        return v < 0 ? 0 : Math.min(v, max);
    }
}
