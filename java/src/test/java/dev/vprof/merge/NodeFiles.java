package dev.vprof.merge;

import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.NodeEvidence;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.capture.WindowChunk;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Capture files of one node as the engine writes them, built here with everything known: the
 * node's evidence (hostname, boot id, adjtimex's word, the start pair; or none at all, as a trace
 * has), its processes with their ranks, all-reduce kernels ending at given instants (CUPTI time =
 * CLOCK_REALTIME, as on Linux) and the capture's window.
 */
public final class NodeFiles {
    /** 2025-10-09 08:53:20 UTC. */
    public static final long T0 = 1_760_000_000_000_000_000L;
    public static final long S = 1_000_000_000L;

    private final Path file;
    private String host = "";
    private final Map<String, String> node = new LinkedHashMap<>();
    private final List<int[]> processes = new ArrayList<>(); // pid, rank (-1 none), world (-1 none)
    private long[] ends = new long[0];
    private long windowStart = -1, windowEnd = -1;
    private boolean gemmsOnly;

    private NodeFiles(Path file) {
        this.file = file;
    }

    public static NodeFiles at(Path file) {
        return new NodeFiles(file);
    }

    /** Node evidence of a host whose clock adjtimex calls synchronised within {@code maxErrorUs}. */
    public NodeFiles host(String hostname, String bootId, long maxErrorUs) {
        host = hostname;
        node.put(NodeEvidence.HOSTNAME, hostname);
        node.put(NodeEvidence.BOOT_ID, bootId);
        node.put(NodeEvidence.SYNC, "true");
        node.put(NodeEvidence.SYNC_STATE, "0");
        node.put(NodeEvidence.MAX_ERROR, Long.toString(maxErrorUs));
        return this;
    }

    /** A launcher variable of the front end's environment, as {@code node.env.NAME}. */
    public NodeFiles env(String name, String value) {
        node.put(NodeEvidence.RANK_ENV + name, value);
        return this;
    }

    /** A process with RANK {@code rank} of WORLD_SIZE {@code world} (null: unset). */
    public NodeFiles process(int pid, Integer rank, Integer world) {
        processes.add(new int[] {pid, rank == null ? -1 : rank, world == null ? -1 : world});
        return this;
    }

    /** The capture's window, {@code fromS} to {@code toS} seconds after {@link #T0} (the front end's start pair too). */
    public NodeFiles window(long fromS, long toS) {
        windowStart = T0 + fromS * S;
        windowEnd = T0 + toS * S;
        node.put(NodeEvidence.START_REALTIME, Long.toString(windowStart));
        return this;
    }

    /** {@code n} all-reduces from {@code fromS}: every 2 ms exactly, or 1 to 3 ms apart by {@code seed}. */
    public NodeFiles allReduces(int n, long fromS, Long seed) {
        SplittableRandom rnd = seed == null ? null : new SplittableRandom(seed);
        ends = new long[n];
        long t = T0 + fromS * S;
        for (int i = 0; i < n; i++) {
            t += rnd == null ? 2_000_000 : 1_000_000 + rnd.nextLong(2_000_000);
            ends[i] = t;
        }
        return this;
    }

    /** A few kernels that are no collective, from {@code fromS} to {@code toS}. */
    public NodeFiles gemms(long fromS, long toS) {
        ends = new long[] {T0 + fromS * S, T0 + toS * S};
        gemmsOnly = true;
        return this;
    }

    public Path write() throws IOException {
        CaptureMetadata md = new CaptureMetadata(host, windowStart > 0 ? windowStart : T0, "0.1.0",
                List.of("vprof", "run"), node);
        try (CaptureWriter w = CaptureWriter.create(file, md)) {
            for (int[] p : processes) {
                w.process(new ProcessInfo(p[0], 1, "python3 -m vllm.worker", 130000, 1, 1 << 20,
                        windowStart > 0 ? windowStart : T0, p[1] < 0 ? null : p[1], p[1] < 0 ? null : 0,
                        p[2] < 0 ? null : p[2]));
                RingRecords r = new RingRecords();
                long first = ends.length > 0 ? ends[0] - S : T0;
                r.clockSync(first, first, 1);
                r.string(1, gemmsOnly ? "ampere_sgemm_128x64_tn" : "ncclDevKernel_AllReduce_Sum_bf16_RING_LL")
                        .kernelDesc(1, 1, 0, 7);
                for (int i = 0; i < ends.length; i++) {
                    r.kernel(ends[i] - 20_000, ends[i], 100 + i, 1);
                }
                if (ends.length > 0) {
                    long last = ends[ends.length - 1] + 1000;
                    r.clockSync(last, last, 2);
                }
                r.writeTo(w, p[0]);
            }
            if (windowStart > 0) {
                w.chunk(CaptureFormat.KIND_WINDOW, new WindowChunk(windowStart, windowEnd,
                        Map.of(NodeEvidence.END_REALTIME, windowEnd)).toJson());
            }
        }
        return file;
    }
}
