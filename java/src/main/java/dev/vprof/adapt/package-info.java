/**
 * A capture file onto the timeline's single clock (epoch ns), for the exports.
 *
 * <p>{@link dev.vprof.adapt.CaptureTimeline} reads a capture in passes: the first fits each
 * process's clock mapping from its CLOCK_SYNC pairs; the second maps every record with
 * {@code RecordAdapter} (CUPTI time to epoch ns, NVTX starts and ends paired into ranges, RANGE
 * records into capture ranges) into an {@code AdaptedRecords} target. {@code stream} keeps only
 * the layout ({@link dev.vprof.timeline.Timeline}: counts, launch links, per-track chunk times) and
 * hands out a {@link dev.vprof.timeline.TimelineSource} whose every walk is one more pass through a
 * reorder window per track ({@code StreamedCapture}), so an export's heap does not grow with the
 * capture. Metric scrapes become counter tracks
 * ({@code MetricTracks}), spans become requests with their phases and service lanes
 * ({@code SpanTracks}), both placed against the capture window ({@code CaptureWindow}).
 */
package dev.vprof.adapt;

import dev.vprof.time.CaptureWindow;

