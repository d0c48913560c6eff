package dev.vprof.capture;

/** A MEMCPY record. Times are CUPTI ns; copyKind follows CUpti_ActivityMemcpyKind (1 HtoD, 2 DtoH, 8 DtoD). */
public record MemcpyEvent(
        long start,
        long end,
        long bytes,
        int correlationId,
        int deviceId,
        int contextId,
        int streamId,
        int copyKind,
        int srcKind,
        int dstKind,
        int flags) {}
