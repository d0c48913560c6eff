package dev.vprof.capture;

/**
 * A CLOCK_SYNC record: one instant read on CUPTI's clock, CLOCK_REALTIME, CLOCK_MONOTONIC and
 * CLOCK_BOOTTIME. {@code boottimeNs} is 0 where the record has none (agents and files from before
 * the field, a PyTorch trace).
 */
public record ClockSync(long cuptiNs, long realtimeNs, long monotonicNs, long boottimeNs) {
    /** Whether the record says where the host's boot lies on its wall clock. */
    public boolean hasBoottime() {
        return boottimeNs != 0;
    }
}
