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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes one process of a {@link Timeline} in the shape of the PyTorch profiler's (Kineto's) trace,
 * so that Holistic Trace Analysis and the PyTorch tooling read vprof captures:
 *
 * <ul>
 *   <li>top level: {@code schemaVersion}, {@code distributedInfo} (this process's rank and the
 *       capture's world size, {@link KinetoRanks}), {@code deviceProperties} (Kineto's field names,
 *       from the capture's DEVICE records), {@code displayTimeUnit}, {@code baseTimeNanoseconds},
 *       {@code traceEvents}, {@code traceName};
 *   <li>GPU work as {@code X} events with pid = device ordinal, tid = stream, categories
 *       {@code kernel}, {@code gpu_memcpy}, {@code gpu_memset}, names in Kineto's form
 *       ({@code Memcpy HtoD (Pinned -> Device)}) and args {@code device}, {@code stream},
 *       {@code correlation}, {@code grid}, {@code block} ...;
 *   <li>host API calls as {@code cuda_runtime} / {@code cuda_driver} with {@code correlation} and
 *       {@code cbid}; NVTX ranges as {@code user_annotation}; with {@code --steps}, one
 *       {@code ProfilerStep#N} {@code user_annotation} per step ({@link ProfilerSteps});
 *   <li>{@code ac2g} flows from each launch to its GPU op.
 * </ul>
 *
 * <p>The header is written in the text form of PyTorch's writer ({@code "rank": 0}, a space after
 * each colon): HTA finds a file's rank by scanning its text for {@code "rank": N}, and a compact
 * {@code "rank":0} is not found (every file then counts as rank 0 and only the last one read is
 * kept). {@code distributedInfo} comes first, so a reader of the first lines finds it; strings are
 * escaped JSON, so no name can hold the pattern.
 *
 * <p>{@code ts} is microseconds (three decimals) after {@code baseTimeNanoseconds}, as Kineto
 * writes it. Kineto links GPU work to the PyTorch operator that caused it through
 * {@code External id}; vprof records no operators, so it sets {@code External id} to the CUPTI
 * correlation id on both ends of a launch, which keeps HTA's launch/kernel pairing intact.
 *
 * <p>HTA reads one trace file per rank; {@link KinetoFiles} writes one file per process.
 */
public final class KinetoJsonWriter {

    /** What a write produced. */
    public record Stats(long bytes, long events) {}

    /** Writes {@code process} as the rank {@code rank}, with a ProfilerStep annotation per step. */
    public Stats write(Timeline timeline, TimelineProcess process, KinetoRanks.Rank rank, List<ProfilerSteps.Step> steps,
                       String traceName, OutputStream out) throws IOException {
        JsonOut json = new JsonOut(out);
        long earliest = timeline.earliestNs();
        long base = earliest == Long.MAX_VALUE ? 0 : earliest;
        json.raw("{\n  \"schemaVersion\": 1,\n  \"distributedInfo\": {\"backend\": \"\", \"rank\": ");
        json.number(rank.rank());
        json.raw(", \"world_size\": ");
        json.number(rank.worldSize());
        json.raw("},\n  \"deviceProperties\": [");
        List<GpuDevice> devices = new ArrayList<>(process.devices());
        devices.sort(Comparator.comparingInt(GpuDevice::deviceId));
        for (int i = 0; i < devices.size(); i++) {
            json.raw(i == 0 ? "\n    " : ",\n    ");
            writeDeviceProperties(json, devices.get(i));
        }
        json.raw("\n  ],\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
        json.number(base);
        json.raw(",\n  \"traceEvents\": [");

        TraceEvents ev = new TraceEvents(json, base, timeline, true, "ac2g");
        int pid = process.pid();
        ev.metadata("process_name", pid, 0, "name", process.name().isEmpty() ? "pid " + pid : process.name());
        ev.metadata("process_labels", pid, 0, "labels", "CPU");
        for (GpuDevice d : devices) {
            if (d.streams().isEmpty()) {
                continue; // a DEVICE record of a GPU this process ran nothing on: in deviceProperties only
            }
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
        for (ProfilerSteps.Step step : steps) {
            ev.complete(JsonOut.quoted(step.name()), "user_annotation", pid, step.tid(), step.startNs(), step.endNs());
            json.raw("}}");
        }
        json.raw("\n  ],\n  \"traceName\": ");
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

    /**
     * One entry of {@code deviceProperties} with Kineto's field names and spacing; what the capture
     * did not record (a file without DEVICE records, fields CUPTI's device record lacks such as
     * {@code sharedMemPerBlockOptin}) is left out rather than written as 0.
     */
    private static void writeDeviceProperties(JsonOut json, GpuDevice d) throws IOException {
        json.raw("{\"id\": ");
        json.number(d.deviceId());
        if (!d.name().isEmpty()) {
            json.raw(", \"name\": ");
            json.string(d.name());
        }
        field(json, "totalGlobalMem", d.totalGlobalMemBytes());
        if (d.computeMajor() > 0) {
            field(json, "computeMajor", d.computeMajor());
            json.raw(", \"computeMinor\": ");
            json.number(d.computeMinor());
        }
        GpuDevice.Limits l = d.limits();
        field(json, "maxThreadsPerBlock", l.maxThreadsPerBlock());
        field(json, "maxThreadsPerMultiprocessor", l.maxThreadsPerMultiprocessor());
        field(json, "regsPerBlock", l.regsPerBlock());
        field(json, "warpSize", l.warpSize());
        field(json, "sharedMemPerBlock", l.sharedMemPerBlock());
        field(json, "numSms", d.numSms());
        field(json, "regsPerMultiprocessor", l.regsPerMultiprocessor());
        field(json, "sharedMemPerMultiprocessor", l.sharedMemPerMultiprocessor());
        json.raw("}");
    }

    /** {@code , "name": value} when the value was recorded (non-zero). */
    private static void field(JsonOut json, String name, long value) throws IOException {
        if (value > 0) {
            json.raw(", \"");
            json.raw(name);
            json.raw("\": ");
            json.number(value);
        }
    }
}
