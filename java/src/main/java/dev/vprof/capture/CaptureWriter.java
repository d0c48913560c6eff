package dev.vprof.capture;

import static dev.vprof.capture.CaptureFormat.CHUNK_HEADER_SIZE;
import static dev.vprof.capture.CaptureFormat.INDEX_ENTRY_SIZE;
import static dev.vprof.capture.CaptureFormat.RECORDS_HEADER_SIZE;

import dev.vprof.bindings.VprofRing;
import dev.vprof.output.OutputFile;
import dev.vprof.output.OutputTakenException;
import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Writes a .vprof capture file (docs/design.md §5; the layout is drawn in {@link CaptureFormat}).
 * Confined to the one thread that drains the rings.
 *
 * <p>Each process gets its own ~1 MiB direct buffer that {@link #records} copies ring
 * bytes into; a full buffer becomes one RECORDS chunk, written with a single channel
 * write. Keeping a buffer per process (rather than one shared buffer flushed whenever
 * the pid changes) keeps chunks full when the drain alternates between processes, so
 * the per-chunk overhead stays negligible.
 */
public final class CaptureWriter implements Closeable {

    private static final ValueLayout.OfInt RING_INT = ValueLayout.JAVA_INT_UNALIGNED;
    /**
     * How long a drained record may stay in memory before it is written: half the one second a
     * killed front end may lose, leaving the other half for a drain loop held up by a loaded host.
     */
    public static final long FLUSH_AFTER_NS = 500_000_000L;
    private static final int RECORDS_BUFFER_SIZE =
            CHUNK_HEADER_SIZE + RECORDS_HEADER_SIZE + CaptureFormat.RECORDS_CHUNK_TARGET;

    private final Path path;
    private final FileChannel channel;
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer header = ByteBuffer.allocateDirect(CHUNK_HEADER_SIZE).order(CaptureFormat.ORDER);
    private final Map<Integer, RecordsBuffer> buffers = new HashMap<>();
    private RecordsBuffer lastBuffer;
    /** System.nanoTime() when the oldest record not yet written was buffered; valid while {@link #pending}. */
    private long pendingSinceNs;
    private boolean pending;
    private long position;
    /** offset, kind, length per chunk written, for the INDEX. */
    private long[] index = new long[3 * 64];
    private int chunks;
    private boolean closed;
    /** A capture made by {@link #createWhole} until {@link #close} moves it into place; null once there. */
    private OutputFile output;
    /** Held while the file is written, so a reader can tell a live capture from a dead one (WriterLock). */
    private WriterLock lock;

    /** Per-process chunk under construction: chunk header, RECORDS header, then records. */
    private static final class RecordsBuffer {
        final int pid;
        final ByteBuffer buffer = ByteBuffer.allocateDirect(RECORDS_BUFFER_SIZE).order(CaptureFormat.ORDER);
        final MemorySegment segment = MemorySegment.ofBuffer(buffer);
        /** Bytes of records held, after the two headers. */
        int fill;

        RecordsBuffer(int pid) {
            this.pid = pid;
        }
    }

    private CaptureWriter(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /**
     * Creates (replaces) a live capture file: the header and the metadata chunk are written aside
     * ({@link OutputFile}) and the file is moved into place once it holds them, so it never exists
     * without them, and readers can follow it while it grows (a live capture, {@link WriterLock}).
     * A front end killed before the move leaves only a temporary file, which the next writer into
     * the folder removes.
     */
    public static CaptureWriter create(Path path, CaptureMetadata metadata) throws IOException {
        return open(path, metadata, true, true);
    }

    /**
     * Creates a capture that appears under {@code path} only when whole: written aside and moved
     * into place by {@link #close}, removed by {@link #abandon} (import, salvage: a file nobody
     * needs to read while it is written). {@code replace}: whether an existing {@code path} may be
     * replaced; a {@code path} that appeared meanwhile otherwise makes {@link #close} throw
     * {@link OutputTakenException}.
     */
    public static CaptureWriter createWhole(Path path, CaptureMetadata metadata, boolean replace) throws IOException {
        return open(path, metadata, replace, false);
    }

    private static CaptureWriter open(Path path, CaptureMetadata metadata, boolean replace, boolean live)
            throws IOException {
        if (ByteOrder.nativeOrder() != CaptureFormat.ORDER) {
            // RECORDS chunks are the ring's native bytes; the format fixes them as little-endian.
            throw new IOException("vprof capture files can only be written on a little-endian machine");
        }
        OutputFile output = OutputFile.create(path, replace);
        FileChannel channel;
        try {
            channel = FileChannel.open(output.temp(), StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            output.close();
            throw e;
        }
        CaptureWriter writer = new CaptureWriter(path, channel);
        try {
            writer.lock = WriterLock.hold(output.temp());
            ByteBuffer fileHeader = ByteBuffer.allocate(CaptureFormat.FILE_HEADER_SIZE).order(CaptureFormat.ORDER);
            fileHeader.putLong(CaptureFormat.MAGIC).putInt(CaptureFormat.FORMAT_VERSION).putInt(0).flip();
            writer.writeFully(fileHeader);
            writer.chunk(CaptureFormat.KIND_METADATA, CaptureJson.MAPPER.writeValueAsBytes(metadata));
            if (live) {
                output.commit(); // the open channel keeps writing to the moved file
            } else {
                writer.output = output;
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            writer.releaseLock();
            output.close();
            throw e;
        }
        return writer;
    }

    /**
     * Ends a capture made by {@link #createWhole} without keeping it: nothing appears under its
     * name and its temporary file is removed. A live capture is closed as by {@link #close}.
     */
    public void abandon() throws IOException {
        if (output == null) {
            close();
            return;
        }
        OutputFile o = output;
        output = null;
        closed = true;
        buffers.clear();
        lastBuffer = null;
        try {
            channel.close();
        } finally {
            releaseLock();
            o.close();
        }
    }

    /** The file being written. */
    public Path path() {
        return path;
    }

    /** Bytes written to the file so far (records still buffered are not counted). */
    public long size() {
        return position;
    }

    /** A process joined the capture: one PROCESS chunk. Call before its records. */
    public void process(ProcessInfo info) throws IOException {
        chunk(CaptureFormat.KIND_PROCESS, CaptureJson.MAPPER.writeValueAsBytes(info));
    }

    /**
     * Whole, already validated records of process {@code pid}, in the ring's own
     * encoding (PADDING records removed), copied from {@code src[offset, offset+length)}.
     * Buffered into RECORDS chunks; draining is a copy, not a re-encode.
     */
    public void records(int pid, MemorySegment src, long offset, long length) throws IOException {
        ensureOpen();
        if (length <= 0) {
            if (length < 0) {
                throw new IllegalArgumentException("negative length " + length);
            }
            return;
        }
        if (!pending) {
            pending = true;
            pendingSinceNs = System.nanoTime();
        }
        RecordsBuffer b = lastBuffer;
        if (b == null || b.pid != pid) {
            b = buffers.computeIfAbsent(pid, RecordsBuffer::new);
            lastBuffer = b;
        }
        final int base = CHUNK_HEADER_SIZE + RECORDS_HEADER_SIZE;
        final int capacity = CaptureFormat.RECORDS_CHUNK_TARGET;
        long pos = offset;
        final long end = offset + length;
        while (pos < end) {
            long room = capacity - b.fill;
            long left = end - pos;
            if (left <= room) {
                MemorySegment.copy(src, pos, b.segment, base + b.fill, left);
                b.fill += (int) left;
                return;
            }
            // Chunks hold whole records only, so that a file cut after any chunk decodes
            // cleanly: find the longest run of whole records that still fits.
            long cut = pos;
            while (true) {
                int len = src.get(RING_INT, cut);
                if (len <= 0 || (len & 7) != 0 || len > VprofRing.RECORD_MAX || cut + len > end) {
                    throw new IllegalArgumentException("not a whole ring record at offset " + cut
                            + " (length " + len + ") for pid " + pid);
                }
                if (cut + len - pos > room) {
                    break;
                }
                cut += len;
            }
            if (cut > pos) {
                MemorySegment.copy(src, pos, b.segment, base + b.fill, cut - pos);
                b.fill += (int) (cut - pos);
            }
            writeRecordsChunk(b);
            pos = cut;
        }
    }

    /** The agent's counters for this capture (deltas since attach) when a process leaves it. */
    public void processEnd(int pid, AgentCounters counters) throws IOException {
        ensureOpen();
        RecordsBuffer b = buffers.remove(pid);
        if (b != null) {
            writeRecordsChunk(b);
            if (lastBuffer == b) {
                lastBuffer = null;
            }
        }
        chunk(CaptureFormat.KIND_COUNTERS,
                CaptureJson.MAPPER.writeValueAsBytes(new CaptureJson.PidCounters(pid, counters)));
    }

    /**
     * One chunk of any kind but INDEX, for data this class does not know (metric samples,
     * spans, extensions from {@link CaptureFormat#KIND_EXTENSION_FIRST}). Readers hand
     * the payload back by kind through {@link CaptureReader#payloads(int)}.
     */
    public void chunk(int kind, byte[] payload) throws IOException {
        ensureOpen();
        if (kind <= 0 || kind == CaptureFormat.KIND_INDEX) {
            throw new IllegalArgumentException("chunk kind " + kind + " cannot be written directly");
        }
        if (payload.length > CaptureFormat.MAX_PAYLOAD) {
            throw new IllegalArgumentException("chunk payload of " + payload.length
                    + " bytes is over the " + CaptureFormat.MAX_PAYLOAD + "-byte limit; split it");
        }
        ByteBuffer body = ByteBuffer.wrap(payload);
        fillHeader(kind, payload.length, body);
        header.clear();
        ByteBuffer padding = ByteBuffer.allocate(CaptureFormat.align8(payload.length) - payload.length);
        long at = position;
        writeFully(header, body, padding);
        addIndex(at, kind, payload.length);
    }

    /**
     * Writes every buffered RECORDS chunk now (to the OS, no fsync), so that a front end
     * that dies later loses nothing drained before this call. The drain goes through
     * {@link #flushIfDue}; calling this often makes chunks small.
     */
    public void flush() throws IOException {
        ensureOpen();
        for (RecordsBuffer b : buffers.values()) {
            writeRecordsChunk(b);
        }
        pending = false;
    }

    /**
     * Flushes when a drained record has waited {@link #FLUSH_AFTER_NS} or more in the buffers.
     * The drain loop calls it every turn, so a front end killed with SIGKILL loses at most about
     * that much of what it drained (docs/reliability.md), while a busy capture still writes
     * full chunks: at its rate a buffer fills long before.
     *
     * @param nowNs System.nanoTime()
     */
    public void flushIfDue(long nowNs) throws IOException {
        if (pending && nowNs - pendingSinceNs >= FLUSH_AFTER_NS) {
            flush();
        }
    }

    /** Flushes the last chunk and writes the footer index. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        boolean whole = false;
        try {
            flush();
            int payloadLength = chunks * INDEX_ENTRY_SIZE;
            ByteBuffer body = ByteBuffer.allocate(payloadLength).order(CaptureFormat.ORDER);
            for (int i = 0; i < chunks; i++) {
                body.putLong(index[3 * i]).putInt((int) index[3 * i + 1]).putInt((int) index[3 * i + 2]);
            }
            body.flip();
            long indexOffset = position;
            fillHeader(CaptureFormat.KIND_INDEX, payloadLength, body);
            header.clear();
            ByteBuffer trailer = ByteBuffer.allocate(CaptureFormat.TRAILER_SIZE).order(CaptureFormat.ORDER);
            trailer.putLong(indexOffset).putLong(CaptureFormat.END_MAGIC).flip();
            writeFully(header, body, trailer);
            whole = true;
        } finally {
            closed = true;
            buffers.clear();
            lastBuffer = null;
            try {
                channel.close();
            } finally {
                releaseLock();
                OutputFile o = output;
                output = null;
                if (o != null && whole) {
                    o.commit(); // removes the temporary file when the move fails
                } else if (o != null) {
                    o.close(); // the footer could not be written: nothing under the name
                }
            }
        }
    }

    private void writeRecordsChunk(RecordsBuffer b) throws IOException {
        if (b.fill == 0) {
            return;
        }
        int payloadLength = RECORDS_HEADER_SIZE + b.fill; // records are 8-aligned: no padding
        ByteBuffer buf = b.buffer;
        buf.putInt(CHUNK_HEADER_SIZE, b.pid).putInt(CHUNK_HEADER_SIZE + 4, 0);
        ByteBuffer body = buf.slice(CHUNK_HEADER_SIZE, payloadLength).order(CaptureFormat.ORDER);
        fillHeader(CaptureFormat.KIND_RECORDS, payloadLength, body);
        buf.put(0, header, 0, CHUNK_HEADER_SIZE);
        buf.clear().limit(CHUNK_HEADER_SIZE + payloadLength);
        long at = position;
        writeFully(buf);
        buf.clear();
        b.fill = 0;
        addIndex(at, CaptureFormat.KIND_RECORDS, payloadLength);
    }

    /** Fills {@link #header} for a chunk; reads {@code body} without moving its position. */
    private void fillHeader(int kind, int payloadLength, ByteBuffer body) {
        header.clear();
        header.putInt(CaptureFormat.CHUNK_KIND, kind)
                .putInt(CaptureFormat.CHUNK_LENGTH, payloadLength)
                .putInt(CaptureFormat.CHUNK_CRC, 0)
                .putInt(CaptureFormat.CHUNK_FLAGS, 0);
        crc.reset();
        crc.update(header.slice(0, 8));
        crc.update(header.slice(12, 4));
        crc.update(body.duplicate());
        header.putInt(CaptureFormat.CHUNK_CRC, (int) crc.getValue());
    }

    private void addIndex(long offset, int kind, int length) {
        if (3 * chunks + 3 > index.length) {
            index = Arrays.copyOf(index, index.length * 2);
        }
        index[3 * chunks] = offset;
        index[3 * chunks + 1] = kind;
        index[3 * chunks + 2] = length;
        chunks++;
    }

    private void writeFully(ByteBuffer... parts) throws IOException {
        long total = 0;
        for (ByteBuffer p : parts) {
            total += p.remaining();
        }
        long written = 0;
        try {
            while (written < total) {
                written += channel.write(parts);
            }
        } catch (IOException e) {
            // A chunk that did not fit (a full disk) is cut off again: the file ends with whole chunks,
            // readable up to there, and the space the part took is free again.
            try {
                channel.truncate(position);
            } catch (IOException | RuntimeException ignored) {
                // the first failure is the one to report
            }
            throw e;
        }
        position += total;
    }

    private void releaseLock() {
        if (lock != null) {
            lock.close();
            lock = null;
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("capture file " + path + " is already closed");
        }
    }
}
