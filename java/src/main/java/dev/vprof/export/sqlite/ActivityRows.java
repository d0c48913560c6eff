package dev.vprof.export.sqlite;

import dev.vprof.capture.EventArgs;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuOpKind;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.StringTable;
import dev.vprof.timeline.ThreadSliceKind;
import dev.vprof.timeline.TimelineVisitor;
import dev.vprof.trace.TorchTraceImport;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The walk's events as rows of the big tables, written straight into their B-trees
 * ({@link TableBTree}): kernels, copies and sets ({@code CUPTI_ACTIVITY_KIND_KERNEL}, {@code _MEMCPY},
 * {@code _MEMSET}), CUDA runtime and driver calls ({@code _RUNTIME}), NVTX ranges ({@code NVTX_EVENTS},
 * with a {@code NvtxDomainCreate} row per domain), and a PyTorch trace's CPU ops, Python functions and
 * GPU annotations in tables of their own. Every column is Nsight Systems' (the fact file's order); each table's row is set
 * once with the constants and NULLs, then only the columns an event changes. Times are ns since the
 * session start ({@code base}).
 */
final class ActivityRows implements TimelineVisitor {
    /** The tables this writes, by name, with their root pages. */
    static final String KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL";
    static final String MEMCPY = "CUPTI_ACTIVITY_KIND_MEMCPY";
    static final String MEMSET = "CUPTI_ACTIVITY_KIND_MEMSET";
    static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";
    static final String NVTX = "NVTX_EVENTS";
    static final String CPU_OPS = "VPROF_CPU_OPS";
    static final String PYTHON_FUNCTIONS = "VPROF_PYTHON_FUNCTIONS";
    static final String GPU_ANNOTATIONS = "VPROF_GPU_ANNOTATIONS";

    private final long base;
    private final StringIds strings;
    private final ThreadIds threads;
    private final StringTable names;

    private final TableBTree kernels;
    private final TableBTree memcpys;
    private final TableBTree memsets;
    private final TableBTree runtime;
    private final TableBTree nvtx;
    /** A PyTorch trace's events that are not NVTX: CPU ops, Python functions, GPU annotations (same columns). */
    private final TableBTree[] traceEvents = new TableBTree[4];
    private final Table k;
    private final Table mc;
    private final Table ms;
    private final Table rt;
    private final Table nv;
    private final Table cpu;
    /** NVTX domains used (database string id), each with the thread that first used it. */
    private final Map<Integer, Long> domains = new LinkedHashMap<>();
    /** Per timeline domain id: 0 NVTX, else the index in {@link #traceEvents} (-1: not yet looked at). */
    private byte[] domainKinds = new byte[0];
    private long lastEnd = Long.MIN_VALUE;

    /** One table's B-tree with its row and the positions of the columns an event sets. */
    private static final class Table {
        final NsysSchema.Table schema;
        final Row row;

        Table(NsysSchema.Table schema, TableBTree tree) {
            this.schema = schema;
            this.row = tree.row(schema.columns().size());
        }

        int c(String column) {
            return schema.column(column);
        }
    }

    /** {@code roots}: each table's root page, as {@code sqlite_schema} names it. */
    ActivityRows(SqliteFile file, Map<String, Integer> roots, long base, StringIds strings, ThreadIds threads,
                 StringTable names) {
        this.base = base;
        this.strings = strings;
        this.threads = threads;
        this.names = names;
        kernels = new TableBTree(file, roots.get(KERNEL));
        memcpys = new TableBTree(file, roots.get(MEMCPY));
        memsets = new TableBTree(file, roots.get(MEMSET));
        runtime = new TableBTree(file, roots.get(RUNTIME));
        nvtx = new TableBTree(file, roots.get(NVTX));
        traceEvents[1] = new TableBTree(file, roots.get(CPU_OPS));
        traceEvents[2] = new TableBTree(file, roots.get(PYTHON_FUNCTIONS));
        traceEvents[3] = new TableBTree(file, roots.get(GPU_ANNOTATIONS));
        k = new Table(NsysSchema.table(KERNEL), kernels);
        mc = new Table(NsysSchema.table(MEMCPY), memcpys);
        ms = new Table(NsysSchema.table(MEMSET), memsets);
        rt = new Table(NsysSchema.table(RUNTIME), runtime);
        nv = new Table(NsysSchema.table(NVTX), nvtx);
        // The three tables have the same columns: one row serves them all.
        cpu = new Table(NsysSchema.table(CPU_OPS), traceEvents[1]);
        constants();
        resolveColumns();
    }

    /** The columns vprof does not record but nsys declares NOT NULL or always writes (docs/sqlite.md). */
    private void constants() {
        Row r = k.row;
        r.set(k.c("launchType"), NsysSchema.LAUNCH_TYPE_REGULAR);
        r.set(k.c("cacheConfig"), NsysSchema.CACHE_CONFIG_AS_NSYS_WRITES);
        r.set(k.c("sharedMemoryLimitConfig"), NsysSchema.SHARED_MEM_LIMIT_DEFAULT);
        // The agent records static and dynamic shared memory as one sum: written as static.
        r.set(k.c("dynamicSharedMemory"), 0);
        r.set(k.c("localMemoryPerThread"), 0);
        r.set(k.c("localMemoryTotal"), 0);
        r.set(k.c("gridId"), 0);
        r.set(k.c("tensorSizeMinusOneElements"), NsysSchema.NO_TENSOR_DESCRIPTOR);
        ms.row.set(ms.c("memKind"), NsysSchema.MEMORY_KIND_UNKNOWN);
        rt.row.set(rt.c("returnValue"), 0);
        nv.row.set(nv.c("eventType"), NsysSchema.NVTX_PUSH_POP_RANGE);
    }

    // Column positions, resolved once: the walk sets them millions of times.
    private int kStart, kEnd, kDevice, kContext, kStream, kCorrelation, kPid, kDemangled, kShort, kMangled,
            kRegisters, kGridX, kGridY, kGridZ, kBlockX, kBlockY, kBlockZ, kStatic, kNode;
    private int mStart, mEnd, mDevice, mContext, mStream, mCorrelation, mPid, mBytes, mKind, mSrc, mDst, mNode;
    private int sStart, sEnd, sDevice, sContext, sStream, sCorrelation, sPid, sValue, sBytes, sNode;
    private int rStart, rEnd, rClass, rTid, rCorrelation, rName;
    private int nStart, nEnd, nType, nText, nTid, nTextId, nDomain;
    private int cStart, cEnd, cTid, cName;

    private void resolveColumns() {
        kStart = k.c("start");
        kEnd = k.c("end");
        kDevice = k.c("deviceId");
        kContext = k.c("contextId");
        kStream = k.c("streamId");
        kCorrelation = k.c("correlationId");
        kPid = k.c("globalPid");
        kDemangled = k.c("demangledName");
        kShort = k.c("shortName");
        kMangled = k.c("mangledName");
        kRegisters = k.c("registersPerThread");
        kGridX = k.c("gridX");
        kGridY = k.c("gridY");
        kGridZ = k.c("gridZ");
        kBlockX = k.c("blockX");
        kBlockY = k.c("blockY");
        kBlockZ = k.c("blockZ");
        kStatic = k.c("staticSharedMemory");
        kNode = k.c("graphNodeId");
        mStart = mc.c("start");
        mEnd = mc.c("end");
        mDevice = mc.c("deviceId");
        mContext = mc.c("contextId");
        mStream = mc.c("streamId");
        mCorrelation = mc.c("correlationId");
        mPid = mc.c("globalPid");
        mBytes = mc.c("bytes");
        mKind = mc.c("copyKind");
        mSrc = mc.c("srcKind");
        mDst = mc.c("dstKind");
        mNode = mc.c("graphNodeId");
        sStart = ms.c("start");
        sEnd = ms.c("end");
        sDevice = ms.c("deviceId");
        sContext = ms.c("contextId");
        sStream = ms.c("streamId");
        sCorrelation = ms.c("correlationId");
        sPid = ms.c("globalPid");
        sValue = ms.c("value");
        sBytes = ms.c("bytes");
        sNode = ms.c("graphNodeId");
        rStart = rt.c("start");
        rEnd = rt.c("end");
        rClass = rt.c("eventClass");
        rTid = rt.c("globalTid");
        rCorrelation = rt.c("correlationId");
        rName = rt.c("nameId");
        nStart = nv.c("start");
        nEnd = nv.c("end");
        nType = nv.c("eventType");
        nText = nv.c("text");
        nTid = nv.c("globalTid");
        nTextId = nv.c("textId");
        nDomain = nv.c("domainId");
        cStart = cpu.c("start");
        cEnd = cpu.c("end");
        cTid = cpu.c("globalTid");
        cName = cpu.c("nameId");
    }

    private long t(long epochNs) {
        if (epochNs > lastEnd) {
            lastEnd = epochNs;
        }
        return epochNs - base;
    }

    /** The latest time any row holds (ns since the session start), or -1 when none. */
    long lastTime() {
        return lastEnd == Long.MIN_VALUE ? -1 : lastEnd - base;
    }

    @Override
    public void gpuOp(GpuStream stream, GpuOp op) throws IOException {
        GpuOpKind kind = op.kind();
        long corr = op.correlationId();
        long node = op.graphNodeId();
        int device = stream.device().deviceId();
        int context = Math.max(0, stream.contextId());
        long pid = NsysSchema.globalPid(stream.device().process().pid());
        if (kind == GpuOpKind.KERNEL) {
            int name = op.nameId();
            Row r = k.row;
            r.set(kStart, t(op.start())).set(kEnd, t(op.end())).set(kDevice, device).set(kContext, context)
                    .set(kStream, stream.streamId()).set(kCorrelation, corr, corr == 0).set(kPid, pid)
                    .set(kDemangled, strings.demangled(name)).set(kShort, strings.shortName(name))
                    .set(kMangled, strings.ofTimeline(name)).set(kRegisters, op.registersPerThread())
                    .set(kGridX, op.gridX()).set(kGridY, op.gridY()).set(kGridZ, op.gridZ())
                    .set(kBlockX, op.blockX()).set(kBlockY, op.blockY()).set(kBlockZ, op.blockZ())
                    .set(kStatic, op.sharedMemoryBytes()).set(kNode, node, node == 0);
            kernels.add(r);
        } else if (kind == GpuOpKind.MEMCPY) {
            Row r = mc.row;
            r.set(mStart, t(op.start())).set(mEnd, t(op.end())).set(mDevice, device).set(mContext, context)
                    .set(mStream, stream.streamId()).set(mCorrelation, corr, corr == 0).set(mPid, pid)
                    .set(mBytes, op.bytes()).set(mKind, op.copyKind())
                    .set(mSrc, NsysSchema.memoryKind(op.srcMemoryKind()))
                    .set(mDst, NsysSchema.memoryKind(op.dstMemoryKind())).set(mNode, node, node == 0);
            memcpys.add(r);
        } else {
            Row r = ms.row;
            r.set(sStart, t(op.start())).set(sEnd, t(op.end())).set(sDevice, device).set(sContext, context)
                    .set(sStream, stream.streamId()).set(sCorrelation, corr, corr == 0).set(sPid, pid)
                    .set(sValue, op.memsetValue()).set(sBytes, op.bytes()).set(sNode, node, node == 0);
            memsets.add(r);
        }
    }

    @Override
    public void apiCall(CpuThread thread, ApiCall call) throws IOException {
        long corr = call.correlationId();
        Row r = rt.row;
        r.set(rStart, t(call.start())).set(rEnd, t(call.end()))
                .set(rClass, call.kind() == ApiKind.DRIVER ? NsysSchema.EVENT_CLASS_DRIVER : NsysSchema.EVENT_CLASS_RUNTIME)
                .set(rTid, threads.globalTid(thread)).set(rCorrelation, corr, corr == 0)
                .set(rName, strings.ofTimeline(call.nameId()));
        runtime.add(r);
    }

    @Override
    public void threadSlice(CpuThread thread, ThreadSliceKind sliceKind, int nameId, long startNs, long endNs,
                            int domainId, EventArgs args) throws IOException {
        long gtid = threads.globalTid(thread);
        int kind = switch (sliceKind) {
            case CPU_OP -> 1;
            case PYTHON_FUNCTION -> 2;
            case NVTX_RANGE -> isGpuAnnotation(domainId) ? 3 : 0;
        };
        if (kind != 0) {
            cpu.row.set(cStart, t(startNs)).set(cEnd, t(endNs)).set(cTid, gtid).set(cName, strings.ofTimeline(nameId));
            traceEvents[kind].add(cpu.row);
            return;
        }
        // Nsight Systems numbers a domain by an id of its own; vprof's is the domain name's string id.
        int domain = domainId == 0 ? 0 : strings.ofTimeline(domainId);
        if (domain != 0) {
            domains.putIfAbsent(domain, gtid);
        }
        nv.row.set(nStart, t(startNs)).set(nEnd, t(endNs)).set(nTid, gtid).set(nTextId, strings.ofTimeline(nameId))
                .set(nDomain, domain);
        nvtx.add(nv.row);
    }

    /**
     * Whether ranges of timeline domain {@code domainId} are a PyTorch trace's GPU annotations (the
     * trace reader's domain {@link TorchTraceImport#DOMAIN_GPU_ANNOTATION}), kept in their own table;
     * CPU ops and Python functions come as slices of their own kind.
     */
    private boolean isGpuAnnotation(int domainId) {
        if (domainId == 0) {
            return false;
        }
        if (domainId >= domainKinds.length) {
            int old = domainKinds.length;
            domainKinds = Arrays.copyOf(domainKinds, Math.max(domainId + 1, old * 2 + 16));
            Arrays.fill(domainKinds, old, domainKinds.length, (byte) -1);
        }
        if (domainKinds[domainId] < 0) {
            domainKinds[domainId] = (byte) (TorchTraceImport.DOMAIN_GPU_ANNOTATION.equals(names.get(domainId)) ? 1 : 0);
        }
        return domainKinds[domainId] == 1;
    }

    /** After the walk: a {@code NvtxDomainCreate} row per domain used, then every tree's upper pages. */
    void finish() throws IOException {
        Row r = nv.row;
        r.clear().set(nType, NsysSchema.NVTX_DOMAIN_CREATE).set(nStart, 0);
        for (Map.Entry<Integer, Long> d : domains.entrySet()) {
            r.set(nText, strings.get(d.getKey())).set(nTid, d.getValue()).set(nDomain, d.getKey());
            nvtx.add(r);
        }
        for (TableBTree tree : new TableBTree[] {kernels, memcpys, memsets, runtime, nvtx, traceEvents[1],
                traceEvents[2], traceEvents[3]}) {
            tree.finish();
        }
    }

    /** Rows written: kernels, copies, sets, API calls, NVTX ranges (domain rows not counted), a trace's other events. */
    long kernels() {
        return kernels.rows();
    }

    long memcpys() {
        return memcpys.rows();
    }

    long memsets() {
        return memsets.rows();
    }

    long apiCalls() {
        return runtime.rows();
    }

    long nvtxRanges() {
        return nvtx.rows() - domains.size();
    }

    long cpuOps() {
        return traceEvents[1].rows();
    }

    long traceEvents() {
        return traceEvents[1].rows() + traceEvents[2].rows() + traceEvents[3].rows();
    }
}
