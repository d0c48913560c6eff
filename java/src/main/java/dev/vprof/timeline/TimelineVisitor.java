package dev.vprof.timeline;

import dev.vprof.capture.EventArgs;
import java.io.IOException;

/**
 * What a walk over a timeline hands a trace format ({@link TimelineSource#walk}). The layout (every
 * process, device, stream, thread, capture range, request, span and counter) is known before the
 * walk starts; the walk then hands out the events:
 *
 * <ul>
 *   <li>each GPU stream's ops and each thread's API calls in slice order (start ascending, a longer
 *       slice before one that starts with it, else in the order they were recorded);
 *   <li>each NVTX range once complete, in no particular order ({@link #range});
 *   <li>when {@link #nestedRanges()} says so, each thread's ranges also as begin and end events in
 *       time order, already nested: a range that outlives its parent ends with it (it is clamped,
 *       and {@link #rangeClamped} says so).
 * </ul>
 *
 * <p>Across tracks there is no order: a format that needs one per track (Perfetto's sequences)
 * keeps state per track. The {@link GpuOp} and {@link ApiCall} handed out are views reused for the
 * next event: read them before returning.
 */
public interface TimelineVisitor {
    void gpuOp(GpuStream stream, GpuOp op) throws IOException;

    void apiCall(CpuThread thread, ApiCall call) throws IOException;

    /** A complete NVTX range ({@code domainId} 0: the default domain). */
    default void range(CpuThread thread, int nameId, long startNs, long endNs, int domainId) throws IOException {}

    /**
     * A complete slice of a host thread's range track: an NVTX range, or a CPU op ({@code kind}),
     * with the source's fields no record holds ({@code args}, null when none or when
     * {@link #wantsEventArgs()} is false). By default it is handed to {@link #range}: a CPU op with
     * its kind's category as its domain label ({@code domainId}), so a format without kinds still
     * shows it where a range goes.
     */
    default void threadSlice(CpuThread thread, ThreadSliceKind kind, int nameId, long startNs, long endNs,
                             int domainId, EventArgs args) throws IOException {
        range(thread, nameId, startNs, endNs, domainId);
    }

    /** Whether the walk reads the source's fields no record holds ({@link SliceView#args()}): they cost a decode per event. */
    default boolean wantsEventArgs() {
        return false;
    }

    /** Whether to hand out ranges as nested begin/end events too (costs a little; Perfetto wants them). */
    default boolean nestedRanges() {
        return false;
    }

    /** A range begins on {@code thread} (nested ranges only). */
    default void rangeBegin(CpuThread thread, long ts, int nameId, int domainId) throws IOException {}

    /** The innermost open range of {@code thread} ends (nested ranges only). */
    default void rangeEnd(CpuThread thread, long ts) throws IOException {}

    /** A range of {@code thread} was cut short to end with the range around it (nested ranges only). */
    default void rangeClamped(CpuThread thread) {}
}
