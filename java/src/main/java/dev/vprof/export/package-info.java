/**
 * The trace formats, as sinks of one walk over a {@link dev.vprof.timeline.TimelineSource}: a
 * capture streamed from its file with bounded memory.
 *
 * <p>{@link dev.vprof.export.PerfettoWriter} encodes Perfetto's protobuf by hand (a packet
 * sequence per track, interned names, DEFLATE-compressed batches), {@link
 * dev.vprof.export.ChromeJsonWriter} the Chrome trace event JSON, and {@link
 * dev.vprof.export.KinetoFiles} with {@link dev.vprof.export.KinetoJsonWriter} the PyTorch
 * profiler's JSON, one file per process with its rank ({@link dev.vprof.export.KinetoRanks}) and,
 * with {@code --steps}, its ProfilerStep annotations ({@link dev.vprof.export.ProfilerSteps}).
 * {@code TraceSink} fixes the order every format writes in: the start of the file, each process's
 * tracks and names, capture ranges, requests, spans and counters, then the walk's events, each on
 * a track declared before it. What the formats share lives once: {@code TraceEvents} (the JSON
 * events), {@code Correlations} (launch-to-kernel flows, numbered per graph node), {@code GpuNames}
 * (Kineto's copy and set names), {@code TrackMap}. {@link dev.vprof.export.Exporter} writes each
 * file beside its destination and moves it into place only when complete. The writers know
 * nothing of how records arrived. The SQLite database in Nsight Systems' export schema is a sink
 * of the same walk with a dependency of its own (sqlite-jdbc), so it has its package,
 * {@link dev.vprof.export.sqlite}.
 */
package dev.vprof.export;
