/**
 * The load client behind {@code vprof bench}: streaming {@code /v1/completions} requests to an
 * OpenAI-compatible server at a Poisson rate (or all at once), with TTFT and inter-token latency
 * measured from the stream, after {@code vllm bench serve}
 * ({@link dev.vprof.loadgen.LoadGenerator}, {@link dev.vprof.loadgen.BenchResult}).
 */
package dev.vprof.loadgen;
