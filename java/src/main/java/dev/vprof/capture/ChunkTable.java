package dev.vprof.capture;

import static dev.vprof.capture.CaptureFormat.CHUNK_HEADER_SIZE;

import dev.vprof.bindings.VprofRing;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Where a capture's chunks are, for {@link CaptureReader}: found through the footer index when the
 * file was closed, else by a scan from the start that stops at the first chunk it cannot trust.
 * It keeps which chunks were verified or found damaged (each counted once in the reader's
 * {@link ReadStats}, however many passes meet it), the whole records of a RECORDS chunk the file
 * ends inside, and tells from the writer's lock a capture being written from one whose writer died.
 */
final class ChunkTable {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final MemorySegment file;
    private final long size;
    private final ReadStats stats;
    private final Warnings warnings;
    private final CRC32C crc = new CRC32C();
    /** Chunks whose checksum was checked and held (an indexed file's chunks are checked on first use). */
    private final BitSet verified = new BitSet();

    private long[] chunkOffsets = new long[64];
    private int[] chunkKinds = new int[64];
    private int[] chunkLengths = new int[64];
    private int chunkCount;
    private boolean complete;
    private boolean footerDamaged;
    /** The RECORDS chunk cut short at the end of the file, if any: its offset, the whole records' payload length. */
    private long tornOffset;
    private long tornLength;
    private long tornRecords;
    /** Offsets of the chunks skipped as damaged (a pass may meet one again). */
    private final Set<Long> damagedChunks = new HashSet<>();
    private long chunkBytes;

    /** The table of {@code file}, shown as {@code path}; what it finds goes to {@code stats}. */
    ChunkTable(Path path, MemorySegment file, ReadStats stats) {
        this.path = path;
        this.file = file;
        this.size = file.byteSize();
        this.stats = stats;
        this.warnings = stats.warnings();
    }

    int count() {
        return chunkCount;
    }

    long offset(int i) {
        return chunkOffsets[i];
    }

    int kind(int i) {
        return chunkKinds[i];
    }

    int length(int i) {
        return chunkLengths[i];
    }

    ChunkInfo info(int i) {
        return new ChunkInfo(chunkOffsets[i], chunkKinds[i], chunkLengths[i]);
    }

    /** The place of the chunk at {@code offset}, or a negative number when no chunk starts there. */
    int indexOf(long offset) {
        return Arrays.binarySearch(chunkOffsets, 0, chunkCount, offset);
    }

    /** True when the file was closed by its writer (its footer index is intact). */
    boolean complete() {
        return complete;
    }

    /** Whether the chunk at {@code offset} was found damaged. */
    boolean damaged(long offset) {
        return damagedChunks.contains(offset);
    }

    /** The whole records recovered from the RECORDS chunk the file ends inside; 0 when none. */
    long tornRecords() {
        return tornRecords;
    }

    /** That chunk's payload up to its last whole record (pid header included), or null when there is none. */
    MemorySegment tornPayload() {
        return tornLength > 0 ? file.asSlice(tornOffset + CHUNK_HEADER_SIZE, tornLength) : null;
    }

    /** Damage found where a scan stopped: the rest of the file, from {@code offset}, could not be read. */
    private void damaged(long offset, long bytes) {
        if (damagedChunks.add(offset)) {
            stats.add(ReadStats.Stat.DAMAGED_CHUNKS, 1);
            stats.add(ReadStats.Stat.DAMAGED_BYTES, bytes);
        }
    }

    /** A chunk that was located, then found damaged: it no longer counts as read. */
    void damagedLocated(long offset, long bytes) {
        if (damagedChunks.add(offset)) {
            stats.add(ReadStats.Stat.DAMAGED_CHUNKS, 1);
            stats.add(ReadStats.Stat.DAMAGED_BYTES, bytes);
            chunkBytes -= bytes;
            extent();
        }
    }


    /** Finds the chunks of the file at {@code real} (which the reader shows as {@code path}). */
    void locate(Path real) {
        long scanLimit = size;
        if (size >= CaptureFormat.FILE_HEADER_SIZE + CHUNK_HEADER_SIZE + CaptureFormat.TRAILER_SIZE
                && file.get(LONG, size - 8) == CaptureFormat.END_MAGIC) {
            long indexOffset = file.get(LONG, size - CaptureFormat.TRAILER_SIZE);
            if (readIndex(indexOffset)) {
                complete = true;
                extent();
                return;
            }
            chunkCount = 0;
            chunkBytes = 0;
            footerDamaged = true;
            stats.flag(ReadStats.Stat.INDEX_DAMAGED, true);
            warnings.add("the footer index of " + path + " is damaged; read it chunk by chunk instead");
            scanLimit = size - CaptureFormat.TRAILER_SIZE;
        }
        // No footer: a file being written now is not a damaged one. The writer holds a lock on it
        // for as long as it writes (CaptureWriter); the kernel drops that lock when the writer dies.
        boolean live = !footerDamaged && WriterLock.held(real);
        scan(scanLimit, live);
        extent();
    }

    private void extent() {
        long chunks = chunkCount - locatedDamaged();
        long bytes = CaptureFormat.FILE_HEADER_SIZE + chunkBytes + (tornLength > 0 ? CHUNK_HEADER_SIZE + tornLength : 0);
        stats.extent(size, chunks, Math.min(size, bytes));
    }

    /** Damaged chunks among those located (the rest of the file past a scan's stop is not one). */
    private long locatedDamaged() {
        long n = 0;
        for (long offset : damagedChunks) {
            if (Arrays.binarySearch(chunkOffsets, 0, chunkCount, offset) >= 0) {
                n++;
            }
        }
        return n;
    }

    /** Trusts the footer index only if every entry checks out against the chunk it names. */
    private boolean readIndex(long indexOffset) {
        long trailerAt = size - CaptureFormat.TRAILER_SIZE;
        if (indexOffset < CaptureFormat.FILE_HEADER_SIZE || (indexOffset & 7) != 0
                || indexOffset > trailerAt - CHUNK_HEADER_SIZE) {
            return false;
        }
        int kind = file.get(INT, indexOffset + CaptureFormat.CHUNK_KIND);
        int length = file.get(INT, indexOffset + CaptureFormat.CHUNK_LENGTH);
        if (kind != CaptureFormat.KIND_INDEX || length < 0 || length % CaptureFormat.INDEX_ENTRY_SIZE != 0
                || indexOffset + CHUNK_HEADER_SIZE + length != trailerAt || !crcMatches(indexOffset, length)) {
            return false;
        }
        int entries = length / CaptureFormat.INDEX_ENTRY_SIZE;
        if (entries > CaptureReader.MAX_CHUNKS) {
            return false;
        }
        long previousEnd = CaptureFormat.FILE_HEADER_SIZE;
        long at = indexOffset + CHUNK_HEADER_SIZE;
        for (int e = 0; e < entries; e++, at += CaptureFormat.INDEX_ENTRY_SIZE) {
            long offset = file.get(LONG, at);
            int entryKind = file.get(INT, at + 8);
            int entryLength = file.get(INT, at + 12);
            if (offset < previousEnd || (offset & 7) != 0 || entryLength < 0
                    || entryLength > CaptureFormat.MAX_PAYLOAD
                    || offset + CHUNK_HEADER_SIZE + CaptureFormat.align8((long) entryLength) > indexOffset
                    || file.get(INT, offset + CaptureFormat.CHUNK_KIND) != entryKind
                    || file.get(INT, offset + CaptureFormat.CHUNK_LENGTH) != entryLength) {
                return false;
            }
            addChunk(offset, entryKind, entryLength);
            previousEnd = offset + CHUNK_HEADER_SIZE + CaptureFormat.align8((long) entryLength);
        }
        return true;
    }

    /**
     * Walks chunk headers from the start, verifying each, up to the last whole chunk. {@code live}:
     * the file's writer is still writing it, so an end inside a chunk is the chunk being written.
     */
    private void scan(long limit, boolean live) {
        long pos = CaptureFormat.FILE_HEADER_SIZE;
        String stop = null;
        boolean cut = false;
        while (pos < limit) {
            if (limit - pos < CHUNK_HEADER_SIZE) {
                stop = "a chunk header cut short";
                cut = true;
                break;
            }
            int kind = file.get(INT, pos + CaptureFormat.CHUNK_KIND);
            int length = file.get(INT, pos + CaptureFormat.CHUNK_LENGTH);
            if (length < 0 || length > CaptureFormat.MAX_PAYLOAD) {
                stop = "a chunk with an impossible length (" + Integer.toUnsignedString(length) + " bytes)";
                break;
            }
            long next = pos + CHUNK_HEADER_SIZE + CaptureFormat.align8((long) length);
            if (next > limit) {
                stop = "a chunk cut short (" + length + " bytes announced, " + (limit - pos - CHUNK_HEADER_SIZE)
                        + " present)";
                cut = true;
                if (kind == CaptureFormat.KIND_RECORDS) {
                    recoverTorn(pos, Math.min(limit, pos + CHUNK_HEADER_SIZE + length));
                }
                break;
            }
            if (!crcMatches(pos, length)) {
                if (kind == CaptureFormat.KIND_INDEX && next == limit) {
                    break; // the damaged index itself, already reported
                }
                stop = "a chunk that fails its checksum";
                break;
            }
            if (chunkCount >= CaptureReader.MAX_CHUNKS) {
                stop = "more than " + CaptureReader.MAX_CHUNKS + " chunks";
                break;
            }
            if (kind != CaptureFormat.KIND_INDEX) {
                addChunk(pos, kind, length);
            }
            pos = next;
        }
        long unused = limit - pos - (tornRecords > 0 ? CHUNK_HEADER_SIZE + tornLength : 0);
        stats.add(ReadStats.Stat.UNVERIFIED_RECORDS, tornRecords);
        if (live) {
            stats.flag(ReadStats.Stat.LIVE_CAPTURE, true);
            warnings.add(path + " is a live capture, still being written by a running vprof: read the " + chunkCount
                    + " whole chunks it holds so far (" + pos + " of " + size + " bytes)"
                    + (cut ? "; the chunk being written after byte " + pos + " is left for a later read" : ""));
            if (stop != null && !cut) {
                damaged(pos, unused);
                warnings.add(ReadStats.Severity.DATA_LOSS, path + " is damaged: read " + chunkCount
                        + " whole chunks, then found " + stop + " at byte " + pos + " of " + size + "; the rest was ignored");
            }
        } else if (cut) {
            stats.flag(ReadStats.Stat.CUT_SHORT, true);
            stats.add(ReadStats.Stat.TRUNCATED_TAIL_BYTES, unused);
            warnings.add(ReadStats.Severity.DATA_LOSS, path + " is cut short: read " + chunkCount + " whole chunks, then"
                    + " found " + stop + " at byte " + pos + "; the file ends at byte " + size
                    + " and the rest of it is missing");
        } else if (stop != null) {
            damaged(pos, unused);
            warnings.add(ReadStats.Severity.DATA_LOSS, path + " is damaged: read " + chunkCount + " whole chunks, then"
                    + " found " + stop + " at byte " + pos + " of " + size + "; the rest (" + ReadStats.bytes(unused)
                    + ") was ignored");
        } else if (!footerDamaged) {
            stats.flag(ReadStats.Stat.NOT_CLOSED, true);
            warnings.add(ReadStats.Severity.DATA_LOSS, path + " was never closed by its writer, which is no longer"
                    + " running (the capture was cut short): read all " + chunkCount + " whole chunks, up to byte " + size);
        }
        if (tornRecords > 0 && !live) {
            warnings.add(path + ": " + tornRecords + " whole records were recovered from the RECORDS chunk at byte "
                    + tornOffset + ", which the file cuts short; they are unverified (the chunk's checksum"
                    + " covers bytes that are missing)");
        }
    }

    /**
     * Keeps the whole records at the start of the RECORDS chunk at {@code offset}, which the file
     * cuts at {@code end}: the pid header, then records while each one's length is sane and it
     * ends before the cut.
     */
    private void recoverTorn(long offset, long end) {
        long at = offset + CHUNK_HEADER_SIZE + CaptureFormat.RECORDS_HEADER_SIZE;
        long records = 0;
        while (end - at >= VprofRing.RecordHeader.SIZE) {
            int len = file.get(INT, at);
            if (len < VprofRing.RecordHeader.SIZE || (len & 7) != 0 || len > VprofRing.RECORD_MAX || len > end - at) {
                break;
            }
            at += len;
            records++;
        }
        if (records == 0) {
            return;
        }
        tornOffset = offset;
        tornLength = at - offset - CHUNK_HEADER_SIZE;
        tornRecords = records;
    }

    private void addChunk(long offset, int kind, int length) {
        if (chunkCount == chunkOffsets.length) {
            int n = chunkCount * 2;
            chunkOffsets = Arrays.copyOf(chunkOffsets, n);
            chunkKinds = Arrays.copyOf(chunkKinds, n);
            chunkLengths = Arrays.copyOf(chunkLengths, n);
        }
        chunkOffsets[chunkCount] = offset;
        chunkKinds[chunkCount] = kind;
        chunkLengths[chunkCount] = length;
        chunkCount++;
        chunkBytes += CHUNK_HEADER_SIZE + CaptureFormat.align8((long) length);
    }

    private boolean crcMatches(long offset, int length) {
        crc.reset();
        crc.update(file.asSlice(offset, 8).asByteBuffer());
        crc.update(file.asSlice(offset + CaptureFormat.CHUNK_FLAGS, 4).asByteBuffer());
        crc.update(file.asSlice(offset + CHUNK_HEADER_SIZE, length).asByteBuffer());
        return (int) crc.getValue() == file.get(INT, offset + CaptureFormat.CHUNK_CRC);
    }

    /** Chunk i's payload, or null (and a warning) when its checksum fails. */
    MemorySegment verifiedPayload(int i) {
        long offset = chunkOffsets[i];
        int length = chunkLengths[i];
        // Chunks found by a scan were verified already; index entries are verified on first use.
        if (complete && !verified.get(i)) {
            if (damagedChunks.contains(offset) || !crcMatches(offset, length)) {
                damagedLocated(offset, CHUNK_HEADER_SIZE + CaptureFormat.align8((long) length));
                warnings.add(ReadStats.Severity.DATA_LOSS, CaptureFormat.kindName(chunkKinds[i]) + " chunk at byte "
                        + offset + " of " + path + " fails its checksum; skipped");
                return null;
            }
            verified.set(i);
        }
        return file.asSlice(offset + CHUNK_HEADER_SIZE, length);
    }
}
