/**
 * {@code vprof report}: what a capture says, from one streaming pass over it with memory bounded
 * whatever its size ({@link dev.vprof.report.CaptureReport}, a sink of the aggregation's pass,
 * {@code aggregate.KernelPass}), and a second for its step table when it has steps: per range and
 * kernel name, counters and bounded duration distributions; GPU busy time per device and the busy
 * time inside each request phase (the aggregation's {@code GpuOverlap}); the
 * metrics over the capture window and the triage verdict; CUPTI's warnings in words. The result
 * is a {@link dev.vprof.report.Report}, rendered as text ({@link dev.vprof.report.TextReport},
 * the answer first) or JSON ({@link dev.vprof.report.ReportJson}, {@code docs/report-json.md}).
 */
package dev.vprof.report;
