package dev.vprof.capture;

import dev.vprof.bindings.VprofRing;

/**
 * A DROPS record: {@code count} records lost or kept off the timeline, by reason
 * (VprofRing.DROPS_*): dropped by CUPTI, rejected by the agent's timestamp and sanity checks, or
 * clipped (launched outside the range: not a loss). {@code recordType} is the ring type of the
 * rejected records (KERNEL, MEMCPY, MEMSET), 0 when any or unknown (always 0 in format 1).
 */
public record DropsEvent(int reason, int contextId, int streamId, int recordType, long count) {

    /** The reason as a snake_case word, the key under which reports show it. */
    public String reasonName() {
        return reasonName(reason);
    }

    public static String reasonName(int reason) {
        return switch (reason) {
            case VprofRing.DROPS_CUPTI -> "cupti";
            case VprofRing.DROPS_ZERO_TS -> "zero_timestamps";
            case VprofRing.DROPS_START_ZERO -> "start_zero";
            case VprofRing.DROPS_END_ZERO -> "end_zero";
            case VprofRing.DROPS_END_BEFORE_START -> "end_before_start";
            case VprofRing.DROPS_OUTSIDE_RANGE -> "outside_range";
            case VprofRing.DROPS_BAD_RECORD -> "bad_record";
            case VprofRing.DROPS_CLIPPED -> "clipped";
            default -> "reason_" + Integer.toUnsignedString(reason);
        };
    }

    /** True for the reasons that reject a record as invalid (not CUPTI's drops, not clipping). */
    public static boolean isInvalid(int reason) {
        return reason >= VprofRing.DROPS_ZERO_TS && reason <= VprofRing.DROPS_BAD_RECORD;
    }
}
