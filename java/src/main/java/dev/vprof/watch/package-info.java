/**
 * {@code vprof watch}, the flight recorder (docs/watch.md): an ordinary continuous capture
 * ({@link dev.vprof.engine.CapturePlan.Continuous}) whose output is a rolling window of segment
 * files ({@link dev.vprof.watch.Segments}, each a capture that reads alone), triggers that write a
 * dump of the window around them ({@link dev.vprof.watch.Dumps}: a {@code --when}
 * {@link dev.vprof.watch.Condition} over the scrapes, SIGUSR1, {@code vprof dump}, a POST to the
 * control endpoint, a Prometheus alert), each dump with the report's verdict and HTML page beside
 * it, and the recorder's own metrics for Prometheus and an OpenTelemetry Collector.
 */
package dev.vprof.watch;
