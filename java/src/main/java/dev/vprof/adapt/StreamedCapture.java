package dev.vprof.adapt;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.EventArgs;
import dev.vprof.capture.Warnings;
import dev.vprof.names.KernelNames;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.RangeNesting;
import dev.vprof.timeline.ThreadSliceKind;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.timeline.TimelineSource;
import dev.vprof.timeline.TimelineVisitor;
import dev.vprof.timeline.TrackQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * A capture file as a {@link TimelineSource} whose memory does not grow with the capture: the
 * layout (a {@link Timeline}, which counts slices and keeps none) is built by one pass over the records, and each
 * walk is another pass that hands events out through a reorder window per track.
 *
 * <p><b>Why per track.</b> Records of one GPU stream, one thread's API calls or one thread's NVTX
 * ranges lie in the file nearly in time order, but tracks drift far apart: a process whose streams
 * queue work ahead of the host writes records of one stream minutes later than another's (the
 * CUPTI test double's unpaced streams sit 115 s apart in a 10 M-kernel capture). A time order over
 * the whole capture would have to hold everything in between; every format needs order only
 * within a track (Perfetto's sequences), so each track is ordered on its own.
 *
 * <p><b>When an event may leave.</b> The layout pass notes, for each track, the chunks its events
 * come from and the earliest time among them. During a walk, once a chunk is read, a track it
 * touched may hand out every event earlier than the earliest of its later chunks: none can still
 * come. That is exact (no event is ever placed late, whatever the disorder) and holds only what
 * the file itself leaves unsorted: about a chunk's worth per track for a capture in order.
 *
 * <p>A walk hands out: GPU ops and API calls per track in slice order; each NVTX range complete
 * when its END is read; for formats of nested slices, ranges as begins and ends in time order
 * through {@link RangeNesting}. Capture ranges, devices and everything else are in the layout.
 */
final class StreamedCapture implements TimelineSource {
    /** The chunk index events made while closing what the file left open belong to: after every chunk. */
    static final int AFTER_LAST_CHUNK = Integer.MAX_VALUE;

    private final CaptureReader reader;
    private final Timeline layout;
    private final Map<Integer, ClockMapping> clocks;
    private final KernelNames names;
    private final Map<String, Integer> kernelNameIds;
    private final TrackTimes tracks;
    private LongConsumer progress;
    private long heldPeak;

    /**
     * The source of a capture whose layout pass is done: {@code layout} and {@code tracks} were
     * filled by a {@link RecordAdapter} pass over {@code reader} (then {@link TrackTimes#seal}ed).
     */
    StreamedCapture(CaptureReader reader, Timeline layout, Map<Integer, ClockMapping> clocks, KernelNames names,
                    Map<String, Integer> kernelNameIds, TrackTimes tracks) {
        this.reader = reader;
        this.layout = layout;
        this.clocks = clocks;
        this.names = names;
        this.kernelNameIds = kernelNameIds;
        this.tracks = tracks;
    }

    @Override
    public Timeline layout() {
        return layout;
    }

    /** Hears the records read so far during each walk, every million (null: nothing). */
    void progress(LongConsumer listener) {
        this.progress = listener;
    }

    /** The most events held at once by the reorder windows of any walk so far. */
    long heldPeak() {
        return heldPeak;
    }

    @Override
    public void walk(TimelineVisitor visitor) throws IOException {
        Walk walk = new Walk(visitor);
        RecordAdapter adapter = new RecordAdapter(layout, walk, clocks, names, kernelNameIds, CaptureTimeline.notes(), progress);
        try {
            reader.forEachRecord(adapter);
            walk.chunk(AFTER_LAST_CHUNK);
            adapter.finish();
            walk.finish();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            heldPeak = Math.max(heldPeak, walk.heldPeak);
        }
    }

    // ---- the layout pass: which chunks each track's events come from ----

    /** One track's chunks (in file order) with the earliest event time in each. */
    private static final class ChunkTimes {
        int[] chunk = new int[4];
        long[] earliest = new long[4];
        int n;
        /** earliest[k..n) at k, once sealed. */
        long[] laterMin;

        void note(int chunkIndex, long t) {
            if (n > 0 && chunk[n - 1] == chunkIndex) {
                earliest[n - 1] = Math.min(earliest[n - 1], t);
                return;
            }
            if (n == chunk.length) {
                chunk = Arrays.copyOf(chunk, n * 2);
                earliest = Arrays.copyOf(earliest, n * 2);
            }
            chunk[n] = chunkIndex;
            earliest[n] = t;
            n++;
        }

        void seal() {
            chunk = Arrays.copyOf(chunk, n);
            laterMin = new long[n + 1];
            laterMin[n] = Long.MAX_VALUE;
            for (int k = n - 1; k >= 0; k--) {
                laterMin[k] = Math.min(laterMin[k + 1], earliest[k]);
            }
            earliest = null;
        }

        /** The earliest time of the events in chunks after {@code chunkIndex}; MAX_VALUE when none. */
        long earliestAfter(int chunkIndex) {
            int k = Arrays.binarySearch(chunk, chunkIndex);
            k = k >= 0 ? k + 1 : -k - 1;
            return laterMin[k];
        }
    }

    /** Key of a thread's range track: its process and tid (the thread itself may come later). */
    private record RangeTrackKey(TimelineProcess process, long tid) {}

    /**
     * What the layout pass records: the counts, capture ranges and devices of the layout, each
     * track's chunk times, and the ranges that never end because their id was started again.
     */
    static final class TrackTimes implements AdaptedRecords {
        final Map<GpuStream, ChunkTimes> streams = new IdentityHashMap<>();
        final Map<CpuThread, ChunkTimes> apiTracks = new IdentityHashMap<>();
        final Map<RangeTrackKey, ChunkTimes> rangeTracks = new HashMap<>();
        final Set<Long> cancelled = new HashSet<>();
        int chunk = -1;
        GpuStream lastStream;
        ChunkTimes lastStreamTimes;

        @Override
        public void chunk(int chunkIndex) {
            chunk = chunkIndex;
        }

        @Override
        public void gpuOp(GpuStream stream, GpuOp op) {
            stream.count(op);
            if (stream != lastStream) {
                lastStream = stream;
                lastStreamTimes = streams.computeIfAbsent(stream, s -> new ChunkTimes());
            }
            lastStreamTimes.note(chunk, op.start());
        }

        @Override
        public void apiCall(CpuThread thread, ApiCall call) {
            thread.countApiCall(call);
            apiTracks.computeIfAbsent(thread, t -> new ChunkTimes()).note(chunk, call.start());
        }

        @Override
        public void rangeStarted(TimelineProcess process, long tid, long serial, long startNs, int nameId, int domainId) {
            rangeTracks.computeIfAbsent(new RangeTrackKey(process, tid), k -> new ChunkTimes()).note(chunk, startNs);
        }

        @Override
        public void rangeCancelled(long serial) {
            cancelled.add(serial);
        }

        @Override
        public void processFields(TimelineProcess process, EventArgs fields) {
            process.sourceFields(fields);
        }

        @Override
        public void range(CpuThread thread, long serial, boolean started, int nameId, long startNs, long endNs,
                          int domainId, ThreadSliceKind kind, EventArgs args) {
            thread.countRange(startNs);
            // A range's end, or an instant's start and end, on the thread's range track.
            rangeTracks.computeIfAbsent(new RangeTrackKey(thread.process(), thread.tid()), k -> new ChunkTimes())
                    .note(chunk, started ? endNs : startNs);
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

        void seal() {
            streams.values().forEach(ChunkTimes::seal);
            apiTracks.values().forEach(ChunkTimes::seal);
            rangeTracks.values().forEach(ChunkTimes::seal);
        }
    }

    // ---- a walk: the same mapping, events through a reorder window per track ----

    /** One track during a walk: its held events and where they go. */
    private static final class Track {
        final TrackQueue queue = new TrackQueue();
        final ChunkTimes times;
        final HandOut handOut;
        boolean touched;

        /** Takes the next event out of a track's queue and hands it on. */
        interface HandOut {
            void next(TrackQueue queue) throws IOException;
        }

        Track(ChunkTimes times, HandOut handOut) {
            this.times = times;
            this.handOut = handOut;
        }

        /** Hands out, in order, every held event earlier than {@code frontier}. */
        void release(long frontier) throws IOException {
            while (!queue.isEmpty() && queue.nextTime() < frontier) {
                handOut.next(queue);
            }
        }
    }

    private final class Walk implements AdaptedRecords {
        final TimelineVisitor visitor;
        final boolean nested;
        // In the order tracks first had events, so that what is left at the end leaves in a fixed order.
        final Map<GpuStream, Track> streams = new LinkedHashMap<>();
        final Map<CpuThread, Track> apiTracks = new LinkedHashMap<>();
        final Map<RangeTrackKey, Track> rangeTracks = new LinkedHashMap<>();
        final List<RangeNesting> nestings = new ArrayList<>();
        final List<Track> touched = new ArrayList<>();
        final GpuOp op = new GpuOp();
        final ApiCall call = new ApiCall();
        int chunk = -1;
        long seq;
        long arrivals;
        long held;
        long heldPeak;
        GpuStream lastStream;
        Track lastStreamTrack;

        Walk(TimelineVisitor visitor) {
            this.visitor = visitor;
            this.nested = visitor.nestedRanges();
        }

        @Override
        public void chunk(int chunkIndex) {
            // The chunk just read is all in: its tracks may hand out what no later chunk can precede.
            try {
                for (Track t : touched) {
                    t.touched = false;
                    int before = t.queue.size();
                    t.release(t.times.earliestAfter(chunk));
                    held -= before - t.queue.size();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            touched.clear();
            chunk = chunkIndex;
        }

        private void touch(Track t) {
            if (!t.touched) {
                t.touched = true;
                touched.add(t);
            }
            if (++held > heldPeak) {
                heldPeak = held;
            }
        }

        @Override
        public void gpuOp(GpuStream stream, GpuOp mapped) {
            Track t = lastStreamTrack;
            if (stream != lastStream) {
                t = streams.computeIfAbsent(stream, s -> new Track(tracks.streams.get(s),
                        q -> visitor.gpuOp(s, q.takeGpuOp(op))));
                lastStream = stream;
                lastStreamTrack = t;
            }
            t.queue.add(mapped, seq++);
            touch(t);
        }

        @Override
        public void apiCall(CpuThread thread, ApiCall mapped) {
            Track t = apiTracks.computeIfAbsent(thread, th -> new Track(tracks.apiTracks.get(th),
                    q -> visitor.apiCall(th, q.takeApiCall(call))));
            t.queue.add(mapped, seq++);
            touch(t);
        }

        private Track rangeTrack(TimelineProcess process, long tid) {
            return rangeTracks.computeIfAbsent(new RangeTrackKey(process, tid), k -> {
                RangeNesting nesting = new RangeNesting(process.existingThread(tid), visitor);
                nestings.add(nesting);
                TrackQueue.RangeEvent feed = (type, ts, serial, nameId, domainId, arrival) -> {
                    if (type == TrackQueue.RANGE_START) {
                        nesting.start(serial, ts, nameId, domainId);
                    } else {
                        nesting.end(serial, ts, arrival);
                    }
                };
                return new Track(tracks.rangeTracks.get(k), q -> q.takeRange(feed));
            });
        }

        @Override
        public void rangeStarted(TimelineProcess process, long tid, long serial, long startNs, int nameId, int domainId) {
            if (!nested || tracks.cancelled.contains(serial)) {
                return;
            }
            Track t = rangeTrack(process, tid);
            t.queue.addRange(TrackQueue.RANGE_START, startNs, serial, nameId, domainId, 0, seq++);
            touch(t);
        }

        @Override
        public void rangeCancelled(long serial) {}

        @Override
        public boolean wantsEventArgs() {
            return visitor.wantsEventArgs();
        }

        @Override
        public void range(CpuThread thread, long serial, boolean started, int nameId, long startNs, long endNs,
                          int domainId, ThreadSliceKind kind, EventArgs args) {
            long arrival = arrivals++;
            try {
                visitor.threadSlice(thread, kind, nameId, startNs, endNs, domainId, args);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (!nested) {
                return;
            }
            Track t = rangeTrack(thread.process(), thread.tid());
            if (!started) {
                t.queue.addRange(TrackQueue.RANGE_START, startNs, serial, nameId, domainId, 0, seq++);
                touch(t);
            }
            t.queue.addRange(TrackQueue.RANGE_END, endNs, serial, nameId, domainId, arrival, seq++);
            touch(t);
        }

        @Override
        public void captureRange(TimelineProcess process, CaptureRange range) {
            // In the layout already.
        }

        @Override
        public void device(TimelineProcess process, DeviceProperties device) {
            // In the layout already.
        }

        /** After the last record: everything left, then the ranges still open. */
        void finish() throws IOException {
            List<Track> all = new ArrayList<>(streams.values());
            all.addAll(apiTracks.values());
            all.addAll(rangeTracks.values());
            for (Track t : all) {
                t.release(Long.MAX_VALUE);
            }
            held = 0;
            for (RangeNesting n : nestings) {
                n.finish();
            }
        }
    }
}
