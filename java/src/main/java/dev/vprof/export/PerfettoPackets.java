package dev.vprof.export;

import static dev.vprof.export.PerfettoProto.PACKET_COMPRESSED_PACKETS;
import static dev.vprof.export.PerfettoProto.TRACE_PACKET;

import dev.vprof.wire.WireWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.Deflater;

/**
 * The output stage of a {@link PerfettoWriter}: the Trace's packets, gathered in ~1 MiB chunks
 * and written to the stream in order, each chunk either as it is or DEFLATE-compressed into one
 * TracePacket's {@code compressed_packets} field (what Perfetto's tracing service writes with
 * {@code compression_type: DEFLATE}, and its trace processor and UI expand in place).
 */
final class PerfettoPackets implements AutoCloseable {
    static final int FLUSH_AT = 1 << 20;
    private static final int COMPRESSOR_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());
    private static final int MAX_PENDING = 2 * COMPRESSOR_THREADS;

    private final OutputStream sink;
    private final boolean compress;
    private final WireWriter out = new WireWriter(FLUSH_AT + (64 << 10));
    private final ArrayDeque<Future<byte[]>> pending = new ArrayDeque<>();
    private ExecutorService compressor;
    private long bytes;
    private long packets;

    /** Packets for {@code sink} (not closed here), compressed when {@code compress}. */
    PerfettoPackets(OutputStream sink, boolean compress) {
        this.sink = sink;
        this.compress = compress;
    }

    /** Writes {@code body} as one TracePacket of the Trace. */
    void packet(WireWriter body) throws IOException {
        out.message(TRACE_PACKET, body);
        written();
    }

    /** Where a caller encodes a whole TracePacket in place (then calls {@link #written}). */
    WireWriter buffer() {
        return out;
    }

    /** One packet was encoded into {@link #buffer}: counted, and the chunk goes out once full. */
    void written() throws IOException {
        packets++;
        if (out.size() >= FLUSH_AT) {
            flush();
        }
    }

    /** Writes out everything still held and waits for the compressors. */
    void finish() throws IOException {
        flush();
        while (!pending.isEmpty()) {
            writeOldest();
        }
        if (compressor != null) {
            compressor.shutdown();
        }
    }

    /** Bytes written to the stream so far (compressed size when compressing). */
    long bytes() {
        return bytes;
    }

    long packets() {
        return packets;
    }

    /** After an error too: no compressor thread outlives the write. */
    @Override
    public void close() {
        if (compressor != null) {
            compressor.shutdownNow();
        }
    }

    private void flush() throws IOException {
        if (out.size() == 0) {
            return;
        }
        if (!compress) {
            bytes += out.size();
            out.writeTo(sink);
            out.reset();
            return;
        }
        // Deflating is the slow part (the encoding runs several times faster), so chunks are
        // compressed on other cores while this thread encodes the next ones; they are written
        // in order, and at most MAX_PENDING chunks wait, which bounds the memory.
        byte[] chunk = Arrays.copyOf(out.array(), out.size());
        out.reset();
        pending.addLast(compressor().submit(() -> compressedPacket(chunk)));
        while (pending.size() > MAX_PENDING) {
            writeOldest();
        }
    }

    private void writeOldest() throws IOException {
        byte[] packet;
        try {
            packet = pending.removeFirst().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while compressing the trace");
        } catch (ExecutionException e) {
            throw new IOException("compressing the trace failed", e.getCause());
        }
        bytes += packet.length;
        sink.write(packet);
    }

    private ExecutorService compressor() {
        if (compressor == null) {
            compressor = Executors.newFixedThreadPool(COMPRESSOR_THREADS,
                    Thread.ofPlatform().daemon().name("perfetto-deflate-", 0).factory());
        }
        return compressor;
    }

    /**
     * One Trace.packet whose compressed_packets holds {@code chunk} (whole TracePackets) deflated.
     * The fastest level: the export must keep up with millions of kernels a second, and these
     * packets are repetitive enough that level 1 already shrinks them about four times.
     */
    static byte[] compressedPacket(byte[] chunk) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            deflater.setInput(chunk);
            deflater.finish();
            ByteArrayOutputStream z = new ByteArrayOutputStream(chunk.length / 3 + 64);
            byte[] buf = new byte[64 << 10];
            while (!deflater.finished()) {
                z.write(buf, 0, deflater.deflate(buf));
            }
            WireWriter wrapper = new WireWriter(z.size() + 16);
            wrapper.bytes(PACKET_COMPRESSED_PACKETS, z.toByteArray());
            WireWriter packet = new WireWriter(z.size() + 32);
            packet.message(TRACE_PACKET, wrapper);
            return packet.toByteArray();
        } finally {
            deflater.end();
        }
    }
}
