/**
 * OpenTelemetry spans. The receivers ({@link dev.vprof.otlp.OtlpReceiver}: OTLP/gRPC and
 * OTLP/HTTP, loopback unless asked, body sizes bounded, started from a plain
 * {@link dev.vprof.otlp.OtlpReceiverConfig} that the command line's options resolve into) share one intake
 * ({@link dev.vprof.otlp.OtlpIntake}) that decodes a request, answers partial success, and hands
 * the accepted spans with the request's bytes to the capture; {@link dev.vprof.otlp.OtlpForwarder}
 * passes every request on to the user's collector. Decoding: OTLP protobuf and JSON written and
 * read by hand, {@code --spans} files ({@link dev.vprof.otlp.SpanImport}), one set of checks for
 * all of them ({@link dev.vprof.otlp.SpanCheck}). vLLM's {@code llm_request} span becomes a
 * request with queue, prefill and decode phases ({@link dev.vprof.otlp.RequestPhases}).
 */
package dev.vprof.otlp;
