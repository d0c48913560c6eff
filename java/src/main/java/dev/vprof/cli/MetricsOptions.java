package dev.vprof.cli;

import dev.vprof.metrics.MetricsScraper;
import java.net.URI;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --metrics} and {@code --metrics-interval}: the server's Prometheus endpoint, scraped into
 * a capture ({@code run}, {@code attach}, {@code capture}) or into {@code watch}'s window; declared
 * and checked once here.
 */
final class MetricsOptions {
    @Option(names = "--metrics", paramLabel = "URL",
            description = "Scrape this Prometheus /metrics endpoint and store every sample beside the GPU work: in "
                    + "the capture file, or in watch's window (localhost:8000 means http://localhost:8000/metrics).")
    String metrics;

    @Option(names = "--metrics-interval", paramLabel = "D", defaultValue = "1s",
            description = "Time between scrapes, 100ms or more. Default: ${DEFAULT-VALUE}.")
    String metricsInterval = "1s";

    /** The --metrics URL, or null when not asked. */
    URI uriOrNull() {
        if (metrics == null) {
            return null;
        }
        try {
            return MetricsScraper.metricsUri(metrics);
        } catch (IllegalArgumentException e) {
            throw new CliException("--metrics: " + e.getMessage());
        }
    }

    Duration interval() {
        Duration d = Units.duration("--metrics-interval", metricsInterval);
        if (d.compareTo(MetricsScraper.MIN_INTERVAL) < 0) {
            throw new CliException("--metrics-interval " + metricsInterval + " is below the minimum of "
                    + MetricsScraper.MIN_INTERVAL.toMillis() + "ms");
        }
        return d;
    }
}
