/**
 * The one time layer: where a capture's records lie in epoch ns, for every reader alike. Each
 * process's CUPTI clock is fitted to epoch time from its clock pairs ({@code capture.ClockPairs},
 * {@code capture.ClockMapping}) and taken through {@link dev.vprof.time.Clocks}; a range's edges
 * follow {@link dev.vprof.time.RangeEdges}; the capture's window, against which spans and metric
 * scrapes are placed, is {@link dev.vprof.time.CaptureWindow}, found by
 * {@link dev.vprof.time.WindowFinder}; the parts of a capture an analysis reads (windows and
 * request sets, {@link dev.vprof.time.Selection}; what a pass admits, {@link dev.vprof.time.Scope})
 * are parsed and placed here. The report, the exports and the analyses take times from here, never
 * with a rule of their own.
 */
package dev.vprof.time;
