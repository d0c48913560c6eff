package dev.vprof.capture;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What can be read of a capture, stored as a whole, closed file: every chunk that checks out, in
 * file order, and the whole records recovered from a chunk the file is cut inside; damaged chunks
 * are left out. {@code vprof import CAPTURE -o OUT} uses it to keep a damaged or never-closed capture
 * as a file every reader takes whole; the input's {@link ReadStats} say what was lost.
 */
public final class CaptureSalvage {
    private CaptureSalvage() {}

    /** What was written: chunks and the payload bytes they hold. */
    public record Result(long chunks, long payloadBytes) {}

    /** Writes what {@code reader} can read to {@code out}, closed; reads every chunk (so its stats are final). */
    public static Result write(CaptureReader reader, Path out) throws IOException {
        return write(reader, out, true);
    }

    /** As {@link #write(CaptureReader, Path)}; {@code out} appears only when whole, replacing a file only when {@code replace}. */
    public static Result write(CaptureReader reader, Path out, boolean replace) throws IOException {
        List<ChunkInfo> chunks = reader.chunks();
        ChunkInfo first = null;
        CaptureMetadata metadata = null;
        for (ChunkInfo c : chunks) {
            if (c.kind() == CaptureFormat.KIND_METADATA) {
                Optional<byte[]> p = reader.payload(c);
                if (p.isPresent()) {
                    try {
                        metadata = CaptureJson.MAPPER.readValue(p.get(), CaptureMetadata.class);
                        first = c;
                        break;
                    } catch (IOException | RuntimeException e) {
                        // not valid JSON: the reader counted it as damaged; the next METADATA may do
                    }
                }
            }
        }
        if (metadata == null) { // the reader noted it: the copy says where it came from instead
            metadata = new CaptureMetadata(null, 0, null, List.of("vprof", "import", reader.path().toString()), Map.of());
        }
        long written = 1;
        long bytes = 0;
        CaptureWriter w = CaptureWriter.createWhole(out, metadata, replace);
        boolean ok = false;
        try {
            for (ChunkInfo c : chunks) {
                if (c.equals(first) || c.kind() == CaptureFormat.KIND_INDEX) {
                    continue;
                }
                Optional<byte[]> p = reader.payload(c);
                if (reader.damaged(c)) {
                    continue; // its checksum holds but its JSON does not: left out, as the reader left it
                }
                if (p.isPresent()) {
                    w.chunk(c.kind(), p.get());
                    written++;
                    bytes += p.get().length;
                }
            }
            Optional<byte[]> torn = reader.tornPayload();
            if (torn.isPresent()) {
                w.chunk(CaptureFormat.KIND_RECORDS, torn.get());
                written++;
                bytes += torn.get().length;
            }
            w.close();
            ok = true;
        } finally {
            if (!ok) {
                w.abandon();
            }
        }
        return new Result(written, bytes);
    }
}
