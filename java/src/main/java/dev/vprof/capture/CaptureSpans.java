package dev.vprof.capture;

import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.Span;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The spans of a capture's SPANS chunks ({@link CaptureReader#spans}), in start order. Spans are
 * few next to kernels (one or a few per request), so they are read whole; a chunk (or a request
 * in it) that cannot be decoded is left out and noted.
 */
final class CaptureSpans {
    private CaptureSpans() {}

    static CaptureReader.Spans read(CaptureReader reader) {
        Warnings notes = new Warnings();
        List<Span> spans = new ArrayList<>();
        for (ChunkInfo chunk : reader.chunks(CaptureFormat.KIND_SPANS)) {
            Optional<byte[]> payload = reader.payload(chunk);
            if (payload.isEmpty()) {
                continue;
            }
            String where = "SPANS chunk at byte " + chunk.offset() + " of " + reader.path();
            try {
                spans.addAll(SpansCodec.decode(payload.get(), problem -> notes.add(where + ": " + problem)));
            } catch (OtlpFormatException | RuntimeException e) {
                notes.add(where + " cannot be read (" + e.getMessage() + "); its spans are left out");
            }
        }
        spans.sort(Comparator.comparingLong(Span::startEpochNs).thenComparing(Comparator.comparingLong(Span::endEpochNs).reversed()));
        return new CaptureReader.Spans(spans, notes.list());
    }
}
