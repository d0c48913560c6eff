package dev.vprof.capture;

import static dev.vprof.capture.CaptureFormat.CHUNK_HEADER_SIZE;

import com.fasterxml.jackson.core.JacksonException;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.otlp.Span;
import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads a .vprof capture file (layout in {@link CaptureFormat}).
 *
 * <pre>{@code
 * try (CaptureReader capture = CaptureReader.open(path)) {
 *     capture.processes();                         // PROCESS chunks
 *     capture.forEachRecord(new RecordVisitor() {  // streams; memory does not grow with the file
 *         public void kernel(int pid, long start, long end, int corr, KernelDesc d, String name) { ... }
 *     });
 *     capture.clock(pid).toEpochNs(start);
 *     capture.warnings();                          // what was damaged or missing, one sentence each
 * }
 * }</pre>
 *
 * <p>The file is memory-mapped, so reading it costs page cache, not heap. Only a file that
 * is not a capture at all (bad magic, newer format) makes {@link #open} throw; anything
 * else that is wrong (a file cut short, a bad checksum, a damaged index, damaged records)
 * is read past and reported in {@link #warnings()}. Every length, offset and id is checked
 * before use, and every structure the reader builds has a fixed bound.
 *
 * <p>Use a reader from one thread at a time.
 */
public final class CaptureReader implements Closeable {

    /** Chunks a reader will track: 1 Mi chunks of 1 MiB is a terabyte of records. */
    static final int MAX_CHUNKS = 1 << 20;
    /** Processes a reader will decode. */
    static final int MAX_PROCESSES = 1 << 16;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final Arena arena;
    private final MemorySegment file;
    private final long size;
    private final int formatVersion;
    private final ReadStats stats;
    private final Warnings warnings;
    /** Where the chunks are, which were verified or found damaged, and the torn tail. */
    private final ChunkTable table;
    /** Pids whose records were skipped, past {@link #MAX_PROCESSES} (each counted once). */
    private final Set<Integer> skippedPids = new HashSet<>();

    private CaptureMetadata metadata;
    private final Map<Integer, ProcessInfo> processes = new LinkedHashMap<>();
    private final Map<Integer, AgentCounters> counters = new LinkedHashMap<>();
    private Map<Integer, ClockMapping> clocks;
    /** Run when the reader closes: the removal of a capture made for this reader only (see {@link #openMade}). */
    private Runnable onClose;

    private CaptureReader(Path path, Arena arena, MemorySegment file, int formatVersion) {
        this.path = path;
        this.arena = arena;
        this.file = file;
        this.size = file.byteSize();
        this.formatVersion = formatVersion;
        this.stats = new ReadStats(path.toString());
        this.warnings = stats.warnings();
        this.table = new ChunkTable(path, file, stats);
    }

    /**
     * Opens a capture file and reads its index and small chunks (metadata, processes,
     * counters). Throws {@link CaptureFormatException} when the file is not a vprof capture
     * or was written in a newer format; other IOExceptions when it cannot be read at all.
     */
    public static CaptureReader open(Path path) throws IOException {
        return open(path, path);
    }

    /**
     * Opens {@code file}, a capture another source was turned into for this reader only (a PyTorch
     * profiler trace read directly): the reader names itself {@code shownAs}, the source the user
     * gave, starts its warnings with {@code notes} (what the conversion said, severity info), and runs
     * {@code onClose} when closed (removing {@code file}); on failure it runs {@code onClose} at once.
     */
    public static CaptureReader openMade(Path file, Path shownAs, List<String> notes, Runnable onClose)
            throws IOException {
        return openMade(file, shownAs, stats -> notes.forEach(stats::note), onClose);
    }

    /**
     * As {@link #openMade(Path, Path, List, Runnable)}, the conversion adding its own sentences and
     * counters to the reader's {@link ReadStats} through {@code conversion}, before anything is read.
     */
    public static CaptureReader openMade(Path file, Path shownAs, Consumer<ReadStats> conversion, Runnable onClose)
            throws IOException {
        CaptureReader reader;
        try {
            reader = open(file, shownAs);
        } catch (IOException | RuntimeException e) {
            onClose.run();
            throw e;
        }
        conversion.accept(reader.stats);
        reader.onClose = onClose;
        return reader;
    }

    private static CaptureReader open(Path path, Path shownAs) throws IOException {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment file;
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                long size = channel.size();
                if (size < CaptureFormat.FILE_HEADER_SIZE) {
                    if (size == 0 || !startsLikeMagic(channel, (int) size)) {
                        throw new CaptureFormatException(path + " is not a vprof capture file ("
                                + (size == 0 ? "0 bytes, too short for a header)" : "bad magic)"));
                    }
                    // A capture cut inside its own header: nothing to read, and it says so.
                    CaptureReader cut = new CaptureReader(shownAs, arena, MemorySegment.NULL, 0);
                    cut.stats.headerOnly(size);
                    cut.stats.flag(ReadStats.Stat.CUT_SHORT, true);
                    cut.stats.extent(size, 0, 0);
                    cut.warnings.add(ReadStats.Severity.DATA_LOSS, shownAs + " holds only the first " + size
                            + " bytes of a capture's " + CaptureFormat.FILE_HEADER_SIZE + "-byte header");
                    return cut;
                }
                file = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            }
            if (file.get(LONG, 0) != CaptureFormat.MAGIC) {
                throw new CaptureFormatException(path + " is not a vprof capture file (bad magic)");
            }
            int version = file.get(INT, 8);
            if (version > CaptureFormat.FORMAT_VERSION || version < 0) {
                throw new CaptureFormatException(path + " was written in capture format version "
                        + Integer.toUnsignedString(version) + ", newer than this vprof reads (up to "
                        + CaptureFormat.FORMAT_VERSION + "); read it with a newer vprof");
            }
            if (version == 0) {
                throw new CaptureFormatException(path + " is not a vprof capture file (format version 0)");
            }
            CaptureReader reader = new CaptureReader(shownAs, arena, file, version);
            reader.table.locate(path);
            reader.readSmallChunks();
            reader.mergeWindow();
            return reader;
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Whether the first {@code n} (< 16) bytes agree with the magic, as in a file cut short at birth. */
    private static boolean startsLikeMagic(FileChannel channel, int n) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        while (head.hasRemaining() && channel.read(head, head.position()) > 0) {
            // read all n bytes
        }
        for (int i = 0; i < Math.min(n, 8); i++) {
            if (head.get(i) != (byte) (CaptureFormat.MAGIC >>> (8 * i))) {
                return false;
            }
        }
        return true;
    }

    public Path path() {
        return path;
    }

    public int formatVersion() {
        return formatVersion;
    }

    /** True when the file was closed by its writer (its footer index is intact). */
    public boolean complete() {
        return table.complete();
    }

    /** The capture's metadata; empty only when its chunk is missing or damaged. */
    public Optional<CaptureMetadata> metadata() {
        return Optional.ofNullable(metadata);
    }

    /** Processes in the order they joined the capture. */
    public List<ProcessInfo> processes() {
        return List.copyOf(processes.values());
    }

    public Optional<ProcessInfo> process(int pid) {
        return Optional.ofNullable(processes.get(pid));
    }

    /** Agent counters by pid, for the processes that left the capture cleanly. */
    public Map<Integer, AgentCounters> counters() {
        return Collections.unmodifiableMap(counters);
    }

    /** Every readable chunk, in file order. */
    public List<ChunkInfo> chunks() {
        return new AbstractList<>() {
            @Override
            public ChunkInfo get(int i) {
                if (i < 0 || i >= table.count()) {
                    throw new IndexOutOfBoundsException(i);
                }
                return table.info(i);
            }

            @Override
            public int size() {
                return table.count();
            }
        };
    }

    /** The readable chunks of one kind, in file order. */
    public List<ChunkInfo> chunks(int kind) {
        List<ChunkInfo> out = new ArrayList<>();
        for (int i = 0; i < table.count(); i++) {
            if (table.kind(i) == kind) {
                out.add(table.info(i));
            }
        }
        return out;
    }

    /** A chunk's payload, or empty (with a warning) when it fails its checksum. */
    public Optional<byte[]> payload(ChunkInfo chunk) {
        int i = table.indexOf(chunk.offset());
        if (i < 0) {
            throw new IllegalArgumentException("no chunk at byte " + chunk.offset() + " of " + path);
        }
        MemorySegment p = table.verifiedPayload(i);
        return p == null ? Optional.empty() : Optional.of(p.toArray(ValueLayout.JAVA_BYTE));
    }

    /** The payloads of every intact chunk of {@code kind}, in file order (for METRICS, SPANS, extensions). */
    public List<byte[]> payloads(int kind) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < table.count(); i++) {
            if (table.kind(i) == kind) {
                MemorySegment p = table.verifiedPayload(i);
                if (p != null) {
                    out.add(p.toArray(ValueLayout.JAVA_BYTE));
                }
            }
        }
        return out;
    }

    /**
     * Streams every record of the capture to {@code visitor}: each process's records in
     * their ring order. Memory stays bounded whatever the file holds. A pass also fits the
     * clock mappings. Exceptions thrown by the visitor end the pass and propagate.
     */
    public void forEachRecord(RecordVisitor visitor) {
        pass(visitor, false);
    }

    /** A pass over every RECORDS chunk; {@code clocksOnly}: decode CLOCK_SYNC records alone. */
    private void pass(RecordVisitor visitor, boolean clocksOnly) {
        RecordDecoder.Budget budget = new RecordDecoder.Budget();
        Map<Integer, RecordDecoder> decoders = new LinkedHashMap<>();
        ClockPairs pairs = new ClockPairs();
        for (int i = 0; i < table.count(); i++) {
            if (table.kind(i) != CaptureFormat.KIND_RECORDS) {
                continue;
            }
            MemorySegment p = table.verifiedPayload(i);
            if (p == null) {
                continue;
            }
            if (p.byteSize() < CaptureFormat.RECORDS_HEADER_SIZE) {
                table.damagedLocated(table.offset(i), CHUNK_HEADER_SIZE + CaptureFormat.align8(p.byteSize()));
                warnings.add(ReadStats.Severity.DATA_LOSS, "RECORDS chunk at byte " + table.offset(i) + " of " + path
                        + " is too short; skipped");
                continue;
            }
            decodeRecords(i, p, decoders, budget, pairs, clocksOnly, visitor);
        }
        MemorySegment torn = table.tornPayload();
        if (torn != null) {
            // Last, as in the file: the whole records of the chunk the writer was cut off in.
            decodeRecords(table.count(), torn, decoders, budget, pairs, clocksOnly, visitor);
        }
        if (!clocksOnly) { // what the decoders count is about records a clock pass skips
            for (RecordDecoder d : decoders.values()) {
                d.finish();
            }
        }
        if (pairs.overflowed()) {
            stats.flag(ReadStats.Stat.CLOCK_PAIRS_UNUSED, true);
            warnings.add(path + " holds more than " + ClockPairs.MAX_PAIRS + " clock pairs; the fit used the first");
        }
        clocks = pairs.fit();
    }

    /**
     * One RECORDS payload (pid, reserved word, whole records) to the decoder of its process;
     * {@code chunkIndex} is its place in {@link #chunks()} (their count for the torn tail).
     */
    private void decodeRecords(int chunkIndex, MemorySegment p, Map<Integer, RecordDecoder> decoders,
                               RecordDecoder.Budget budget, ClockPairs pairs, boolean clocksOnly, RecordVisitor visitor) {
        int pid = p.get(INT, 0);
        RecordDecoder decoder = decoders.get(pid);
        if (decoder == null) {
            if (decoders.size() >= MAX_PROCESSES) {
                if (skippedPids.size() < MAX_PROCESSES && skippedPids.add(pid)) {
                    stats.add(ReadStats.Stat.PROCESSES_SKIPPED, 1);
                }
                warnings.add(ReadStats.Severity.DATA_LOSS, path + " holds records of more than " + MAX_PROCESSES
                        + " processes; the others were skipped");
                return;
            }
            decoder = new RecordDecoder(pid, budget, warnings);
            decoder.clockPairs = pairs;
            decoder.clocksOnly = clocksOnly;
            decoders.put(pid, decoder);
        }
        long recordsLength = p.byteSize() - CaptureFormat.RECORDS_HEADER_SIZE;
        visitor.chunk(chunkIndex, pid);
        decoder.decode(p, CaptureFormat.RECORDS_HEADER_SIZE, recordsLength, visitor);
    }

    /**
     * Records recovered from a RECORDS chunk the file was cut inside (a writer killed mid-write):
     * every whole record before the cut. They are unverified, as the chunk's checksum covers
     * bytes that are not there; 0 when there is no such chunk.
     */
    public long unverifiedRecords() {
        return table.tornRecords();
    }

    /** Whether {@code chunk} was found damaged (a bad checksum, JSON that does not parse). */
    boolean damaged(ChunkInfo chunk) {
        return table.damaged(chunk.offset());
    }

    /**
     * The RECORDS payload recovered from the chunk the file is cut inside (its pid header and every
     * whole record before the cut, unverified), or empty when there is none.
     */
    Optional<byte[]> tornPayload() {
        return Optional.ofNullable(table.tornPayload()).map(p -> p.toArray(ValueLayout.JAVA_BYTE));
    }

    /** The clock mapping of {@code pid} (identity when it has no pairs); may take a pass over the file. */
    public ClockMapping clock(int pid) {
        return clocks().getOrDefault(pid, ClockMapping.identity());
    }

    /**
     * Clock mappings of the processes that have clock pairs; may take a pass over the file, a quick
     * one that decodes CLOCK_SYNC records alone.
     */
    public Map<Integer, ClockMapping> clocks() {
        if (clocks == null) {
            pass(new RecordVisitor() {}, true);
        }
        return Collections.unmodifiableMap(clocks);
    }

    // ---- typed reads of the feeds' chunks ----------------------------------------------------

    /**
     * The spans of the SPANS chunks, by start time, and what could not be read of them, one
     * sentence each.
     */
    public record Spans(List<Span> spans, List<String> notes) {
        public Spans {
            spans = List.copyOf(spans);
            notes = List.copyOf(notes);
        }
    }

    /** Every span the capture holds (they are few next to kernels: read whole). */
    public Spans spans() {
        return CaptureSpans.read(this);
    }

    /**
     * Calls {@code each} for every metric scrape and gap, one METRICS chunk at a time, in time
     * order; returns what was left out (an unreadable chunk, a scrape stamped before the one
     * before it), one sentence each.
     */
    public List<String> scrapes(Consumer<ScrapeResult> each) {
        return CaptureMetrics.forEach(this, each);
    }

    /** Whether the capture holds any METRICS chunk (it scraped a server). */
    public boolean hasMetrics() {
        return !chunks(CaptureFormat.KIND_METRICS).isEmpty();
    }

    /** Whether the capture holds any SPANS chunk. */
    public boolean hasSpans() {
        return !chunks(CaptureFormat.KIND_SPANS).isEmpty();
    }

    /**
     * The capture window: the last intact WINDOW chunk, else the start from the metadata (end -1,
     * a file whose writer died), else empty (a file written before windows were recorded).
     */
    public Optional<WindowChunk> window() {
        return WindowChunk.read(this);
    }

    /**
     * How the file was read: what was damaged, missing or cut short, as counters and sentences, and
     * whether that cost data ({@link ReadStats#readPartly()}). Grows during passes, as damage is met;
     * {@link #verify()} meets all of it at once.
     */
    public ReadStats readStats() {
        return stats;
    }

    /**
     * Checks every chunk's checksum now, so that {@link #readStats()} is final before anything is
     * shown (diff and merge judge their inputs first). Later passes do not check a chunk again.
     */
    public void verify() {
        for (int i = 0; i < table.count(); i++) {
            table.verifiedPayload(i);
        }
    }

    /** The chunks skipped as damaged so far, each counted once however many passes meet it. */
    public long damagedChunks() {
        return stats.get(ReadStats.Stat.DAMAGED_CHUNKS);
    }

    /** The bytes of the file those chunks (and an unreadable rest of the file) take. */
    public long damagedBytes() {
        return stats.get(ReadStats.Stat.DAMAGED_BYTES);
    }

    /** What was damaged, missing or cut short, one sentence each (grows during passes). */
    public List<String> warnings() {
        return stats.texts();
    }

    /** The file size in bytes. */
    public long fileSize() {
        return size;
    }

    /** Bytes of RECORDS payloads (what the rings delivered, plus 8 bytes a chunk). */
    public long recordsBytes() {
        long sum = 0;
        for (int i = 0; i < table.count(); i++) {
            if (table.kind(i) == CaptureFormat.KIND_RECORDS) {
                sum += table.length(i);
            }
        }
        return sum;
    }

    @Override
    public void close() {
        try {
            arena.close();
        } finally {
            Runnable r = onClose;
            onClose = null;
            if (r != null) {
                r.run();
            }
        }
    }

    // ---- small chunks -------------------------------------------------------------------

    /**
     * The window's end is only known when the capture ends, after METADATA was written: the
     * WINDOW chunk's bounds join the metadata's options, where every reader looks for them.
     */
    private void mergeWindow() {
        if (metadata == null) {
            return;
        }
        WindowChunk.last(payloads(CaptureFormat.KIND_WINDOW)).ifPresent(w -> {
            Map<String, String> options = new LinkedHashMap<>(metadata.options() == null ? Map.of() : metadata.options());
            options.put(WindowChunk.START_KEY, Long.toString(w.startEpochNs()));
            options.put(WindowChunk.END_KEY, Long.toString(w.endEpochNs()));
            metadata = new CaptureMetadata(metadata.host(), metadata.startEpochNs(), metadata.vprofVersion(),
                    metadata.commandLine(), options);
        });
    }

    private void readSmallChunks() {
        for (int i = 0; i < table.count(); i++) {
            int kind = table.kind(i);
            if (kind != CaptureFormat.KIND_METADATA && kind != CaptureFormat.KIND_PROCESS
                    && kind != CaptureFormat.KIND_COUNTERS) {
                continue;
            }
            MemorySegment p = table.verifiedPayload(i);
            if (p == null) {
                continue;
            }
            byte[] json = p.toArray(ValueLayout.JAVA_BYTE);
            try {
                switch (kind) {
                    case CaptureFormat.KIND_METADATA -> {
                        if (metadata == null) {
                            metadata = CaptureJson.MAPPER.readValue(json, CaptureMetadata.class);
                        }
                    }
                    case CaptureFormat.KIND_PROCESS -> {
                        ProcessInfo info = CaptureJson.MAPPER.readValue(json, ProcessInfo.class);
                        processes.putIfAbsent(info.pid(), info);
                    }
                    default -> {
                        CaptureJson.PidCounters pc = CaptureJson.MAPPER.readValue(json, CaptureJson.PidCounters.class);
                        if (pc.counters() != null) {
                            // A process that left and joined again has one COUNTERS chunk per stay.
                            counters.merge(pc.pid(), pc.counters(), CaptureReader::sum);
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                String why = e instanceof JacksonException je ? je.getOriginalMessage() : e.getMessage();
                table.damagedLocated(table.offset(i), CHUNK_HEADER_SIZE + CaptureFormat.align8((long) table.length(i)));
                warnings.add(ReadStats.Severity.DATA_LOSS, CaptureFormat.kindName(kind) + " chunk at byte "
                        + table.offset(i) + " of " + path + " is not valid JSON (" + why + "); skipped");
            }
        }
        if (metadata == null) {
            stats.flag(ReadStats.Stat.NO_METADATA, true);
            warnings.add(ReadStats.Severity.DATA_LOSS, path + " has no readable METADATA chunk");
        }
    }

    private static AgentCounters sum(AgentCounters a, AgentCounters b) {
        return a.plus(b);
    }
}
