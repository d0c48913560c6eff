package dev.vprof.capture;

/** A CLOCK_SYNC record: one instant read on CUPTI's clock, CLOCK_REALTIME and CLOCK_MONOTONIC. */
public record ClockSync(long cuptiNs, long realtimeNs, long monotonicNs) {}
