/**
 * {@code vprof demo}'s scenario and the simulated vLLM server behind it and the end-to-end tests.
 *
 * <p>The scenario: a {@code DemoPlan} (the load phases with their sizes and rates, the tokens per
 * request, whether the torch-profiler path runs, the folder, the OTLP receiver's port) run by
 * {@code DemoScenario}: the OTLP receiver, the server with a dormant agent in each GPU worker
 * (waited for through the agent directory's region states), the attach capture, the phases between
 * /start_profile and /stop_profile, the torch-profiler path ({@code DemoTorchPath}), the traces and
 * the reports. It prints nothing: progress goes to its listener and the result back to the command,
 * and the captures are made through the commands' own option parsing, which the command supplies.
 *
 * <p>The server: a continuous batching scheduler with a paged KV cache, GPU workers that run the
 * CUPTI test double ({@code vprof-simgpu --serve}, one per tensor-parallel rank), vLLM's
 * {@code /metrics} ({@code ServerMetrics}) and {@code llm_request} spans exported over OTLP/HTTP
 * JSON. Everything it produces is a fixture, never a GPU figure.
 */
package dev.vprof.demo;
