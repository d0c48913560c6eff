package dev.vprof.export;

import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.ApiKind;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CounterTrack;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuOpKind;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.Lanes;
import dev.vprof.timeline.Phase;
import dev.vprof.timeline.Request;
import dev.vprof.timeline.ServiceSpan;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.timeline.TimelineSource;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link TimelineSource} in the Chrome trace event format ({@code {"traceEvents":[...]}}),
 * which chrome://tracing and the Perfetto UI open: {@code X} slices, {@code C} counters, {@code M}
 * metadata naming processes and threads, and {@code s}/{@code f} flows from launch to kernel.
 * The metadata and the small tracks come first, then the walk's events as it hands them out:
 * viewers place events by their timestamps, not by their order in the file.
 *
 * <p>Times are microseconds with three decimals, relative to the earliest time on the timeline
 * (given in {@code otherData.vprof_base_time_ns}): epoch microseconds need 19 significant digits,
 * more than the doubles JSON readers parse them into.
 *
 * <p>GPU streams become threads of their process with synthetic tids (bit 30 set, above any Linux
 * tid) named "GPU d stream s"; requests, spans and metrics become synthetic processes.
 */
public final class ChromeJsonWriter {
    static final int GPU_TID_BASE = 0x4000_0000;
    static final int CAPTURE_TID = 0x3fff_ffff;
    static final int METRICS_PID = 0x7fff_0000;
    static final int REQUESTS_PID = 0x7fff_0001;
    static final int SPANS_PID_BASE = 0x7fff_0100;

    /** What a write produced. */
    public record Stats(long bytes, long events, long gpuSlices) {}

    /** Writes {@code source}: metadata and the small tracks first, then the walk's events. */
    public Stats write(TimelineSource source, OutputStream out) throws IOException {
        Run run = new Run(source.layout(), out);
        run.write(source);
        return run.finish();
    }

    /** Where a GPU stream's ops go: its process, synthetic thread and launches. */
    private record StreamTrack(int pid, long tid, int device, long streamId, Correlations corr) {}

    /** Where a host thread's ranges and API calls go. */
    private record ThreadTrack(int pid, long tid, Correlations corr) {}

    private static final byte[] DEVICE = JsonOut.ascii("\"device\":");
    private static final byte[] STREAM = JsonOut.ascii(",\"stream\":");
    private static final byte[] CORRELATION = JsonOut.ascii(",\"correlation\":");

    private static final class Run extends TraceSink {
        final TraceEvents ev;
        final JsonOut json;
        final long base;
        final TrackMap<GpuStream, StreamTrack> streams = new TrackMap<>("a GPU stream");
        final TrackMap<CpuThread, ThreadTrack> threads = new TrackMap<>("a thread");
        long gpuSlices;

        Run(Timeline timeline, OutputStream out) {
            super(timeline);
            long earliest = timeline.earliestNs();
            this.ev = new TraceEvents(new JsonOut(out), earliest == Long.MAX_VALUE ? 0 : earliest, timeline, false, "launch");
            this.json = ev.json;
            this.base = ev.base;
        }

        @Override
        void begin() throws IOException {
            json.raw("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"vprof_base_time_ns\":\"");
            json.number(base);
            json.raw("\"},\"traceEvents\":[");
        }

        Stats finish() throws IOException {
            json.raw("\n]}\n");
            json.flush();
            return new Stats(json.bytes(), ev.count, gpuSlices);
        }

        void sortIndex(String what, int pid, long tid, long index) throws IOException {
            ev.next();
            json.raw("{\"name\":\"");
            json.raw(what);
            json.raw("\",\"ph\":\"M\",\"pid\":");
            json.number(pid);
            json.raw(",\"tid\":");
            json.number(tid);
            json.raw(",\"args\":{\"sort_index\":");
            json.number(index);
            json.raw("}}");
        }

        /** A process's names and sort order, its tracks, and its capture ranges. */
        @Override
        void process(TimelineProcess process, int processIndex) throws IOException {
            int pid = process.pid();
            String label = process.name().isEmpty() ? "pid " + pid : process.name();
            ev.metadata("process_name", pid, 0, "name", label);
            sortIndex("process_sort_index", pid, 0, processIndex);
            Correlations corr = new Correlations(process, processIndex);
            int gpuTrack = 0;
            for (GpuDevice device : process.devices()) {
                List<GpuStream> streamList = device.streams();
                for (int si = 0; si < streamList.size(); si++) {
                    GpuStream stream = streamList.get(si);
                    long tid = GPU_TID_BASE | ((long) device.deviceId() << 20) | si;
                    ev.metadata("thread_name", pid, tid, "name", "GPU " + device.deviceId() + " stream " + stream.streamId());
                    sortIndex("thread_sort_index", pid, tid, gpuTrack++);
                    streams.put(stream, new StreamTrack(pid, tid, device.deviceId(), stream.streamId(), corr));
                }
            }
            for (CpuThread thread : process.threads()) {
                long tid = thread.tid();
                ev.metadata("thread_name", pid, tid, "name", thread.name().isEmpty() ? "thread " + tid : thread.name());
                sortIndex("thread_sort_index", pid, tid, 1_000_000 + tid);
                threads.put(thread, new ThreadTrack(pid, tid, corr));
            }
            if (!process.captureRanges().isEmpty()) {
                ev.metadata("thread_name", pid, CAPTURE_TID, "name", "Capture ranges");
                for (CaptureRange r : process.captureRanges()) {
                    String label2 = "capture " + r.index() + (r.source().isEmpty() ? "" : " (" + r.source() + ")");
                    ev.complete(JsonOut.quoted(label2), "capture", pid, CAPTURE_TID, r.startNs(), r.endNs());
                    json.raw("\"source\":");
                    json.string(r.source());
                    json.raw("}}");
                }
            }
        }

        // ---- the walk's events ----

        @Override
        public void range(CpuThread thread, int nameId, long startNs, long endNs, int domainId) throws IOException {
            ThreadTrack t = threads.get(thread);
            ev.complete(ev.name(nameId), "nvtx", t.pid(), t.tid(), startNs, endNs);
            if (domainId != 0) {
                json.raw("\"domain\":");
                json.raw(ev.name(domainId));
            }
            json.raw("}}");
        }

        @Override
        public void apiCall(CpuThread thread, ApiCall call) throws IOException {
            ThreadTrack t = threads.get(thread);
            String cat = call.kind() == ApiKind.DRIVER ? "cuda_driver" : "cuda_runtime";
            ev.complete(ev.name(call.nameId()), cat, t.pid(), t.tid(), call.start(), call.end());
            long c = call.correlationId();
            json.raw("\"correlation\":");
            json.number(c);
            json.raw(",\"cbid\":");
            json.number(call.callbackId());
            json.raw("}}");
            if (c != 0 && t.corr().apiCallHasGpuOp(c)) {
                for (int k = 0, ops = t.corr().gpuOps(c); k < ops; k++) { // a graph launch: one per node
                    ev.flow('s', t.corr().flowId(c, k), t.pid(), t.tid(), call.start());
                }
            }
        }

        @Override
        public void gpuOp(GpuStream stream, GpuOp op) throws IOException {
            StreamTrack t = streams.get(stream);
            GpuOpKind kind = op.kind();
            ev.complete(ev.name(op), TraceEvents.category(kind), t.pid(), t.tid(), op.start(), op.end());
            json.raw(DEVICE);
            json.number(t.device());
            json.raw(STREAM);
            json.number(t.streamId());
            long c = op.correlationId();
            json.raw(CORRELATION);
            json.number(c);
            if (kind == GpuOpKind.KERNEL) {
                ev.gridAndBlock(op);
                json.raw("}}");
            } else {
                json.raw(",\"bytes\":");
                json.number(op.bytes());
                json.raw("}}");
            }
            if (c != 0 && t.corr().gpuOpHasLaunch(c)) {
                long id = t.corr().nextFlowId(c);
                if (id >= 0) {
                    ev.flow('f', id, t.pid(), t.tid(), op.start());
                }
            }
            gpuSlices++;
        }

        @Override
        void requests() throws IOException {
            List<Request> requests = timeline.requests();
            if (requests.isEmpty()) {
                return;
            }
            ev.metadata("process_name", REQUESTS_PID, 0, "name", "Requests");
            Lanes.Assignment lanes = Lanes.disjoint(requests, Request::startNs, Request::endNs);
            for (int lane = 0; lane < lanes.laneCount(); lane++) {
                ev.metadata("thread_name", REQUESTS_PID, lane + 1, "name", "lane " + (lane + 1));
            }
            for (int i = 0; i < requests.size(); i++) {
                Request r = requests.get(i);
                int tid = lanes.laneOf()[i] + 1;
                ev.complete(JsonOut.quoted(r.name()), "request", REQUESTS_PID, tid, r.startNs(), r.endNs());
                json.raw("\"trace_id\":");
                json.string(r.traceId());
                json.raw(",\"span_id\":");
                json.string(r.spanId());
                attributes(r.attributes());
                json.raw("}}");
                for (Phase ph : r.phases()) {
                    long s = Math.max(ph.startNs(), r.startNs());
                    long e = Math.min(ph.endNs(), r.endNs());
                    if (e >= s) {
                        ev.complete(JsonOut.quoted(ph.name()), "request_phase", REQUESTS_PID, tid, s, e);
                        json.raw("}}");
                    }
                }
            }
        }

        void attributes(Map<String, String> attributes) throws IOException {
            for (Map.Entry<String, String> a : attributes.entrySet()) {
                json.raw(',');
                json.string(a.getKey());
                json.raw(':');
                json.string(a.getValue());
            }
        }

        @Override
        void spans() throws IOException {
            Map<String, List<ServiceSpan>> byService = timeline.spansByService();
            int serviceIndex = 0;
            for (Map.Entry<String, List<ServiceSpan>> e : byService.entrySet()) {
                int pid = SPANS_PID_BASE + serviceIndex++;
                ev.metadata("process_name", pid, 0, "name", "Spans: " + e.getKey());
                List<ServiceSpan> spans = e.getValue();
                Lanes.Assignment lanes = Lanes.nested(spans, ServiceSpan::startNs, ServiceSpan::endNs);
                for (int i = 0; i < spans.size(); i++) {
                    ServiceSpan s = spans.get(i);
                    ev.complete(JsonOut.quoted(s.name()), "span", pid, lanes.laneOf()[i] + 1, s.startNs(), s.endNs());
                    json.raw("\"trace_id\":");
                    json.string(s.traceId());
                    json.raw(",\"span_id\":");
                    json.string(s.spanId());
                    json.raw(",\"parent_span_id\":");
                    json.string(s.parentSpanId());
                    attributes(s.attributes());
                    json.raw("}}");
                }
            }
        }

        @Override
        void counters() throws IOException {
            List<CounterTrack> counters = timeline.counters();
            if (counters.isEmpty()) {
                return;
            }
            ev.metadata("process_name", METRICS_PID, 0, "name", "Metrics");
            for (CounterTrack c : counters) {
                byte[] quoted = JsonOut.quoted(c.name() + (c.unit().isEmpty() ? "" : " (" + c.unit() + ")"));
                for (int i = 0, n = c.size(); i < n; i++) {
                    double v = c.value(i);
                    if (!Double.isFinite(v)) {
                        continue;
                    }
                    ev.next();
                    json.raw("{\"ph\":\"C\",\"name\":");
                    json.raw(quoted);
                    json.raw(",\"pid\":");
                    json.number(METRICS_PID);
                    json.raw(",\"tid\":0,\"ts\":");
                    json.micros(c.time(i) - base);
                    json.raw(",\"args\":{\"value\":");
                    json.number(v);
                    json.raw("}}");
                }
            }
        }
    }
}
