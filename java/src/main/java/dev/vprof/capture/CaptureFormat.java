package dev.vprof.capture;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The .vprof capture file layout (docs/design.md §5). All integers are little-endian, as
 * the ring records are: RECORDS chunks hold the ring's bytes verbatim.
 *
 * <pre>
 * File:
 *   +-------------+---------+---------+-----+---------+-------------+---------+
 *   | file header | chunk 1 | chunk 2 | ... | chunk n | INDEX chunk | trailer |
 *   +-------------+---------+---------+-----+---------+-------------+---------+
 *   Chunk 1 is METADATA. A file whose writer died has no INDEX and no trailer;
 *   it reads up to its last whole chunk.
 *
 * File header (16 bytes):
 *    0               1               2               3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+
 *   |                  magic "VPROFCAP" (64)                        |
 *   +---------------------------------------------------------------+
 *   |        format_version         |        flags (0)              |
 *   +---------------------------------------------------------------+
 *
 * Chunk (16-byte header, payload, zero padding to a multiple of 8):
 *   +---------------------------------------------------------------+
 *   |             kind              |        payload length         |
 *   +---------------------------------------------------------------+
 *   |   CRC32C (kind, length, flags, payload)   |    flags (0)      |
 *   +---------------------------------------------------------------+
 *   |                        payload ...                           ...
 *   +---------------------------------------------------------------+
 *
 * Payloads by kind:
 *   METADATA  JSON of {@link CaptureMetadata}
 *   PROCESS   JSON of {@link ProcessInfo}
 *   RECORDS   int32 pid, uint32 0, then whole ring records exactly as the ring
 *             holds them (8-byte header: int32 length, uint32 type; payload),
 *             never split across chunks; about 1 MiB per chunk
 *   COUNTERS  JSON {"pid": P, "counters": {@link AgentCounters}}
 *   WINDOW    JSON {"window_start_epoch_ns": S, "window_end_epoch_ns": E, counts...}
 *             ({@link WindowChunk}), written as the capture ends
 *   METRICS   scrapes and gaps, {@link MetricsCodec}
 *   SPANS     the OTLP requests as received, {@link SpansCodec} (version 2; version 1, spans as
 *             vprof decoded them, in older files)
 *   kinds from 64 up: extensions; readers skip kinds they do not know (no format change needed)
 *   INDEX     n x { int64 offset, uint32 kind, uint32 payload length }, one per
 *             chunk before it, in file order
 *
 * Trailer (16 bytes, the last bytes of a closed file):
 *   +---------------------------------------------------------------+
 *   |                   offset of the INDEX chunk (64)              |
 *   +---------------------------------------------------------------+
 *   |                  magic "VPROFEND" (64)                        |
 *   +---------------------------------------------------------------+
 * </pre>
 *
 * A format change that old readers cannot skip raises {@link #FORMAT_VERSION}.
 */
public final class CaptureFormat {
    private CaptureFormat() {}

    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    /** "VPROFCAP" read as a little-endian long. */
    public static final long MAGIC = magic("VPROFCAP");
    /** "VPROFEND" read as a little-endian long. */
    public static final long END_MAGIC = magic("VPROFEND");
    public static final int FORMAT_VERSION = 1;

    public static final int FILE_HEADER_SIZE = 16;
    public static final int CHUNK_HEADER_SIZE = 16;
    public static final int TRAILER_SIZE = 16;
    public static final int INDEX_ENTRY_SIZE = 16;
    /** The RECORDS payload's own header: pid and a reserved word. */
    public static final int RECORDS_HEADER_SIZE = 8;

    public static final int KIND_METADATA = 1;
    public static final int KIND_PROCESS = 2;
    public static final int KIND_RECORDS = 3;
    public static final int KIND_COUNTERS = 4;
    /** Metric samples (Prometheus scrapes), {@link MetricsCodec}. */
    public static final int KIND_METRICS = 5;
    /** OTLP spans, {@link SpansCodec}. */
    public static final int KIND_SPANS = 6;
    /** The capture window and the feeds' counts, written once as the capture ends ({@link WindowChunk}). */
    public static final int KIND_WINDOW = 7;
    public static final int KIND_INDEX = 15;
    /** Kinds from here up are free for extensions. */
    public static final int KIND_EXTENSION_FIRST = 64;

    /**
     * Largest payload a reader accepts. Bounds what a damaged or hostile length
     * can make the reader allocate; writers keep RECORDS chunks near 1 MiB.
     */
    public static final int MAX_PAYLOAD = 64 << 20;

    /** Payload bytes of a RECORDS chunk the writer aims for. */
    public static final int RECORDS_CHUNK_TARGET = 1 << 20;

    /** Offsets of the chunk header fields. */
    static final int CHUNK_KIND = 0;
    static final int CHUNK_LENGTH = 4;
    static final int CHUNK_CRC = 8;
    static final int CHUNK_FLAGS = 12;

    public static String kindName(int kind) {
        return switch (kind) {
            case KIND_METADATA -> "METADATA";
            case KIND_PROCESS -> "PROCESS";
            case KIND_RECORDS -> "RECORDS";
            case KIND_COUNTERS -> "COUNTERS";
            case KIND_METRICS -> "METRICS";
            case KIND_SPANS -> "SPANS";
            case KIND_WINDOW -> "WINDOW";
            case KIND_INDEX -> "INDEX";
            default -> "kind " + kind;
        };
    }

    static int align8(int n) {
        return (n + 7) & ~7;
    }

    static long align8(long n) {
        return (n + 7) & ~7L;
    }

    private static long magic(String eight) {
        byte[] b = eight.getBytes(StandardCharsets.US_ASCII);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[i] & 0xff);
        }
        return v;
    }
}
