package dev.vprof.adapt;

import dev.vprof.capture.DeviceProperties;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.TimelineProcess;

/** Mapped records into the timeline model: kept in its columns, or counted in a layout-only one. */
class ModelRecords implements AdaptedRecords {

    @Override
    public void gpuOp(GpuStream stream, GpuOp op) {
        stream.add(op);
    }

    @Override
    public void apiCall(CpuThread thread, ApiCall call) {
        thread.addApiCall(call.kind(), call.nameId(), call.start(), call.end(), call.correlationId(), call.callbackId());
    }

    @Override
    public void rangeStarted(TimelineProcess process, long tid, long serial, long startNs, int nameId, int domainId) {
        // The model keeps ranges whole, when they end.
    }

    @Override
    public void rangeCancelled(long serial) {}

    @Override
    public void range(CpuThread thread, long serial, boolean started, int nameId, long startNs, long endNs, int domainId) {
        thread.addRange(nameId, startNs, endNs, domainId);
    }

    @Override
    public void captureRange(TimelineProcess process, CaptureRange range) {
        process.addCaptureRange(range);
    }

    @Override
    public void device(TimelineProcess process, DeviceProperties d) {
        process.device(d.id())
                .properties(d.name(), d.globalMemoryBytes(), d.computeMajor(), d.computeMinor(), d.smCount())
                .limits(new GpuDevice.Limits(d.warpSize(), d.maxThreadsPerBlock(), d.maxThreadsPerSm(),
                        d.maxRegistersPerBlock(), d.maxRegistersPerSm(), d.maxSharedMemoryPerBlock(),
                        d.maxSharedMemoryPerSm()));
    }
}
