package dev.vprof.timeline;

/** What a counter track's values are. */
public enum CounterKind {
    /** A gauge as scraped: the value at the scrape time. */
    GAUGE,
    /** A counter's increase per second over the scrape interval ending at the sample time. */
    RATE,
    /** A histogram quantile (p50, p99) over the scrape interval ending at the sample time. */
    QUANTILE
}
