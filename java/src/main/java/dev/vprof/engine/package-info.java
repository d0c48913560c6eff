/**
 * The capture engine: what happens between "capture this process tree" and a finished
 * {@code .vprof} file.
 *
 * <p>A command turns its options into a {@link dev.vprof.engine.CapturePlan} (mode, root pid,
 * what to arm, the file, the feeds to start, a duration; built by
 * {@link dev.vprof.engine.CapturePlan#builder}, a description that holds nothing live) and calls
 * {@link dev.vprof.engine.Capture#start} with it and what it started beforehand
 * ({@link dev.vprof.engine.Started}: RUN's command, the opened feeds); the returned handle is stopped with
 * {@link dev.vprof.engine.Capture#stop} or ends by itself, and
 * {@link dev.vprof.engine.Capture#awaitSummary} says what was captured. Behind it one drain thread
 * ({@code CaptureSession}, made with the file once {@code Arming} armed the tree) finds agents ({@code AgentFinder} at the start, then
 * {@link dev.vprof.discovery.RegionWatch} as regions appear), arms and heartbeats them, drains
 * their rings into the file, and writes what {@link dev.vprof.engine.CaptureFeeds} collected
 * (metric scrapes, OTLP requests, imported spans) about once a second. The engine reads
 * {@code /proc} only through {@link dev.vprof.discovery.ProcFs}, and only when a region appears.
 *
 * <p>The engine knows nothing of the command line: it reports through the log writer of its
 * {@link dev.vprof.engine.CaptureEnvironment} and fails with
 * {@link dev.vprof.engine.CaptureException}, one sentence a person can act on.
 */
package dev.vprof.engine;
