/**
 * The model a trace is written from, on one clock (epoch ns), knowing nothing of where its
 * records came from: processes with their GPUs and streams, host threads with their NVTX ranges
 * and CUDA API calls, capture ranges, requests, spans and counters
 * ({@link dev.vprof.timeline.Timeline}).
 *
 * <p>The timeline is a layout: it counts slices ({@link dev.vprof.timeline.GpuStream},
 * {@link dev.vprof.timeline.ThreadSlices}) but keeps none, so a capture of any size fits. A format
 * is written from a
 * {@link dev.vprof.timeline.TimelineSource}: its layout first, then a walk that hands each track's
 * events to a {@link dev.vprof.timeline.TimelineVisitor} in slice order, as reusable views
 * ({@link dev.vprof.timeline.GpuOp}, {@link dev.vprof.timeline.ApiCall}). A streamed source orders
 * each track through a {@link dev.vprof.timeline.TrackQueue}; {@link dev.vprof.timeline.RangeNesting}
 * turns a thread's NVTX starts and ends into nested begin/end events without holding the ranges.
 */
package dev.vprof.timeline;
