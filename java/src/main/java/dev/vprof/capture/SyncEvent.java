package dev.vprof.capture;

import dev.vprof.bindings.CuptiCallbackIds;
import dev.vprof.bindings.VprofRing;

/**
 * A SYNC record: the host blocked in a synchronize call from {@code start} to {@code end} (CUPTI
 * ns) until the GPU work it waited for was done. {@code type} is one of
 * {@code VprofRing.SYNC_*} (CUPTI's synchronization types); {@code streamId} and {@code eventId}
 * are {@code (int) VprofRing.SYNC_NONE} where the type has none. CUPTI's record names no thread:
 * an API record of the same call (same correlation id) does.
 */
public record SyncEvent(long start, long end, int correlationId, int type, int contextId, int streamId,
        int eventId) {

    /** Whether the stream id names a stream (a stream synchronize or wait). */
    public boolean hasStream() {
        return streamId != (int) VprofRing.SYNC_NONE;
    }

    /** Whether the event id names an event (an event synchronize or stream wait). */
    public boolean hasEvent() {
        return eventId != (int) VprofRing.SYNC_NONE;
    }

    /**
     * The CUPTI runtime callback id of the call a synchronization of this type comes from (its name:
     * {@code CuptiCallbackIds.runtimeName}), or 0 for an unknown type. A driver call
     * (cuStreamSynchronize) makes the same record: the runtime name is the one a reader looks for.
     */
    public static int runtimeCallbackId(int type) {
        return switch (type) {
            case VprofRing.SYNC_EVENT_SYNCHRONIZE -> 137;
            case VprofRing.SYNC_STREAM_WAIT_EVENT -> 147;
            case VprofRing.SYNC_STREAM_SYNCHRONIZE -> 131;
            case VprofRing.SYNC_CONTEXT_SYNCHRONIZE -> 165;
            default -> 0;
        };
    }

    /** The CUDA runtime call a synchronization of this type comes from, e.g. "cudaStreamSynchronize". */
    public static String callName(int type) {
        String name = CuptiCallbackIds.runtimeName(runtimeCallbackId(type));
        return name != null ? name : "cudaSynchronize (type " + type + ")";
    }
}
