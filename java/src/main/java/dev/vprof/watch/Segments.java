package dev.vprof.watch;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.MetricsCodec;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RecordDecoder;
import dev.vprof.capture.WindowChunk;
import dev.vprof.engine.CaptureOutput;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The rolling window of {@code vprof watch}: the capture's output as a series of ordinary capture
 * files ({@link CaptureWriter}, one per {@code segment} of time), the oldest deleted once the rest
 * still cover {@code keep}, or once they all take more than {@code maxDisk}. Each file begins with
 * the watch's metadata (its own start), every process still in the capture and each one's
 * {@link Prelude}, so each reads alone with {@code vprof report}; its processes' counters for its
 * share of time and its own WINDOW close it.
 *
 * <p>A write that fails (a full disk) never ends the watch while there is something to give back:
 * the segment being written is closed as it stands (the writer cuts the failed chunk off, so the
 * file reads), the oldest segments are deleted and the next begins; the records of the failed
 * write are lost and counted, and the first time says so. Only when no segment is left to delete
 * does the failure reach the capture, which ends with its one sentence (the agents disarm, the
 * targets run on).
 *
 * <p>The drain thread makes every call of {@link CaptureOutput}; {@link #closedSegments},
 * {@link #pin} and {@link #requestCut} may come from any thread.
 */
public final class Segments implements CaptureOutput {
    /** How the window is cut and bounded. */
    public record Limits(Duration segment, Duration keep, long maxDiskBytes) {}

    /** What the watch hears from the window as it is written (on the drain thread). */
    public interface Listener {
        /** Scrapes of the server's /metrics, as they go into the file. */
        default void scrapes(List<ScrapeResult> scrapes) {}

        /** A segment was closed (and is in {@link #closedSegments}). */
        default void closed(Segment segment) {}
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** One process in the window. */
    private static final class Proc {
        final ProcessInfo info;
        final Prelude prelude = new Prelude();
        final RecordDecoder decoder;
        /** Its agent's counters already written into earlier segments, since it joined. */
        AgentCounters written = new AgentCounters(0, 0, 0, 0, 0, 0);

        Proc(ProcessInfo info) {
            this.info = info;
            this.decoder = new RecordDecoder(info.pid());
        }
    }

    private final Path dir;
    private final CaptureMetadata metadata;
    private final Limits limits;
    private final PrintWriter log;
    private final Listener listener;
    private final GpuTally gpu = new GpuTally();
    private final Map<Integer, Proc> procs = new LinkedHashMap<>();
    /** Closed segments, oldest first; guarded by itself. */
    private final List<Segment> closed = new ArrayList<>();
    /** Epoch ns from which no segment may be deleted (a dump waits for it); guarded by {@link #closed}. */
    private final Map<Long, Long> pins = new LinkedHashMap<>();
    private long nextPin;

    private CaptureWriter writer;
    private int number;
    private long segmentStartEpochNs;
    private long segmentStartNanos;
    private long bodyOffset;
    private boolean windowWritten;
    private long segmentScrapes;
    private long segmentGaps;
    private volatile boolean cutRequested;
    private volatile long openBytes;
    private volatile long closedBytes;
    private volatile long windowStartEpochNs;
    private volatile long droppedForKeep;
    private volatile long droppedForDisk;
    private volatile long diskFull;
    private volatile long bytesLost;
    private boolean saidMaxDisk;
    private boolean saidDiskFull;
    private boolean closedAll;

    private Segments(Path dir, CaptureMetadata metadata, Limits limits, PrintWriter log, Listener listener) {
        this.dir = dir;
        this.metadata = metadata;
        this.limits = limits;
        this.log = log;
        this.listener = listener;
    }

    /** Where the segments of a watch go: {@code dir}, which must exist and is the watch's alone. */
    public static CaptureOutput.Factory in(Path dir, Limits limits, PrintWriter log, Listener listener,
                                           Consumer<Segments> made) {
        return (md, start) -> {
            Segments s = new Segments(dir, md, limits, log, listener);
            s.begin(start);
            made.accept(s);
            return s;
        };
    }

    /** The name of segment {@code n} in its folder. */
    static String fileName(int n) {
        return String.format("segment-%06d.vprof", n);
    }

    // ---- CaptureOutput: the drain thread --------------------------------------------------------

    @Override
    public void process(ProcessInfo info) throws IOException {
        procs.put(info.pid(), new Proc(info));
        write(() -> writer.process(info));
    }

    @Override
    public void records(int pid, MemorySegment src, long offset, long length) throws IOException {
        Proc p = procs.get(pid);
        if (p != null) {
            long pos = offset;
            long end = offset + length;
            while (pos + VprofRing.RecordHeader.SIZE <= end) {
                int len = src.get(INT, pos);
                if (len < VprofRing.RecordHeader.SIZE || pos + len > end) {
                    break; // the ring reader hands over whole records only; never walk past one that is not
                }
                p.prelude.see(src, pos, len, src.get(INT, pos + VprofRing.RecordHeader.TYPE));
                pos += len;
            }
            p.decoder.decode(src, offset, length, gpu);
        }
        try {
            writer.records(pid, src, offset, length);
        } catch (IOException e) {
            diskFull(e, length);
        }
    }

    @Override
    public void processEnd(int pid, AgentCounters counters) throws IOException {
        Proc p = procs.remove(pid);
        AgentCounters share = p == null ? counters : counters.minus(p.written);
        write(() -> writer.processEnd(pid, share));
    }

    @Override
    public void chunk(int kind, byte[] payload) throws IOException {
        byte[] body = payload;
        if (kind == CaptureFormat.KIND_METRICS) {
            try {
                List<ScrapeResult> scrapes = MetricsCodec.decode(payload);
                for (ScrapeResult r : scrapes) {
                    if (r instanceof ScrapeResult.Gap) {
                        segmentGaps++;
                    } else {
                        segmentScrapes++;
                    }
                }
                listener.scrapes(scrapes);
            } catch (IOException e) {
                log.println("vprof: warning: watch: a chunk of scrapes did not decode (" + e.getMessage()
                        + "); the conditions skip it");
            }
        } else if (kind == CaptureFormat.KIND_WINDOW) {
            // The capture's own window opens at the watch's start; this segment's opens at its own.
            body = windowOf(payload, segmentStartEpochNs);
            windowWritten = true;
        }
        byte[] b = body;
        write(() -> writer.chunk(kind, b));
    }

    @Override
    public long startEpochNs() {
        return metadata.startEpochNs();
    }

    @Override
    public void flushIfDue(long nowNs) throws IOException {
        write(() -> writer.flushIfDue(nowNs));
        openBytes = writer.size();
    }

    @Override
    public long bytesWritten() {
        return closedBytes + openBytes;
    }

    @Override
    public boolean cutDue(long nowNs) {
        return cutRequested || nowNs - segmentStartNanos >= limits.segment().toNanos();
    }

    @Override
    public void cut(Map<Integer, AgentCounters> sinceJoined) throws IOException {
        cutRequested = false;
        long at = Posix.realtimeNanos();
        for (Map.Entry<Integer, AgentCounters> e : sinceJoined.entrySet()) {
            Proc p = procs.get(e.getKey());
            if (p != null) {
                AgentCounters share = e.getValue().minus(p.written);
                p.written = e.getValue();
                write(() -> writer.processEnd(p.info.pid(), share));
            }
        }
        closeSegment(at, true);
        beginOrFree(at, null);
    }

    @Override
    public void close() throws IOException {
        if (closedAll) {
            return;
        }
        closedAll = true;
        closeSegment(Posix.realtimeNanos(), !windowWritten);
    }

    // ---- any thread -----------------------------------------------------------------------------

    /** Asks the drain thread to close the segment being written at its next turn (a dump's window has passed). */
    public void requestCut() {
        cutRequested = true;
    }

    /** The closed segments, oldest first. */
    public List<Segment> closedSegments() {
        synchronized (closed) {
            return List.copyOf(closed);
        }
    }

    /**
     * Keeps every segment that holds {@code fromEpochNs} or later from deletion by the window's
     * bounds until {@link #unpin}; a full disk may still take them (said then).
     */
    public long pin(long fromEpochNs) {
        synchronized (closed) {
            long id = ++nextPin;
            pins.put(id, fromEpochNs);
            return id;
        }
    }

    public void unpin(long id) {
        synchronized (closed) {
            pins.remove(id);
        }
    }

    /** GPU time as the kernels came, for the exposition. */
    GpuTally gpu() {
        return gpu;
    }

    /** What the window holds now, for the exposition and the status line. */
    public record Stats(int segments, long bytes, long windowStartEpochNs, long droppedForKeep, long droppedForDisk,
                        long diskFullEvents, long bytesLost) {
        public double spanSeconds(long nowEpochNs) {
            return windowStartEpochNs == 0 ? 0 : Math.max(0, (nowEpochNs - windowStartEpochNs) / 1e9);
        }
    }

    public Stats stats() {
        int n;
        synchronized (closed) {
            n = closed.size() + (closedAll ? 0 : 1);
        }
        return new Stats(n, bytesWritten(), windowStartEpochNs, droppedForKeep, droppedForDisk, diskFull, bytesLost);
    }

    public Path dir() {
        return dir;
    }

    // ---- segments ---------------------------------------------------------------------------------

    private interface Write {
        void run() throws IOException;
    }

    /** A write into the open segment; a failure frees the oldest segments and goes on in a new one. */
    private void write(Write w) throws IOException {
        try {
            w.run();
        } catch (IOException e) {
            diskFull(e, 0);
        }
    }

    private void begin(long startEpochNs) throws IOException {
        number++;
        segmentStartEpochNs = startEpochNs;
        segmentStartNanos = System.nanoTime();
        segmentScrapes = 0;
        segmentGaps = 0;
        windowWritten = false;
        Map<String, String> opts = new LinkedHashMap<>(metadata.options());
        opts.put(WindowChunk.START_KEY, Long.toString(startEpochNs));
        opts.put("watch-segment", Integer.toString(number));
        CaptureMetadata md = new CaptureMetadata(metadata.host(), startEpochNs, metadata.vprofVersion(),
                metadata.commandLine(), opts);
        writer = CaptureWriter.create(dir.resolve(fileName(number)), md);
        for (Proc p : procs.values()) {
            writer.process(p.info);
            byte[] prelude = p.prelude.bytes();
            if (prelude.length > 0) {
                writer.records(p.info.pid(), MemorySegment.ofArray(prelude), 0, prelude.length);
            }
        }
        writer.flush();
        bodyOffset = writer.size();
        openBytes = bodyOffset;
        if (windowStartEpochNs == 0) {
            windowStartEpochNs = startEpochNs;
        }
    }

    /** Closes the open segment (its WINDOW first, unless the capture wrote it), then applies the bounds. */
    private void closeSegment(long endEpochNs, boolean window) throws IOException {
        CaptureWriter w = writer;
        IOException closeFailed = null;
        try {
            if (window) {
                Map<String, Long> counts = new LinkedHashMap<>();
                counts.put("scrapes", segmentScrapes);
                counts.put("gaps", segmentGaps);
                w.chunk(CaptureFormat.KIND_WINDOW, new WindowChunk(segmentStartEpochNs, endEpochNs, counts).toJson());
            }
            w.close();
        } catch (IOException e) {
            // The file ends with its last whole chunk and reads; the capture goes on.
            closeQuietly(w);
            closeFailed = e;
        }
        long size = fileSize(w.path());
        Segment s = new Segment(number, w.path(), segmentStartEpochNs, endEpochNs, size, bodyOffset);
        synchronized (closed) {
            closed.add(s);
        }
        closedBytes += size;
        openBytes = 0;
        listener.closed(s);
        bound(endEpochNs);
        if (closeFailed != null) {
            freeOldest(closeFailed, w.path());
        }
    }

    /** Deletes the oldest segments the window no longer needs: past --keep, then past --max-disk. */
    private void bound(long nowEpochNs) {
        long keepNs = limits.keep().toNanos();
        while (true) {
            Segment drop;
            synchronized (closed) {
                if (closed.isEmpty()) {
                    return;
                }
                Segment oldest = closed.getFirst();
                // The next segment begins where the newest closed one ended (now).
                long nextStart = closed.size() > 1 ? closed.get(1).startEpochNs() : nowEpochNs;
                boolean pastKeep = nowEpochNs - nextStart >= keepNs;
                boolean overDisk = bytesWritten() > limits.maxDiskBytes();
                if ((!pastKeep && !overDisk) || pinned(oldest)) {
                    return;
                }
                drop = closed.removeFirst();
                if (pastKeep) {
                    droppedForKeep++;
                } else {
                    droppedForDisk++;
                    if (!saidMaxDisk) {
                        saidMaxDisk = true;
                        log.println("vprof watch: the window reached --max-disk " + Sizes.text(limits.maxDiskBytes())
                                + ": deleting its oldest segments early, so it covers less than --keep (counted as "
                                + "vprof_segments_deleted_total{reason=\"max_disk\"})");
                        log.flush();
                    }
                }
                windowStartEpochNs = closed.isEmpty() ? nowEpochNs : closed.getFirst().startEpochNs();
            }
            delete(drop);
        }
    }

    private boolean pinned(Segment s) {
        for (long from : pins.values()) {
            if (s.endEpochNs() >= from) {
                return true;
            }
        }
        return false;
    }

    private void delete(Segment s) {
        try {
            Files.deleteIfExists(s.path());
        } catch (IOException e) {
            log.println("vprof: warning: watch: cannot delete " + s.path() + ": " + e.getMessage());
        }
        closedBytes -= s.bytes();
    }

    /**
     * A write failed (a full disk): the open segment ends as it stands, the oldest segment is
     * deleted (pinned ones too: a full disk leaves no choice) and a new segment begins. {@code lost}
     * bytes of records did not make it. Rethrows when there is nothing left to delete: the capture
     * then ends, its agents disarmed, the targets untouched.
     */
    private void diskFull(IOException e, long lost) throws IOException {
        bytesLost += lost;
        CaptureWriter w = writer;
        closeQuietly(w);
        long end = Posix.realtimeNanos();
        long size = fileSize(w.path());
        synchronized (closed) {
            closed.add(new Segment(number, w.path(), segmentStartEpochNs, end, size, bodyOffset));
        }
        closedBytes += size;
        openBytes = 0;
        if (!freeOldest(e, w.path())) {
            throw e;
        }
        beginOrFree(end, e);
    }

    /** Deletes the oldest closed segment but the newest after a failed write; false when there is none. */
    private boolean freeOldest(IOException e, Path failing) {
        diskFull++;
        Segment drop;
        synchronized (closed) {
            if (closed.size() < 2) {
                return false;
            }
            drop = closed.removeFirst();
            droppedForDisk++;
            windowStartEpochNs = closed.getFirst().startEpochNs();
        }
        delete(drop);
        // Room for more than the write that failed: a writer's buffer (1 MiB a process) and its chunk.
        while (usableBytes() < HEADROOM_BYTES) {
            synchronized (closed) {
                if (closed.size() < 2) {
                    break;
                }
                drop = closed.removeFirst();
                droppedForDisk++;
                windowStartEpochNs = closed.getFirst().startEpochNs();
            }
            delete(drop);
        }
        if (!saidDiskFull) {
            saidDiskFull = true;
            log.println("vprof: warning: watch: writing " + failing + " failed (" + e.getMessage() + "): deleted the "
                    + "oldest segment " + drop.path().getFileName() + " to make room and went on; the target is not "
                    + "affected (each time is counted as vprof_disk_full_total)");
            log.flush();
        }
        return true;
    }

    /** The next segment, deleting old ones while the disk has no room for even its first chunks. */
    private void beginOrFree(long at, IOException first) throws IOException {
        while (true) {
            try {
                begin(at);
                return;
            } catch (IOException e) {
                Path made = dir.resolve(fileName(number));
                if (writer != null && writer.path().equals(made)) {
                    closeQuietly(writer); // made, but its first chunks did not fit
                }
                number--; // begin() counted a segment that is not there
                if (!freeOldest(e, made)) {
                    throw first != null ? first : e;
                }
            }
        }
    }

    /** Free space a full disk must give back before the window goes on: two writers' buffers. */
    static final long HEADROOM_BYTES = 4L << 20;

    private long usableBytes() {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    private static void closeQuietly(CaptureWriter w) {
        try {
            w.close();
        } catch (IOException | RuntimeException ignored) {
            // the first failure is the one reported
        }
    }

    private static long fileSize(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    /** The WINDOW payload {@code payload} with its start moved to {@code startEpochNs}. */
    private static byte[] windowOf(byte[] payload, long startEpochNs) {
        try {
            Map<String, Long> m = JSON.readValue(payload, new TypeReference<LinkedHashMap<String, Long>>() { });
            Long end = m.remove(WindowChunk.END_KEY);
            m.remove(WindowChunk.START_KEY);
            return new WindowChunk(startEpochNs, end == null ? Posix.realtimeNanos() : end, m).toJson();
        } catch (IOException e) {
            return payload;
        }
    }
}
