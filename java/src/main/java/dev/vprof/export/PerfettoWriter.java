package dev.vprof.export;

import static dev.vprof.export.PerfettoProto.*;

import dev.vprof.timeline.ApiCall;
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
import dev.vprof.wire.WireType;
import dev.vprof.wire.WireWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link TimelineSource} (a capture streamed from its file) as a
 * Perfetto trace (the native protobuf format, {@code .pftrace}), encoded by hand: no protobuf
 * runtime, no intermediate objects per slice.
 *
 * <p>Order: every track descriptor and every sequence's first packet come first (the order of
 * {@link TraceSink}, which fixes the track and sequence ids), with the small tracks (capture
 * ranges, requests, spans, counters) written whole; then the walk's events, each appended to its
 * track's sequence as it comes, so packets of different sequences interleave in the file. Each
 * sequence is read on its own (incremental timestamps and interned names are per sequence), so
 * only the order within a sequence matters, and the walk gives each track its events in order.
 * NVTX ranges come nested from the walk ({@link dev.vprof.timeline.RangeNesting}); GPU ops and
 * API calls are nested here, a slice that outlives the one before it on its track clamped to it.
 *
 * <p>Layout: a track per process, a track per GPU under it and a track per stream under that (slices
 * on one track must nest, and kernels on different streams overlap); a thread track per host thread
 * for its NVTX ranges with a child track for its CUDA API calls; a track per process for its capture
 * ranges; a "Requests" group whose lanes hold requests that never overlap on a lane, each with its
 * phases as children; a group per span service with lanes where spans nest; a "Metrics" group of
 * counter tracks; flows from each launch API call to its GPU op when API calls were recorded.
 *
 * <p>Clocks: every time is CLOCK_REALTIME; the trace clock is the host's BOOTTIME where the source
 * recorded it, else REALTIME ({@link PerfettoClocks}).
 *
 * <p>Size: every track with events gets its own packet sequence, whose defaults name the track and
 * a sequence-scoped incremental clock (id 64), so an event packet carries only a small timestamp
 * delta, the sequence id, the event type and an interned name id. Slices are begin/end pairs (the
 * format has no complete events).
 */
public final class PerfettoWriter {

    /**
     * What to put on GPU slices beyond name and time, and whether to compress. Compressed output
     * wraps each ~1 MiB run of packets, DEFLATE-compressed (zlib), in one TracePacket's
     * {@code compressed_packets} field, which Perfetto's trace processor and UI expand in place (it
     * is what the tracing service itself writes with {@code compression_type: DEFLATE}).
     */
    public record Options(boolean gpuArgs, boolean compress) {
        /** Grid, block, registers, shared memory, correlation id and bytes on every GPU slice. */
        public static Options defaults() {
            return new Options(true, true);
        }

        /** Names and times only: the smallest file, for very large captures. */
        public static Options lean() {
            return new Options(false, true);
        }

        /** The same content, packets written plainly (for tools that cannot inflate). */
        public Options uncompressed() {
            return new Options(gpuArgs, false);
        }
    }

    /** What a write produced. {@code clampedSlices} counts slices shortened to nest in their parent. */
    public record Stats(long bytes, long packets, long gpuSlices, long clampedSlices, int tracks, int sequences) {}

    private final Options options;

    public PerfettoWriter() {
        this(Options.defaults());
    }

    public PerfettoWriter(Options options) {
        this.options = options;
    }

    /**
     * Writes the whole trace of {@code source} to {@code out} (not closed; writes come in 1 MiB
     * chunks): every track first, then the walk's events, each on its track's packet sequence.
     */
    public Stats write(TimelineSource source, OutputStream out) throws IOException {
        Run run = new Run(source.layout(), out);
        try {
            run.write(source);
            return run.finish();
        } finally {
            run.packets.close();
        }
    }

    /** The sequences of one GPU stream and where its launches come from. */
    private record StreamTrack(Run.Sequence seq, Correlations corr) {}

    /** The sequences of one host thread (null where it has no such slices). */
    private record ThreadTrack(Run.Sequence ranges, Run.Sequence api, Correlations corr) {}

    /** State of one write; a writer instance can be reused across timelines and threads. */
    private final class Run extends TraceSink {
        final PerfettoPackets packets;
        final WireWriter scratch = new WireWriter(256);
        final WireWriter scratch2 = new WireWriter(256);
        final TrackMap<GpuStream, StreamTrack> streams = new TrackMap<>("a GPU stream");
        final TrackMap<CpuThread, ThreadTrack> threads = new TrackMap<>("a thread");
        /** Every sequence, in the order made: finished in that order. */
        final List<Sequence> sequences = new ArrayList<>();
        byte[][] nameBytes;
        final long base;
        long gpuSlices;
        long clamped;
        long nextUuid = 1;
        int nextSequence = 2;
        int tracks;

        Run(Timeline timeline, OutputStream sink) {
            super(timeline);
            this.packets = new PerfettoPackets(sink, options.compress());
            this.nameBytes = new byte[Math.max(16, timeline.strings().size() + 16)][];
            long earliest = timeline.earliestNs();
            this.base = earliest == Long.MAX_VALUE ? 0 : earliest;
        }

        Stats finish() throws IOException {
            for (Sequence seq : sequences) {
                seq.finish();
            }
            packets.finish();
            return new Stats(packets.bytes(), packets.packets(), gpuSlices, clamped, tracks, nextSequence - 1);
        }

        // ---- names ----

        int nameId(String s) {
            // Names of the writer's own (request, span, capture range and copy names) join the
            // timeline's table: a streamed walk may add to the model's ids while the write goes on.
            return timeline.intern(s);
        }

        byte[] nameBytes(int id) {
            if (id >= nameBytes.length) {
                nameBytes = Arrays.copyOf(nameBytes, Math.max(id + 1, nameBytes.length * 2));
            }
            byte[] b = nameBytes[id];
            if (b == null) {
                b = timeline.strings().get(id).getBytes(StandardCharsets.UTF_8);
                nameBytes[id] = b;
            }
            return b;
        }

        /** Writes {@code body} as one TracePacket of the Trace. */
        void packet(WireWriter body) throws IOException {
            packets.packet(body);
        }

        /** The first packet: the trace's clock snapshot ({@link PerfettoClocks}). */
        @Override
        void begin() throws IOException {
            WireWriter p = new WireWriter(96);
            p.uint(PACKET_TIMESTAMP, base);
            p.uint(PACKET_TIMESTAMP_CLOCK_ID, CLOCK_REALTIME);
            p.message(PACKET_CLOCK_SNAPSHOT, PerfettoClocks.traceSnapshot(timeline, base));
            p.uint(PACKET_TRUSTED_SEQUENCE_ID, 1);
            p.uint(PACKET_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
            packet(p);
        }

        /** Emits a TrackDescriptor on the descriptor sequence (1) and returns the new track's uuid. */
        long track(long parentUuid, String name, WireWriter descriptorExtra) throws IOException {
            long uuid = nextUuid++;
            WireWriter d = new WireWriter(64);
            d.uint(TRACK_UUID, uuid);
            if (parentUuid != 0) {
                d.uint(TRACK_PARENT_UUID, parentUuid);
            }
            if (name != null) {
                d.string(TRACK_NAME, name);
            }
            if (descriptorExtra != null) {
                d.append(descriptorExtra);
            }
            WireWriter p = new WireWriter(d.size() + 16);
            p.message(PACKET_TRACK_DESCRIPTOR, d);
            p.uint(PACKET_TRUSTED_SEQUENCE_ID, 1);
            packet(p);
            tracks++;
            return uuid;
        }

        // ---- processes ----

        @Override
        void process(TimelineProcess process, int processIndex) throws IOException {
            WireWriter desc = new WireWriter(64);
            WireWriter pd = new WireWriter(64);
            pd.uint(PROCESS_PID, process.pid());
            for (String arg : process.commandLine()) {
                pd.string(PROCESS_CMDLINE, arg);
            }
            if (!process.name().isEmpty()) {
                pd.string(PROCESS_NAME, process.name());
            }
            desc.message(TRACK_PROCESS, pd);
            long processUuid = track(0, null, desc);
            Correlations corr = new Correlations(process, processIndex);

            for (GpuDevice device : process.devices()) {
                if (device.streams().isEmpty()) {
                    continue; // a DEVICE record of a GPU this process ran nothing on: no empty track
                }
                String deviceName = "GPU " + device.deviceId() + (device.name().isEmpty() ? "" : " (" + device.name() + ")");
                long deviceUuid = track(processUuid, deviceName, null);
                for (GpuStream stream : device.streams()) {
                    long streamUuid = track(deviceUuid, "Stream " + stream.streamId(), null);
                    streams.put(stream, new StreamTrack(sequence(streamUuid), corr));
                }
            }
            for (CpuThread thread : process.threads()) {
                WireWriter td = new WireWriter(32);
                td.uint(THREAD_PID, process.pid());
                td.uint(THREAD_TID, thread.tid());
                if (!thread.name().isEmpty()) {
                    td.string(THREAD_NAME, thread.name());
                }
                WireWriter tdesc = new WireWriter(48);
                tdesc.message(TRACK_THREAD, td);
                long threadUuid = track(0, null, tdesc);
                Sequence ranges = thread.ranges().size() > 0 ? sequence(threadUuid) : null;
                Sequence api = null;
                if (thread.apiCalls().size() > 0) {
                    long apiUuid = track(threadUuid, "CUDA API (" + thread.tid() + ")", null);
                    api = sequence(apiUuid);
                }
                threads.put(thread, new ThreadTrack(ranges, api, corr));
            }
            if (!process.captureRanges().isEmpty()) {
                long rangesUuid = track(processUuid, "Capture ranges", null);
                Sequence seq = new Sequence(rangesUuid);
                List<CaptureRange> ranges = new ArrayList<>(process.captureRanges());
                ranges.sort((a, b) -> a.startNs() != b.startNs() ? Long.compare(a.startNs(), b.startNs()) : Long.compare(b.endNs(), a.endNs()));
                for (CaptureRange r : ranges) {
                    String label = "capture " + r.index() + (r.source().isEmpty() ? "" : " (" + r.source() + ")");
                    seq.open(r.startNs(), r.endNs(), nameId(label));
                    seq.annotateString("source", r.source(), false);
                    seq.commit();
                }
                seq.finish();
            }
        }

        /** A sequence for events the walk will hand out; finished after the walk. */
        Sequence sequence(long trackUuid) throws IOException {
            Sequence seq = new Sequence(trackUuid);
            sequences.add(seq);
            return seq;
        }

        // ---- the walk's events ----

        @Override
        public void gpuOp(GpuStream stream, GpuOp op) throws IOException {
            StreamTrack t = streams.get(stream);
            Sequence seq = t.seq();
            GpuOpKind kind = op.kind();
            int name = op.nameId();
            if (name == 0) {
                name = nameId(GpuNames.unnamed(op));
            }
            seq.open(op.start(), op.end(), name);
            long c = op.correlationId();
            if (options.gpuArgs()) {
                if (kind == GpuOpKind.KERNEL) {
                    seq.annotateDim("grid", op.gridX(), op.gridY(), op.gridZ());
                    seq.annotateDim("block", op.blockX(), op.blockY(), op.blockZ());
                } else {
                    seq.annotateUint("bytes", op.bytes());
                    if (kind == GpuOpKind.MEMCPY) {
                        seq.annotateString("kind", GpuNames.memcpyKind(op.copyKind()), true);
                    }
                }
                if (c != 0) {
                    seq.annotateUint("correlation", c);
                }
            }
            if (c != 0 && t.corr().gpuOpHasLaunch(c)) {
                long id = t.corr().nextFlowId(c);
                if (id >= 0) {
                    seq.flow(id);
                }
            }
            seq.commit();
            gpuSlices++;
        }

        @Override
        public void apiCall(CpuThread thread, ApiCall call) throws IOException {
            ThreadTrack t = threads.get(thread);
            Sequence seq = t.api();
            seq.open(call.start(), call.end(), call.nameId());
            long c = call.correlationId();
            if (c != 0) {
                seq.annotateUint("correlation", c);
                if (t.corr().apiCallHasGpuOp(c)) {
                    for (int k = 0, ops = t.corr().gpuOps(c); k < ops; k++) { // a graph launch: one per node
                        seq.flow(t.corr().flowId(c, k));
                    }
                }
            }
            seq.commit();
        }

        @Override
        public boolean nestedRanges() {
            return true;
        }

        @Override
        public void rangeBegin(CpuThread thread, long ts, int nameId, int domainId) throws IOException {
            Sequence seq = threads.get(thread).ranges();
            seq.begin(nameId);
            if (domainId != 0) {
                seq.annotateString("domain", timeline.strings().get(domainId), true);
            }
            seq.emit(ts);
        }

        @Override
        public void rangeEnd(CpuThread thread, long ts) throws IOException {
            threads.get(thread).ranges().end(ts);
        }

        @Override
        public void rangeClamped(CpuThread thread) {
            clamped++;
        }

        // ---- requests and spans ----

        @Override
        void requests() throws IOException {
            List<Request> requests = timeline.requests();
            if (requests.isEmpty()) {
                return;
            }
            Lanes.Assignment lanes = Lanes.disjoint(requests, Request::startNs, Request::endNs);
            List<List<Request>> byLane = lanes.group(requests);
            long groupUuid = track(0, "Requests", null);
            for (int lane = 0; lane < byLane.size(); lane++) {
                long laneUuid = track(groupUuid, "Requests lane " + (lane + 1), null);
                Sequence seq = new Sequence(laneUuid);
                List<Request> laneRequests = byLane.get(lane);
                laneRequests.sort((a, b) -> Long.compare(a.startNs(), b.startNs()));
                for (Request r : laneRequests) {
                    seq.open(r.startNs(), r.endNs(), nameId(r.name()));
                    seq.annotateString("trace_id", r.traceId(), false);
                    seq.annotateString("span_id", r.spanId(), false);
                    for (Map.Entry<String, String> a : r.attributes().entrySet()) {
                        seq.annotateString(a.getKey(), a.getValue(), false);
                    }
                    seq.commit();
                    List<Phase> phases = new ArrayList<>(r.phases());
                    phases.sort((a, b) -> Long.compare(a.startNs(), b.startNs()));
                    long cursor = r.startNs();
                    for (Phase ph : phases) {
                        // Phases are siblings: clip each into the request and after the previous one.
                        long s = Math.max(ph.startNs(), cursor);
                        long e = Math.min(ph.endNs(), r.endNs());
                        if (e < s) {
                            clamped++;
                            continue;
                        }
                        // The next open() ends this phase; ending it here could also end the request.
                        seq.open(s, e, nameId(ph.name()));
                        seq.commit();
                        cursor = e;
                    }
                }
                seq.finish();
            }
        }

        @Override
        void spans() throws IOException {
            Map<String, List<ServiceSpan>> byService = timeline.spansByService();
            for (Map.Entry<String, List<ServiceSpan>> e : byService.entrySet()) {
                List<ServiceSpan> spans = e.getValue();
                Lanes.Assignment lanes = Lanes.nested(spans, ServiceSpan::startNs, ServiceSpan::endNs);
                List<List<ServiceSpan>> byLane = lanes.group(spans);
                long groupUuid = track(0, "Spans: " + e.getKey(), null);
                for (int lane = 0; lane < byLane.size(); lane++) {
                    long laneUuid = track(groupUuid, e.getKey() + " lane " + (lane + 1), null);
                    Sequence seq = new Sequence(laneUuid);
                    List<ServiceSpan> laneSpans = byLane.get(lane);
                    laneSpans.sort((a, b) -> a.startNs() != b.startNs() ? Long.compare(a.startNs(), b.startNs()) : Long.compare(b.endNs(), a.endNs()));
                    for (ServiceSpan s : laneSpans) {
                        seq.open(s.startNs(), s.endNs(), nameId(s.name()));
                        seq.annotateString("trace_id", s.traceId(), false);
                        seq.annotateString("span_id", s.spanId(), false);
                        if (!s.parentSpanId().isEmpty()) {
                            seq.annotateString("parent_span_id", s.parentSpanId(), false);
                        }
                        for (Map.Entry<String, String> a : s.attributes().entrySet()) {
                            seq.annotateString(a.getKey(), a.getValue(), false);
                        }
                        seq.commit();
                    }
                    seq.finish();
                }
            }
        }

        // ---- counters ----

        @Override
        void counters() throws IOException {
            List<CounterTrack> counters = timeline.counters();
            if (counters.isEmpty()) {
                return;
            }
            long groupUuid = track(0, "Metrics", null);
            for (CounterTrack c : counters) {
                // An empty CounterDescriptor: values are doubles and the unit, free-form (s, 1/s,
                // requests), goes into the track name, since the proto's unit enum has no seconds.
                WireWriter cd = new WireWriter(8);
                WireWriter desc = new WireWriter(16);
                desc.message(TRACK_COUNTER, cd);
                String label = c.name() + (c.unit().isEmpty() ? "" : " (" + c.unit() + ")");
                long uuid = track(groupUuid, label, desc);
                Sequence seq = new Sequence(uuid);
                for (int i = 0, n = c.size(); i < n; i++) {
                    double v = c.value(i);
                    if (Double.isFinite(v)) {
                        seq.counter(c.time(i), v);
                    }
                }
            }
        }

        // ---- one packet sequence per track ----

        /**
         * A packet sequence bound to one track: its defaults name the track and the incremental clock,
         * and it interns event names, annotation names and string values on first use.
         */
        final class Sequence {
            final int id;
            final WireWriter ev = new WireWriter(128);
            final WireWriter internedNames = new WireWriter(64);
            final WireWriter internedAnnotationNames = new WireWriter(64);
            final WireWriter internedValues = new WireWriter(64);
            int[] nameIid = new int[64];
            int nextNameIid = 1;
            final Map<String, Integer> annotationNameIid = new HashMap<>();
            final Map<String, Integer> valueIid = new HashMap<>();
            final LongIntMap dimIid = new LongIntMap();
            int nextValueIid = 1;
            long lastTs;
            long[] stack = new long[16];
            int depth;
            long pendingStart;
            long pendingEnd;

            Sequence(long trackUuid) throws IOException {
                this.id = nextSequence++;
                this.lastTs = base;
                WireWriter ted = new WireWriter(8);
                ted.uint(EVENT_DEFAULTS_TRACK_UUID, trackUuid);
                WireWriter defaults = new WireWriter(16);
                defaults.uint(DEFAULTS_TIMESTAMP_CLOCK_ID, CLOCK_SEQUENCE_INCREMENTAL);
                defaults.message(DEFAULTS_TRACK_EVENT_DEFAULTS, ted);
                WireWriter p = new WireWriter(64);
                // This packet's own time is absolute on REALTIME, not a delta.
                p.uint(PACKET_TIMESTAMP, base);
                p.uint(PACKET_TIMESTAMP_CLOCK_ID, CLOCK_REALTIME);
                p.message(PACKET_CLOCK_SNAPSHOT, PerfettoClocks.sequenceSnapshot(base));
                p.uint(PACKET_TRUSTED_SEQUENCE_ID, id);
                p.uint(PACKET_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
                p.message(PACKET_DEFAULTS, defaults);
                packet(p);
            }

            /**
             * Starts a slice: ends the open slices that are over by {@code start}, clamps {@code end}
             * into the enclosing slice, and prepares the begin event; add annotations, then
             * {@link #commit()}.
             */
            void open(long start, long end, int nameId) throws IOException {
                closeUntil(start);
                if (depth > 0 && end > stack[depth - 1]) {
                    end = stack[depth - 1];
                    clamped++;
                }
                pendingStart = start;
                pendingEnd = end;
                begin(nameId);
            }

            /** Prepares a slice-begin event; add annotations, then {@link #emit} it at its time. */
            void begin(int nameId) {
                int iid = internName(nameId);
                ev.reset();
                ev.reserve(12);
                ev.putByte(EVENT_TYPE << 3 | WireType.VARINT);
                ev.putByte(TYPE_SLICE_BEGIN);
                ev.putByte(EVENT_NAME_IID << 3 | WireType.VARINT);
                ev.putVarint(iid);
            }

            void commit() throws IOException {
                emit(pendingStart);
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
                stack[depth++] = pendingEnd;
            }

            /** Ends every open slice that ends at or before {@code t}, innermost first. */
            void closeUntil(long t) throws IOException {
                while (depth > 0 && stack[depth - 1] <= t) {
                    end(stack[--depth]);
                }
            }

            /** A slice-end event at {@code ts}: ends the innermost open slice of the track. */
            void end(long ts) throws IOException {
                ev.reset();
                ev.reserve(2);
                ev.putByte(EVENT_TYPE << 3 | WireType.VARINT);
                ev.putByte(TYPE_SLICE_END);
                emit(ts);
            }

            void finish() throws IOException {
                closeUntil(Long.MAX_VALUE);
            }

            void counter(long t, double value) throws IOException {
                ev.reset();
                ev.uint(EVENT_TYPE, TYPE_COUNTER);
                ev.float64(EVENT_DOUBLE_COUNTER_VALUE, value);
                emit(t);
            }

            void flow(long flowId) {
                ev.fixed64(EVENT_FLOW_IDS, flowId);
            }

            void annotateUint(String name, long value) {
                WireWriter a = scratch;
                a.reset();
                a.uint(ANNOTATION_NAME_IID, annotationName(name));
                a.uint(ANNOTATION_UINT_VALUE, value);
                ev.message(EVENT_DEBUG_ANNOTATIONS, a);
            }

            /** A string argument; {@code intern} for values that repeat (kinds, domains), not for ids. */
            void annotateString(String name, String value, boolean intern) {
                WireWriter a = scratch;
                a.reset();
                a.uint(ANNOTATION_NAME_IID, annotationName(name));
                if (intern) {
                    Integer iid = valueIid.get(value);
                    if (iid == null) {
                        iid = newValue(value.getBytes(StandardCharsets.UTF_8));
                        valueIid.put(value, iid);
                    }
                    a.uint(ANNOTATION_STRING_VALUE_IID, iid);
                } else {
                    a.string(ANNOTATION_STRING_VALUE, value);
                }
                ev.message(EVENT_DEBUG_ANNOTATIONS, a);
            }

            /** A grid or block size as the interned string "(x, y, z)"; launches repeat few shapes. */
            void annotateDim(String name, int x, int y, int z) {
                long key = ((long) x << 32) ^ ((long) y << 16) ^ z ^ (name.equals("grid") ? 0 : 1L << 63);
                int iid = dimIid.get(key);
                if (iid == 0) {
                    iid = newValue(("(" + x + ", " + y + ", " + z + ")").getBytes(StandardCharsets.US_ASCII));
                    dimIid.put(key, iid);
                }
                WireWriter a = scratch;
                a.reset();
                a.uint(ANNOTATION_NAME_IID, annotationName(name));
                a.uint(ANNOTATION_STRING_VALUE_IID, iid);
                ev.message(EVENT_DEBUG_ANNOTATIONS, a);
            }

            int newValue(byte[] utf8) {
                int iid = nextValueIid++;
                intern(internedValues, INTERNED_ANNOTATION_STRING_VALUES, iid, utf8);
                return iid;
            }

            /** Adds one (iid, name) entry to this packet's interned data of one kind (names, values). */
            void intern(WireWriter table, int field, int iid, byte[] utf8) {
                scratch2.reset();
                scratch2.uint(INTERNED_IID, iid);
                scratch2.bytes(INTERNED_NAME, utf8);
                table.message(field, scratch2);
            }

            int annotationName(String name) {
                Integer iid = annotationNameIid.get(name);
                if (iid == null) {
                    iid = annotationNameIid.size() + 1;
                    annotationNameIid.put(name, iid);
                    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
                    intern(internedAnnotationNames, INTERNED_ANNOTATION_NAMES, iid, utf8);
                }
                return iid;
            }

            int internName(int nameId) {
                if (nameId >= nameIid.length) {
                    nameIid = Arrays.copyOf(nameIid, Math.max(nameId + 1, nameIid.length * 2));
                }
                int iid = nameIid[nameId];
                if (iid == 0) {
                    iid = nextNameIid++;
                    nameIid[nameId] = iid;
                    intern(internedNames, INTERNED_EVENT_NAMES, iid, nameBytes(nameId));
                }
                return iid;
            }

            /**
             * Writes one event packet straight into the output, computing its length up front so
             * nothing is encoded twice: timestamp delta, track event, new interned data, sequence id
             * and the flag saying the packet depends on this sequence's incremental state.
             */
            void emit(long t) throws IOException {
                long delta = t - lastTs;
                if (delta < 0) {
                    throw new IllegalStateException("events of sequence " + id + " went back in time: "
                            + t + " ns after " + lastTs + " ns");
                }
                lastTs = t;
                int internedSize = internedNames.size() + internedAnnotationNames.size() + internedValues.size();
                int body = 1 + WireWriter.varintSize(delta)
                        + 1 + WireWriter.varintSize(ev.size()) + ev.size()
                        + 1 + WireWriter.varintSize(id)
                        + 2;
                if (internedSize > 0) {
                    body += 1 + WireWriter.varintSize(internedSize) + internedSize;
                }
                // Every field number below is under 16, so each tag is one byte: (field << 3) | wire type.
                WireWriter out = packets.buffer();
                out.reserve(1 + 5 + body);
                out.putByte(TRACE_PACKET << 3 | WireType.LEN);
                out.putVarint(body);
                out.putByte(PACKET_TIMESTAMP << 3 | WireType.VARINT);
                out.putVarint(delta);
                out.putByte(PACKET_TRACK_EVENT << 3 | WireType.LEN);
                out.putVarint(ev.size());
                out.putAll(ev);
                if (internedSize > 0) {
                    out.putByte(PACKET_INTERNED_DATA << 3 | WireType.LEN);
                    out.putVarint(internedSize);
                    out.putAll(internedNames);
                    out.putAll(internedAnnotationNames);
                    out.putAll(internedValues);
                    internedNames.reset();
                    internedAnnotationNames.reset();
                    internedValues.reset();
                }
                out.putByte(PACKET_TRUSTED_SEQUENCE_ID << 3 | WireType.VARINT);
                out.putVarint(id);
                out.putByte(PACKET_SEQUENCE_FLAGS << 3 | WireType.VARINT);
                out.putByte(SEQ_NEEDS_INCREMENTAL_STATE);
                packets.written();
            }
        }
    }
}
