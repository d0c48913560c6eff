package dev.vprof.capture;

import dev.vprof.adapt.Notes;
import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.Span;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The spans of a capture's SPANS chunks, in start order. Spans are few next to kernels (one or a
 * few per request), so they are read whole; a chunk that cannot be decoded is left out and noted.
 */
public final class CaptureSpans {
    private CaptureSpans() {}

    /** @param spans every readable span, by start time; @param notes chunks that could not be read */
    public record Read(List<Span> spans, List<String> notes) {}

    public static Read read(CaptureReader reader) {
        Notes notes = new Notes();
        List<Span> spans = new ArrayList<>();
        for (ChunkInfo chunk : reader.chunks(CaptureFormat.KIND_SPANS)) {
            Optional<byte[]> payload = reader.payload(chunk);
            if (payload.isEmpty()) {
                continue;
            }
            try {
                spans.addAll(SpansCodec.decode(payload.get()));
            } catch (OtlpFormatException | RuntimeException e) {
                notes.add("SPANS chunk at byte " + chunk.offset() + " of " + reader.path() + " cannot be read ("
                        + e.getMessage() + "); its spans are left out");
            }
        }
        spans.sort(Comparator.comparingLong(Span::startEpochNs).thenComparing(Comparator.comparingLong(Span::endEpochNs).reversed()));
        return new Read(spans, notes.list());
    }

    public static boolean present(CaptureReader reader) {
        return !reader.chunks(CaptureFormat.KIND_SPANS).isEmpty();
    }
}
