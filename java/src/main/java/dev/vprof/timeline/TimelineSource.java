package dev.vprof.timeline;

import java.io.IOException;

/**
 * A timeline a trace format can be written from: its layout up front, then a walk over its events.
 * A capture file streamed through a bounded reorder window per track is the one the product has
 * ({@code dev.vprof.adapt.CaptureTimeline#stream}).
 */
public interface TimelineSource {
    /** Every process, device, stream, thread, capture range, request, span and counter, and the names. */
    Timeline layout();

    /** Hands every GPU op, API call and NVTX range to {@code visitor} (order: {@link TimelineVisitor}). */
    void walk(TimelineVisitor visitor) throws IOException;
}
