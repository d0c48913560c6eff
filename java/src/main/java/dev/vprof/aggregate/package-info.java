/**
 * The one aggregation between a capture's records and every analysis (docs/views.md): one pass
 * ({@link dev.vprof.aggregate.KernelPass}) that places each kernel in epoch time, gives it its step
 * and hands it to every {@link dev.vprof.aggregate.Sink} whose scope admits it; per-kernel
 * statistics ({@link dev.vprof.aggregate.KernelTable}); the one step rule
 * ({@link dev.vprof.aggregate.StepRule}, {@link dev.vprof.aggregate.Steps}); and kernels inside
 * intervals (request phases, the slowest requests' phases, requests in flight, bins over time).
 * Read by the report (text, JSON, HTML), diff, the OTLP export and the Kineto export's steps.
 * Memory is bounded by kernel names and steps, never by kernels.
 */
package dev.vprof.aggregate;
