package dev.vprof.export;

import java.util.List;

/**
 * The tables of the SQLite export: Nsight Systems' own (names, columns and NOT NULL constraints as
 * its export schema 2.9.1 has them, so SQL written for {@code nsys export --type sqlite} runs
 * unchanged) for what vprof has, and vprof's own, prefixed {@code VPROF_}, for the rest. What each
 * column holds, and the defaults where vprof does not record a NOT NULL column, are in
 * docs/sqlite.md. Ids are encoded as Nsight Systems encodes them ({@link #globalPid},
 * {@link #globalTid}).
 */
final class NsysSchema {
    private NsysSchema() {}

    /** The version of Nsight Systems' export schema the nsys tables follow. */
    static final String NSYS_SCHEMA_VERSION = "2.9.1";
    /** The version of the {@code VPROF_} tables. */
    static final String VPROF_SCHEMA_VERSION = "1";

    /**
     * Nsight Systems' serialized GlobalId: hardware id (bits 56..63), VM id (48..55), pid (24..47),
     * tid (0..23). A single-host capture is hardware 0, VM 1, as Nsight Systems numbers it.
     */
    static final long VM = 1L << 48;

    static long globalPid(int pid) {
        return VM | ((long) pid & 0xFF_FFFFL) << 24;
    }

    static long globalTid(int pid, long tid) {
        return globalPid(pid) | (tid & 0xFF_FFFFL);
    }

    /** NVTX_EVENTS.eventType values (Nsight Systems' event types). */
    static final int NVTX_PUSH_POP_RANGE = 59;
    static final int NVTX_DOMAIN_CREATE = 75;

    /** CUPTI_ACTIVITY_KIND_RUNTIME.eventClass: a CUDA runtime call, a CUDA driver call. */
    static final int EVENT_CLASS_RUNTIME = 0;
    static final int EVENT_CLASS_DRIVER = 1;

    /**
     * CUPTI's CUpti_ActivityMemoryKind (1 pageable, 2 pinned, 3 device, 4 array, 5 managed, 6 device
     * static, 7 managed static; 0 not recorded) as Nsight Systems' CUDA_MEMOPR_MEMORY_KIND (0 pageable,
     * 1 pinned, 2 device, 3 array, 4 managed, 5 device static, 6 managed static); null when unknown.
     */
    static Integer memoryKind(int cuptiKind) {
        return cuptiKind >= 1 && cuptiKind <= 7 ? cuptiKind - 1 : null;
    }

    /** Every table written, with its columns: the nsys ones as in export schema 2.9.1. */
    static final List<String> TABLES = List.of(
            """
            CREATE TABLE StringIds (
                id INTEGER NOT NULL PRIMARY KEY,
                value TEXT NOT NULL)""",
            """
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                deviceId INTEGER NOT NULL,
                contextId INTEGER NOT NULL,
                streamId INTEGER NOT NULL,
                correlationId INTEGER,
                globalPid INTEGER,
                demangledName INTEGER NOT NULL,
                shortName INTEGER NOT NULL,
                mangledName INTEGER,
                launchType INTEGER,
                cacheConfig INTEGER,
                registersPerThread INTEGER NOT NULL,
                gridX INTEGER NOT NULL,
                gridY INTEGER NOT NULL,
                gridZ INTEGER NOT NULL,
                blockX INTEGER NOT NULL,
                blockY INTEGER NOT NULL,
                blockZ INTEGER NOT NULL,
                staticSharedMemory INTEGER NOT NULL,
                dynamicSharedMemory INTEGER NOT NULL,
                localMemoryPerThread INTEGER NOT NULL,
                localMemoryTotal INTEGER NOT NULL,
                gridId INTEGER NOT NULL,
                sharedMemoryExecuted INTEGER,
                graphNodeId INTEGER,
                sharedMemoryLimitConfig INTEGER)""",
            """
            CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                deviceId INTEGER NOT NULL,
                contextId INTEGER NOT NULL,
                streamId INTEGER NOT NULL,
                correlationId INTEGER,
                globalPid INTEGER,
                bytes INTEGER NOT NULL,
                copyKind INTEGER NOT NULL,
                deprecatedSrcId INTEGER,
                srcKind INTEGER,
                dstKind INTEGER,
                srcDeviceId INTEGER,
                srcContextId INTEGER,
                dstDeviceId INTEGER,
                dstContextId INTEGER,
                migrationCause INTEGER,
                graphNodeId INTEGER,
                virtualAddress INTEGER)""",
            """
            CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                deviceId INTEGER NOT NULL,
                contextId INTEGER NOT NULL,
                streamId INTEGER NOT NULL,
                correlationId INTEGER,
                globalPid INTEGER,
                value INTEGER NOT NULL,
                bytes INTEGER NOT NULL,
                graphNodeId INTEGER,
                memKind INTEGER)""",
            """
            CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                eventClass INTEGER NOT NULL,
                globalTid INTEGER,
                correlationId INTEGER,
                nameId INTEGER NOT NULL REFERENCES StringIds(id),
                returnValue INTEGER NOT NULL,
                callchainId INTEGER)""",
            """
            CREATE TABLE NVTX_EVENTS (
                start INTEGER NOT NULL,
                end INTEGER,
                eventType INTEGER NOT NULL,
                rangeId INTEGER,
                category INTEGER,
                color INTEGER,
                text TEXT,
                globalTid INTEGER,
                endGlobalTid INTEGER,
                textId INTEGER REFERENCES StringIds(id),
                domainId INTEGER,
                uint64Value INTEGER,
                int64Value INTEGER,
                doubleValue REAL,
                uint32Value INTEGER,
                int32Value INTEGER,
                floatValue REAL,
                jsonTextId INTEGER,
                jsonText TEXT)""",
            """
            CREATE TABLE ThreadNames (
                nameId INTEGER NOT NULL REFERENCES StringIds(id),
                priority INTEGER,
                globalTid INTEGER)""",
            """
            CREATE TABLE PROCESSES (
                globalPid INTEGER,
                pid INTEGER,
                name TEXT)""",
            """
            CREATE TABLE TARGET_INFO_GPU (
                vmId INTEGER NOT NULL,
                id INTEGER NOT NULL,
                name TEXT,
                busLocation TEXT,
                isDiscrete INTEGER,
                l2CacheSize INTEGER,
                totalMemory INTEGER,
                memoryBandwidth INTEGER,
                clockRate INTEGER,
                smCount INTEGER,
                pwGpuId INTEGER,
                uuid TEXT,
                luid INTEGER,
                chipName TEXT,
                cuDevice INTEGER,
                ctxswDevPath TEXT,
                ctrlDevPath TEXT,
                revision INTEGER,
                nodeMask INTEGER,
                constantMemory INTEGER,
                maxIPC INTEGER,
                maxRegistersPerBlock INTEGER,
                maxShmemPerBlock INTEGER,
                maxShmemPerBlockOptin INTEGER,
                maxShmemPerSm INTEGER,
                maxRegistersPerSm INTEGER,
                threadsPerWarp INTEGER,
                asyncEngines INTEGER,
                maxWarpsPerSm INTEGER,
                maxBlocksPerSm INTEGER,
                maxThreadsPerBlock INTEGER,
                maxBlockDimX INTEGER,
                maxBlockDimY INTEGER,
                maxBlockDimZ INTEGER,
                maxGridDimX INTEGER,
                maxGridDimY INTEGER,
                maxGridDimZ INTEGER,
                computeMajor INTEGER,
                computeMinor INTEGER,
                smMajor INTEGER,
                smMinor INTEGER)""",
            """
            CREATE TABLE TARGET_INFO_SESSION_START_TIME (
                utcEpochNs INTEGER,
                utcTime TEXT,
                localTime TEXT)""",
            """
            CREATE TABLE EXPORT_META_DATA (
                name TEXT NOT NULL,
                value TEXT)""",
            // vprof records no graph or node creation calls, so no rows; the table is there for
            // the kernels' graphNodeId to refer to, as in Nsight Systems' schema.
            """
            CREATE TABLE CUDA_GRAPH_EVENTS (
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                eventClass INTEGER NOT NULL,
                globalTid INTEGER,
                nameId INTEGER NOT NULL REFERENCES StringIds(id),
                graphNodeId INTEGER NOT NULL,
                originalGraphNodeId INTEGER)""",
            // ---- vprof's own ----
            """
            CREATE TABLE VPROF_CAPTURE_FACTS (
                name TEXT NOT NULL,
                value TEXT)""",
            """
            CREATE TABLE VPROF_CAPTURE_RANGES (
                globalPid INTEGER NOT NULL,
                pid INTEGER NOT NULL,
                rangeIndex INTEGER NOT NULL,
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                source TEXT)""",
            """
            CREATE TABLE VPROF_DROPS (
                globalPid INTEGER NOT NULL,
                pid INTEGER NOT NULL,
                rangeIndex INTEGER NOT NULL,
                rangeSource TEXT,
                reason TEXT NOT NULL,
                count INTEGER NOT NULL)""",
            """
            CREATE TABLE VPROF_REQUESTS (
                id INTEGER NOT NULL PRIMARY KEY,
                traceId TEXT,
                spanId TEXT,
                name TEXT,
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                attributes TEXT)""",
            """
            CREATE TABLE VPROF_REQUEST_PHASES (
                requestId INTEGER NOT NULL REFERENCES VPROF_REQUESTS(id),
                phase TEXT NOT NULL,
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                gpuNs INTEGER)""",
            """
            CREATE TABLE VPROF_SPANS (
                traceId TEXT,
                spanId TEXT,
                parentSpanId TEXT,
                service TEXT,
                name TEXT,
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                attributes TEXT)""",
            """
            CREATE TABLE VPROF_METRIC_SAMPLES (
                name TEXT NOT NULL,
                kind TEXT NOT NULL,
                unit TEXT,
                timestamp INTEGER NOT NULL,
                value REAL)""");

    /** Built after the load (faster than keeping them up to date row by row). */
    static final List<String> INDEXES = List.of(
            "CREATE INDEX VPROF_KERNEL_CORRELATION ON CUPTI_ACTIVITY_KIND_KERNEL(correlationId)",
            "CREATE INDEX VPROF_RUNTIME_CORRELATION ON CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)",
            "CREATE INDEX VPROF_MEMCPY_CORRELATION ON CUPTI_ACTIVITY_KIND_MEMCPY(correlationId)",
            "CREATE INDEX VPROF_MEMSET_CORRELATION ON CUPTI_ACTIVITY_KIND_MEMSET(correlationId)");

    /**
     * A kernel's function name without return type, scope, template and call arguments, as
     * Nsight Systems' shortName: {@code void vllm::rms_norm_kernel<c10::BFloat16>(float*, int)}
     * is {@code rms_norm_kernel}, {@code saxpy(double *, int)} is {@code saxpy}. A name it cannot
     * take apart is returned whole.
     */
    static String shortName(String demangled) {
        if (demangled == null || demangled.isEmpty()) {
            return demangled == null ? "" : demangled;
        }
        String s = demangled.strip();
        int end = s.length();
        // Trailing qualifiers after the argument list (" const").
        int close = s.lastIndexOf(')');
        if (close > 0 && s.substring(close + 1).isBlank()) {
            int open = matching(s, close, '(', ')');
            if (open > 0) {
                end = open;
            }
        }
        s = s.substring(0, end).strip();
        if (s.endsWith(">")) {
            int open = matching(s, s.length() - 1, '<', '>');
            if (open > 0) {
                s = s.substring(0, open).strip();
            }
        }
        // The return type ends at the last space outside brackets.
        int depth = 0;
        int cut = -1;
        for (int i = s.length() - 1; i >= 0; i--) {
            char c = s.charAt(i);
            if (c == '>' || c == ')' || c == ']' || c == '}') {
                depth++;
            } else if (c == '<' || c == '(' || c == '[' || c == '{') {
                depth--;
            } else if (depth == 0 && c == ' ') {
                cut = i;
                break;
            } else if (depth == 0 && c == ':' && i > 0 && s.charAt(i - 1) == ':') {
                cut = i;
                break;
            }
        }
        String name = cut >= 0 ? s.substring(cut + 1) : s;
        return name.isBlank() ? demangled : name;
    }

    /** The index of the {@code open} matching the {@code close} at {@code at}, or -1. */
    private static int matching(String s, int at, char open, char close) {
        int depth = 0;
        for (int i = at; i >= 0; i--) {
            char c = s.charAt(i);
            if (c == close) {
                depth++;
            } else if (c == open && --depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
