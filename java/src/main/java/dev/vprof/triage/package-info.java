/**
 * {@code vprof triage}: tier one of the triage flow as pure functions. From two or more scrapes
 * of a vLLM server's metrics, {@link dev.vprof.triage.Triage} decides what holds (KV-cache
 * pressure, queueing, clients timing out, prefill- or decode-bound) and says the leading
 * {@link dev.vprof.triage.Verdict} with its evidence and what to do next
 * ({@link dev.vprof.triage.Assessment}, {@link dev.vprof.triage.Finding}); the capture report uses
 * the same rules over its window.
 */
package dev.vprof.triage;
