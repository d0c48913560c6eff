-- Nsight Systems' tables, derived by scripts/nsys-schema-facts.sh from fixtures/real:
-- nsys 2026.2.1 (export schema 3.25.0), then tables only nsys 2022.2 (2.9.1) has.
CREATE TABLE ANALYSIS_DETAILS (
    globalVid INTEGER NOT NULL,
    duration INTEGER NOT NULL,
    startTime INTEGER NOT NULL,
    stopTime INTEGER NOT NULL
);
CREATE TABLE ANALYSIS_FILE (
    id INTEGER NOT NULL PRIMARY KEY,
    filename TEXT,
    contentId INTEGER,
    globalPid INTEGER NOT NULL
);
CREATE TABLE CUPTI_ACTIVITY_KIND_CUDA_EVENT (
    timestamp INTEGER,
    deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL,
    greenContextId INTEGER,
    streamId INTEGER NOT NULL,
    correlationId INTEGER,
    globalPid INTEGER,
    eventId INTEGER NOT NULL,
    eventSyncId INTEGER
);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL,
    greenContextId INTEGER,
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
    sharedMemoryLimitConfig INTEGER,
    qmdBulkReleaseDone INTEGER,
    qmdPreexitDone INTEGER,
    qmdLastCtaDone INTEGER,
    graphId INTEGER,
    clusterX INTEGER,
    clusterY INTEGER,
    clusterZ INTEGER,
    clusterSchedulingPolicy INTEGER,
    maxPotentialClusterSize INTEGER,
    maxActiveClusters INTEGER,
    sharedMemoryRequestedPercentage INTEGER,
    tensorSizeMinusOneElements TEXT NOT NULL
);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL,
    greenContextId INTEGER,
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
    virtualAddress INTEGER,
    copyCount INTEGER
);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL,
    greenContextId INTEGER,
    streamId INTEGER NOT NULL,
    correlationId INTEGER,
    globalPid INTEGER,
    value INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    graphNodeId INTEGER,
    memKind INTEGER
);
CREATE TABLE CUPTI_ACTIVITY_KIND_OVERHEAD (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    eventClass INTEGER NOT NULL,
    globalTid INTEGER,
    correlationId INTEGER,
    nameId INTEGER,
    overheadType INTEGER NOT NULL
);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    eventClass INTEGER NOT NULL,
    globalTid INTEGER,
    correlationId INTEGER,
    nameId INTEGER NOT NULL,
    returnValue INTEGER NOT NULL,
    callchainId INTEGER
);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL,
    greenContextId INTEGER,
    streamId INTEGER NOT NULL,
    correlationId INTEGER,
    globalPid INTEGER,
    deprecatedSyncType INTEGER,
    syncType INTEGER NOT NULL,
    eventId INTEGER NOT NULL,
    eventSyncId INTEGER
);
CREATE TABLE DIAGNOSTIC_EVENT (
    timestamp INTEGER NOT NULL,
    timestampType INTEGER NOT NULL,
    source INTEGER NOT NULL,
    severity INTEGER NOT NULL,
    text TEXT NOT NULL,
    globalPid INTEGER
);
CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUDA_FUNC_CACHE_CONFIG (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUDA_KERNEL_LAUNCH_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUDA_MEMPOOL_OPER (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUDA_MEMPOOL_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUDA_MEM_KIND (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUDA_UNIF_MEM_ACCESS_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUDA_UNIF_MEM_MIGRATION (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUPTI_OVERHEAD_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUPTI_STREAM_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_CUPTI_SYNC_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_DIAGNOSTIC_SEVERITY_LEVEL (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_DIAGNOSTIC_SOURCE_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_NSYS_EVENT_CLASS (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_NSYS_EVENT_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_FIELD_TYPE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_GROUP (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_SOURCE (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT,
    label TEXT
);
CREATE TABLE META_DATA_CAPTURE (
    name TEXT NOT NULL,
    value TEXT
);
CREATE TABLE META_DATA_EXPORT (
    name TEXT NOT NULL,
    value TEXT
);
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
    textId INTEGER,
    domainId INTEGER,
    uint64Value INTEGER,
    int64Value INTEGER,
    doubleValue REAL,
    uint32Value INTEGER,
    int32Value INTEGER,
    floatValue REAL,
    jsonTextId INTEGER,
    jsonText TEXT,
    binaryData TEXT
);
CREATE TABLE NVTX_PAYLOAD_SCHEMAS (
    domainId INTEGER,
    schemaId INTEGER,
    name TEXT,
    type INTEGER,
    flags INTEGER,
    numEntries INTEGER,
    payloadSize INTEGER,
    alignTo INTEGER
);
CREATE TABLE NVTX_PAYLOAD_SCHEMA_ENTRIES (
    domainId INTEGER NOT NULL,
    schemaId INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    flags INTEGER,
    type INTEGER,
    name TEXT,
    description TEXT,
    arrayOrUnionDetail INTEGER,
    offset INTEGER
);
CREATE TABLE PROCESSES (
    globalPid INTEGER,
    pid INTEGER,
    name TEXT
);
CREATE TABLE PROFILER_OVERHEAD (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    globalTid INTEGER,
    nameId INTEGER NOT NULL,
    overheadType INTEGER NOT NULL
);
CREATE TABLE ProcessStreams (
    globalPid INTEGER NOT NULL,
    filenameId INTEGER NOT NULL,
    contentId INTEGER NOT NULL
);
CREATE TABLE StringIds (
    id INTEGER NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE TARGET_INFO_CUDA_STREAM (
    streamId INTEGER NOT NULL,
    hwId INTEGER NOT NULL,
    vmId INTEGER NOT NULL,
    processId INTEGER NOT NULL,
    contextId INTEGER NOT NULL,
    priority INTEGER NOT NULL,
    flag INTEGER NOT NULL
);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs INTEGER,
    utcTime TEXT,
    localTime TEXT,
    systemClockNs INTEGER
);
CREATE TABLE TARGET_INFO_SYSTEM_ENV (
    globalVid INTEGER,
    devStateName TEXT NOT NULL,
    name TEXT NOT NULL,
    nameEnum INTEGER NOT NULL,
    value TEXT NOT NULL
);
CREATE TABLE ThreadNames (
    nameId INTEGER NOT NULL,
    priority INTEGER,
    globalTid INTEGER
);
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
    smMinor INTEGER
);
CREATE TABLE CUDA_CALLCHAINS (
    id INTEGER NOT NULL,
    symbol INTEGER NOT NULL,
    module INTEGER NOT NULL,
    unresolved INTEGER,
    originalIP INTEGER,
    stackDepth INTEGER NOT NULL,
    PRIMARY KEY (id, stackDepth)
);
CREATE TABLE OSRT_API (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    eventClass INTEGER NOT NULL,
    globalTid INTEGER,
    nameId INTEGER NOT NULL,
    returnValue INTEGER NOT NULL,
    nestingLevel INTEGER,
    callchainId INTEGER NOT NULL
);
CREATE TABLE OSRT_CALLCHAINS (
    id INTEGER NOT NULL,
    symbol INTEGER NOT NULL,
    module INTEGER NOT NULL,
    kernelMode INTEGER,
    thumbCode INTEGER,
    unresolved INTEGER,
    specialEntry INTEGER,
    originalIP INTEGER,
    unwindMethod INTEGER,
    stackDepth INTEGER NOT NULL,
    PRIMARY KEY (id, stackDepth)
);
CREATE TABLE CUDA_GRAPH_EVENTS (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    eventClass INTEGER NOT NULL,
    globalTid INTEGER,
    nameId INTEGER NOT NULL,
    graphNodeId INTEGER NOT NULL,
    originalGraphNodeId INTEGER
);
CREATE TABLE EXPORT_META_DATA (
    name TEXT NOT NULL,
    value TEXT
);
