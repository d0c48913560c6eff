package dev.vprof.adapt;

import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.EventArgs;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ThreadSliceKind;
import dev.vprof.timeline.TimelineProcess;

/**
 * Where {@link RecordAdapter} puts what it maps, on epoch ns and the timeline's tracks: into the
 * layout pass ({@code StreamedCapture.TrackTimes}) or into a streamed walk ({@link StreamedCapture}).
 * The views handed over ({@link GpuOp}, {@link ApiCall}) are reused for the next record.
 */
interface AdaptedRecords {
    void gpuOp(GpuStream stream, GpuOp op);

    void apiCall(CpuThread thread, ApiCall call);

    /**
     * An NVTX range starts on thread {@code tid} of {@code process} (which may not have a thread of
     * that tid yet: threads appear in the order their first slice is complete). {@code serial}
     * names the range until it ends.
     */
    void rangeStarted(TimelineProcess process, long tid, long serial, long startNs, int nameId, int domainId);

    /** The range {@code serial} was started again under the same id before it ended: it never ends. */
    void rangeCancelled(long serial);

    /**
     * A complete slice of a thread's range track: an NVTX range that started ({@code started}) and
     * now ended, an instant mark (start = end, no start handed out before), or a CPU op ({@code
     * kind}, never started before), with the source's fields no record holds ({@code args}, or null).
     */
    void range(CpuThread thread, long serial, boolean started, int nameId, long startNs, long endNs, int domainId,
               ThreadSliceKind kind, EventArgs args);

    /** The source's own fields of a process (a trace's top level), which the layout keeps. */
    default void processFields(TimelineProcess process, EventArgs fields) {}

    /** Whether the records' ARGS are decoded for the events ({@link dev.vprof.timeline.SliceView#args()}). */
    default boolean wantsEventArgs() {
        return false;
    }

    void captureRange(TimelineProcess process, CaptureRange range);

    void device(TimelineProcess process, DeviceProperties device);

    /** The records that follow come from chunk {@code chunkIndex} of the file. */
    default void chunk(int chunkIndex) {}
}
