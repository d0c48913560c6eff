package dev.vprof.capture;

import dev.vprof.metrics.ScrapeResult;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The scrapes of a capture's METRICS chunks ({@link CaptureReader#scrapes}), one chunk at a time so
 * that a long capture's metrics are never all in memory at once. Scrapes go to the consumer in
 * time order: one stamped before the scrape already delivered (a clock step, a damaged chunk) is
 * left out and noted.
 */
final class CaptureMetrics {
    private CaptureMetrics() {}

    /** Calls {@code each} for every scrape and gap in time order; returns the sentences about what was skipped. */
    static List<String> forEach(CaptureReader reader, Consumer<ScrapeResult> each) {
        Warnings notes = new Warnings();
        long lastNs = Long.MIN_VALUE;
        long outOfOrder = 0;
        for (ChunkInfo chunk : reader.chunks(CaptureFormat.KIND_METRICS)) {
            Optional<byte[]> payload = reader.payload(chunk);
            if (payload.isEmpty()) {
                continue; // the reader has already warned about the checksum
            }
            List<ScrapeResult> results;
            try {
                results = MetricsCodec.decode(payload.get());
            } catch (IOException | RuntimeException e) {
                notes.add("METRICS chunk at byte " + chunk.offset() + " of " + reader.path() + " cannot be read ("
                        + e.getMessage() + "); its scrapes are left out");
                continue;
            }
            for (ScrapeResult r : results) {
                if (r.epochNs() < lastNs) {
                    outOfOrder++;
                    continue;
                }
                lastNs = r.epochNs();
                each.accept(r);
            }
        }
        if (outOfOrder > 0) {
            notes.add(outOfOrder + " metric scrape(s) stamped before an earlier scrape were left out");
        }
        return notes.list();
    }
}
