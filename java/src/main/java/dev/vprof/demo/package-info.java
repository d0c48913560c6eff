/**
 * The simulated vLLM server behind {@code vprof demo} and the end-to-end tests: a continuous
 * batching scheduler with a paged KV cache, GPU workers that run the CUPTI test double
 * ({@code vprof-simgpu --serve}, one per tensor-parallel rank), vLLM's {@code /metrics}
 * ({@code ServerMetrics}) and {@code llm_request} spans exported over OTLP/HTTP JSON. Everything it
 * produces is a fixture, never a GPU figure.
 */
package dev.vprof.demo;
