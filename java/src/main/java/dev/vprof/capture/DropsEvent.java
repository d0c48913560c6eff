package dev.vprof.capture;

/**
 * A DROPS record: {@code count} records CUPTI reported dropped (reason
 * VprofRing.DROPS_CUPTI) or kernels that came with start = end = 0 (DROPS_ZERO_TS).
 */
public record DropsEvent(int reason, int contextId, int streamId, long count) {}
