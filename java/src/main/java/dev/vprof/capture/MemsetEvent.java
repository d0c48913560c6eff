package dev.vprof.capture;

/** A MEMSET record. Times are CUPTI ns. */
public record MemsetEvent(
        long start,
        long end,
        long bytes,
        int correlationId,
        int deviceId,
        int contextId,
        int streamId,
        int value) {}
