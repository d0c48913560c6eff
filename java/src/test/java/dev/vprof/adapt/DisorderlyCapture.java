package dev.vprof.adapt;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Captures whose records lie in the file as out of order as a real one's, and worse, for checking
 * that a streamed walk gives what a walk over the whole timeline gives. Two processes, each with
 * three GPU streams on two devices, two launching threads, copies and sets, CUDA graph launches,
 * and NVTX ranges of every shape: a range around everything, steps with ranges inside, start/end
 * ranges that cross (clamped), ranges starting at the same nanosecond, instants, an id started
 * twice, one never ended, an end without a start. Records are written in many small chunks, the
 * two processes' chunks interleaved; each track's records lag by its own amount (stream 13's by
 * several steps, as a stream whose work is queued ahead of the host), with random jitter that
 * also swaps neighbours within a track.
 */
public final class DisorderlyCapture {
    private DisorderlyCapture() {}

    static final long T0 = 1_760_000_000_000_000_000L;
    static final long SKEW = 2_500_000_000L;
    static final int[] PIDS = {100, 200};
    static final int STREAM_7 = 1;
    static final int STREAM_9 = 3;
    static final int STREAM_13 = 4;

    private record Rec(long emitAt, long order, Consumer<RingRecords> write) {}

    /** Writes the capture; {@code steps} per process, chunks of about {@code perChunk} records. */
    public static Path write(Path file, long seed, int steps, int perChunk) throws IOException {
        Random random = new Random(seed);
        try (CaptureWriter w = CaptureWriter.create(file,
                new CaptureMetadata("host", T0, "0.1.0", List.of("vprof", "run"), Map.of()))) {
            List<List<Rec>> byProcess = new ArrayList<>();
            for (int pid : PIDS) {
                w.process(new ProcessInfo(pid, 1, "/usr/bin/python3 worker.py", 130000, 1, 1 << 20, T0));
                RingRecords head = new RingRecords();
                for (int i = 0; i <= 4; i++) {
                    long real = T0 + i * 1_000_000_000L;
                    head.clockSync(real + SKEW + i * 7L, real, real);
                }
                head.string(1, "gemm").string(2, "attn").string(3, "serve").string(4, "step").string(5, "forward")
                        .string(6, "vllm").string(7, "cross").string(8, "mark").string(9, "nccl")
                        .kernelDesc(STREAM_7, 1, 0, 7).kernelDesc(2, 2, 0, 7).kernelDesc(STREAM_9, 1, 0, 9)
                        .kernelDesc(STREAM_13, 9, 1, 13)
                        .rangeBegin(VprofRing.SOURCE_PROFILER, 1, 1, T0 + SKEW);
                head.writeTo(w, pid);
                byProcess.add(records(random, steps));
            }
            // Chunks of the two processes alternate; each flush ends every process's chunk.
            int[] at = new int[PIDS.length];
            boolean more = true;
            while (more) {
                more = false;
                for (int p = 0; p < PIDS.length; p++) {
                    List<Rec> recs = byProcess.get(p);
                    if (at[p] >= recs.size()) {
                        continue;
                    }
                    RingRecords chunk = new RingRecords();
                    int n = 1 + random.nextInt(2 * perChunk);
                    for (int k = 0; k < n && at[p] < recs.size(); k++) {
                        recs.get(at[p]++).write().accept(chunk);
                    }
                    chunk.writeTo(w, PIDS[p]);
                    more |= at[p] < recs.size();
                }
                w.flush();
            }
            long end = T0 + SKEW + 1_000_000 + (steps + 5) * 100_000L; // after the last step
            for (int pid : PIDS) {
                new RingRecords().rangeEnd(VprofRing.SOURCE_PROFILER, 1, 1, end, 0, 0, 0).writeTo(w, pid);
            }
        }
        return file;
    }

    /** One process's records, in the order the file will hold them. */
    private static List<Rec> records(Random random, int steps) {
        List<Rec> recs = new ArrayList<>();
        long[] order = {0};
        // emit(time the record lands in the ring, writer); ordered by landing time, ties by creation.
        java.util.function.BiConsumer<Long, Consumer<RingRecords>> emit =
                (t, rec) -> recs.add(new Rec(t, order[0]++, rec));
        long base = T0 + SKEW + 1_000_000;
        int corr = 1;
        int marker = 1;
        emit.accept(base, r -> r.marker(base, 1_000_000, VprofRing.MARKER_START, 3, 6, 1)); // around everything
        for (int s = 0; s < steps; s++) {
            long t = base + s * 100_000L;
            int stepId = marker++;
            emit.accept(t, r -> r.marker(t, stepId, VprofRing.MARKER_START, 4, 6, 1));
            int fwd = marker++;
            emit.accept(t + 1_000, r -> r.marker(t + 1_000, fwd, VprofRing.MARKER_START, 5, 0, 1));
            for (int k = 0; k < 6; k++) {
                long ks = t + 2_000 + k * 9_000L;
                long ke = ks + 4_000 + random.nextInt(6_000);
                int c = corr++;
                int tid = 1 + (k & 1);
                int desc = k % 3 == 0 ? STREAM_7 : k % 3 == 1 ? STREAM_9 : STREAM_13;
                long lag = desc == STREAM_13 ? 700_000 : desc == STREAM_9 ? 20_000 : 5_000;
                emit.accept(ks - 1_000, r -> r.api(ks - 1_500, ks - 500, c, 211, VprofRing.API_RUNTIME, tid));
                long landing = ke + lag + random.nextInt(30_000);
                emit.accept(landing, r -> r.kernel(ks, ke, c, desc));
            }
            emit.accept(t + 60_000 + random.nextInt(5_000), r -> r.memcpy(t + 56_000, t + 58_000, 4096, 2, 0));
            emit.accept(t + 62_000, r -> r.memset(t + 59_000, t + 60_000, 512, 0));
            if (s % 5 == 0) { // a graph launch: three node kernels under one correlation id
                int c = corr++;
                emit.accept(t + 61_000, r -> r.api(t + 60_500, t + 61_000, c, 311, VprofRing.API_RUNTIME, 1));
                for (int n = 0; n < 3; n++) {
                    long ks = t + 62_000 + n * 3_000L;
                    emit.accept(ks + 9_000 + random.nextInt(4_000), r -> r.kernel(ks, ks + 2_000, c, 2));
                }
            }
            emit.accept(t + 80_000, r -> r.marker(t + 80_000, fwd, VprofRing.MARKER_END, 0, 0, 1));
            if (s % 4 == 1) { // two start/end ranges on thread 2 that cross: the inner one outlives the outer
                int outer = marker++;
                int inner = marker++;
                emit.accept(t + 3_000, r -> r.marker(t + 3_000, outer, VprofRing.MARKER_START, 7, 0, 2));
                emit.accept(t + 4_000, r -> r.marker(t + 4_000, inner, VprofRing.MARKER_START, 7, 0, 2));
                emit.accept(t + 9_000, r -> r.marker(t + 9_000, outer, VprofRing.MARKER_END, 0, 0, 2));
                emit.accept(t + 12_000 + random.nextInt(3) * 1_000L, r -> r.marker(t + 12_000, inner, VprofRing.MARKER_END, 0, 0, 2));
            }
            if (s % 7 == 3) { // three ranges start at one nanosecond; their ends order them
                int a = marker++;
                int b = marker++;
                int c2 = marker++;
                emit.accept(t + 20_000, r -> r.marker(t + 20_000, a, VprofRing.MARKER_START, 7, 0, 2)
                        .marker(t + 20_000, b, VprofRing.MARKER_START, 8, 0, 2)
                        .marker(t + 20_000, c2, VprofRing.MARKER_START, 5, 0, 2));
                emit.accept(t + 20_000, r -> r.marker(t + 20_000, c2, VprofRing.MARKER_END, 0, 0, 2));
                emit.accept(t + 24_000, r -> r.marker(t + 24_000, a, VprofRing.MARKER_END, 0, 0, 2));
                emit.accept(t + 41_000, r -> r.marker(t + 41_000, b, VprofRing.MARKER_END, 0, 0, 2));
            }
            if (s % 3 == 2) {
                emit.accept(t + 30_000, r -> r.marker(t + 30_000, 0, VprofRing.MARKER_INSTANT, 8, 6, 1));
            }
            if (s == steps / 2) { // an id started twice (the first never ends), an end without a start
                int reused = marker++;
                emit.accept(t + 33_000, r -> r.marker(t + 33_000, reused, VprofRing.MARKER_START, 7, 0, 2)
                        .marker(t + 34_000, reused, VprofRing.MARKER_START, 8, 0, 2)
                        .marker(t + 35_000, reused, VprofRing.MARKER_END, 0, 0, 2)
                        .marker(t + 36_000, 999_999, VprofRing.MARKER_END, 0, 0, 2));
            }
            if (s == steps - 3) { // never ended: drawn to the process's last record
                emit.accept(t + 50_000, r -> r.marker(t + 50_000, 1_000_001, VprofRing.MARKER_START, 8, 0, 2));
            }
            emit.accept(t + 90_000, r -> r.marker(t + 90_000, stepId, VprofRing.MARKER_END, 0, 0, 1));
        }
        long end = base + steps * 100_000L;
        emit.accept(end, r -> r.marker(end, 1_000_000, VprofRing.MARKER_END, 0, 0, 1));
        recs.sort(Comparator.comparingLong(Rec::emitAt).thenComparingLong(Rec::order));
        return recs;
    }
}
