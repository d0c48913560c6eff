/**
 * A server's Prometheus metrics: the text format 0.0.4 and OpenMetrics 1.0 parsed with every
 * line's error kept apart ({@link dev.vprof.metrics.ExpositionParser}); the scraper a capture
 * runs on its own thread, a failed scrape becoming a gap ({@link dev.vprof.metrics.MetricsScraper});
 * vLLM's metric names across releases ({@link dev.vprof.metrics.VllmMetrics}); and the window
 * arithmetic PromQL would do, summed over series ({@link dev.vprof.metrics.MetricMath},
 * {@link dev.vprof.metrics.WindowStats}, {@link dev.vprof.metrics.HistogramQuantile}).
 */
package dev.vprof.metrics;
