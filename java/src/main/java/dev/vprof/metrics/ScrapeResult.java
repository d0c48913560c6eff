package dev.vprof.metrics;

import java.util.List;

/** What one scrape attempt produced: metrics, or a gap with the reason. */
public sealed interface ScrapeResult permits ScrapeResult.Scrape, ScrapeResult.Gap {

    /** Epoch nanoseconds at which the scrape was sent. */
    long epochNs();

    /**
     * A successful scrape.
     *
     * @param durationNs how long the request took, for spotting a slow /metrics handler
     * @param errors     lines of the exposition that could not be read (the rest are in the snapshot)
     */
    record Scrape(MetricsSnapshot snapshot, long durationNs, List<ParseError> errors) implements ScrapeResult {
        public Scrape {
            errors = List.copyOf(errors);
        }

        @Override
        public long epochNs() {
            return snapshot.epochNs();
        }
    }

    /**
     * A failed scrape (server down, timeout, HTTP error, refused body): the capture has no
     * metrics from here until the next {@link Scrape}.
     */
    record Gap(long epochNs, String error) implements ScrapeResult {
    }
}
