package dev.vprof.export;

import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuOpKind;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ThreadSlices;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes one process of a {@link Timeline} in the shape of the PyTorch profiler's (Kineto's) trace,
 * so that Holistic Trace Analysis and the PyTorch tooling read vprof captures:
 *
 * <ul>
 *   <li>top level: {@code schemaVersion}, {@code deviceProperties}, {@code distributedInfo}
 *       (rank, world size), {@code displayTimeUnit}, {@code baseTimeNanoseconds}, {@code traceEvents},
 *       {@code traceName};
 *   <li>GPU work as {@code X} events with pid = device ordinal, tid = stream, categories
 *       {@code kernel}, {@code gpu_memcpy}, {@code gpu_memset} and args {@code device},
 *       {@code stream}, {@code correlation}, {@code grid}, {@code block} ...;
 *   <li>host API calls as {@code cuda_runtime} / {@code cuda_driver} with {@code correlation} and
 *       {@code cbid}; NVTX ranges as {@code user_annotation};
 *   <li>{@code ac2g} flows from each launch to its GPU op.
 * </ul>
 *
 * <p>{@code ts} is microseconds (three decimals) after {@code baseTimeNanoseconds}, as Kineto
 * writes it. Kineto links GPU work to the PyTorch operator that caused it through
 * {@code External id}; vprof records no operators, so it sets {@code External id} to the CUPTI
 * correlation id on both ends of a launch, which keeps HTA's launch/kernel pairing intact.
 *
 * <p>HTA reads one trace file per rank; {@link Exporter} writes one file per process.
 */
public final class KinetoJsonWriter {

    /** What a write produced. */
    public record Stats(long bytes, long events) {}

    public Stats write(Timeline timeline, TimelineProcess process, String traceName, OutputStream out) throws IOException {
        JsonOut json = new JsonOut(out);
        long earliest = timeline.earliestNs();
        long base = earliest == Long.MAX_VALUE ? 0 : earliest;
        json.raw("{\n\"schemaVersion\":1,\n\"deviceProperties\":[");
        Map<Integer, GpuDevice> devices = new LinkedHashMap<>();
        for (GpuDevice d : process.devices()) {
            devices.putIfAbsent(d.deviceId(), d);
        }
        boolean first = true;
        for (GpuDevice d : devices.values()) {
            json.raw(first ? "\n{" : ",\n{");
            first = false;
            json.raw("\"id\":");
            json.number(d.deviceId());
            json.raw(",\"name\":");
            json.string(d.name());
            json.raw(",\"totalGlobalMem\":");
            json.number(d.totalGlobalMemBytes());
            json.raw(",\"computeMajor\":");
            json.number(d.computeMajor());
            json.raw(",\"computeMinor\":");
            json.number(d.computeMinor());
            json.raw(",\"numSms\":");
            json.number(d.numSms());
            json.raw("}");
        }
        json.raw("],\n\"distributedInfo\":{\"backend\":\"\",\"rank\":");
        json.number(timeline.rank());
        json.raw(",\"world_size\":");
        json.number(timeline.worldSize());
        json.raw("},\n\"displayTimeUnit\":\"ms\",\n\"baseTimeNanoseconds\":");
        json.number(base);
        json.raw(",\n\"traceEvents\":[");

        TraceEvents ev = new TraceEvents(json, base, timeline, true, "ac2g");
        int pid = process.pid();
        ev.metadata("process_name", pid, 0, "name", process.name().isEmpty() ? "pid " + pid : process.name());
        ev.metadata("process_labels", pid, 0, "labels", "CPU");
        for (GpuDevice d : devices.values()) {
            ev.metadata("process_name", d.deviceId(), 0, "name", "GPU " + d.deviceId());
            ev.metadata("process_labels", d.deviceId(), 0, "labels", "GPU " + d.deviceId() + (d.name().isEmpty() ? "" : " " + d.name()));
        }
        Correlations corr = new Correlations(process, 0);
        for (GpuDevice d : process.devices()) {
            for (GpuStream s : d.streams()) {
                ev.metadata("thread_name", d.deviceId(), s.streamId(), "name", "stream " + s.streamId());
                writeStream(ev, s, corr);
            }
        }
        for (CpuThread t : process.threads()) {
            ev.metadata("thread_name", pid, t.tid(), "name", t.name().isEmpty() ? "thread " + t.tid() : t.name());
            ThreadSlices ranges = t.ranges();
            for (int i = 0, n = ranges.size(); i < n; i++) {
                ev.complete(ev.name(ranges.nameId(i)), "user_annotation", pid, t.tid(), ranges.start(i), ranges.end(i));
                json.raw("}}");
            }
            ThreadSlices calls = t.apiCalls();
            for (int i = 0, n = calls.size(); i < n; i++) {
                String cat = t.apiKind(i) == ApiKind.DRIVER ? "cuda_driver" : "cuda_runtime";
                long c = calls.correlationId(i);
                boolean linked = c != 0 && corr.apiCallHasGpuOp(c);
                ev.complete(ev.name(calls.nameId(i)), cat, pid, t.tid(), calls.start(i), calls.end(i));
                if (linked) {
                    json.raw("\"External id\":");
                    json.number(c);
                    json.raw(',');
                }
                json.raw("\"cbid\":");
                json.number(calls.tag(i));
                json.raw(",\"correlation\":");
                json.number(c);
                json.raw("}}");
                if (linked) {
                    ev.flow('s', c, pid, t.tid(), calls.start(i));
                }
            }
        }
        json.raw("\n],\n\"traceName\":");
        json.string(traceName);
        json.raw("\n}\n");
        json.flush();
        return new Stats(json.bytes(), ev.count);
    }

    private static void writeStream(TraceEvents ev, GpuStream s, Correlations corr) throws IOException {
        JsonOut json = ev.json;
        int device = s.device().deviceId();
        for (int i = 0, n = s.size(); i < n; i++) {
            GpuOpKind kind = s.kind(i);
            long c = s.correlationId(i);
            boolean linked = c != 0 && corr.gpuOpHasLaunch(c);
            byte[] name = s.nameId(i) != 0 ? ev.name(s.nameId(i)) : JsonOut.quoted(GpuNames.unnamed(s, i));
            String cat = kind == GpuOpKind.KERNEL ? "kernel" : kind == GpuOpKind.MEMCPY ? "gpu_memcpy" : "gpu_memset";
            ev.complete(name, cat, device, s.streamId(), s.start(i), s.end(i));
            if (linked) {
                json.raw("\"External id\":");
                json.number(c);
                json.raw(',');
            }
            json.raw("\"device\":");
            json.number(device);
            json.raw(",\"stream\":");
            json.number(s.streamId());
            json.raw(",\"correlation\":");
            json.number(c);
            if (kind == GpuOpKind.KERNEL) {
                json.raw(",\"registers per thread\":");
                json.number(s.registersPerThread(i));
                json.raw(",\"shared memory\":");
                json.number(s.sharedMemoryBytes(i));
                json.raw(",\"grid\":[");
                json.number(s.gridX(i));
                json.raw(',');
                json.number(s.gridY(i));
                json.raw(',');
                json.number(s.gridZ(i));
                json.raw("],\"block\":[");
                json.number(s.blockX(i));
                json.raw(',');
                json.number(s.blockY(i));
                json.raw(',');
                json.number(s.blockZ(i));
                json.raw("]}}");
            } else {
                long dur = s.end(i) - s.start(i);
                json.raw(",\"bytes\":");
                json.number(s.bytes(i));
                json.raw(",\"memory bandwidth (GB/s)\":");
                // bytes per ns is GB/s.
                json.number(dur > 0 ? (double) s.bytes(i) / dur : 0.0);
                json.raw("}}");
            }
            if (linked) {
                ev.flow('f', c, device, s.streamId(), s.start(i));
            }
        }
    }

    /** Event framing shared by the sections above. */
}
