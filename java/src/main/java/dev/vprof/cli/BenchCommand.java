package dev.vprof.cli;

import dev.vprof.loadgen.BenchResult;
import dev.vprof.loadgen.LoadGenerator;
import dev.vprof.metrics.HttpFailures;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code vprof bench}: load an OpenAI-compatible server, as {@code vllm bench serve} does. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        header = "Load an OpenAI-compatible server; print throughput, TTFT and inter-token latency.",
        description = {
            "Send streaming /v1/completions requests to an OpenAI-compatible server and print throughput, TTFT "
                    + "and inter-token latency (p50/p99). Each request carries a W3C traceparent, so its server span "
                    + "joins the client's trace.",
            "",
            "With --profile, POST /start_profile before the run and /stop_profile after it, as 'vllm bench serve "
                    + "--profile' does; a vLLM started with --profiler-config '{\"profiler\":\"cuda\"}' then calls "
                    + "cudaProfilerStart/Stop in every worker, which 'vprof attach --capture-range=cudaProfilerApi' "
                    + "records."},
        footer = {"", "Example:",
            "  vprof bench --url http://127.0.0.1:8000 --num-prompts 200 --request-rate 8 --profile",
            "", SignalHelp.STOP})
public final class BenchCommand extends VprofCommand {
    public BenchCommand() {
        super(ExitCode.OK, ExitCode.CANNOT, ExitCode.NOT_EXPECTED);
    }

    @Option(names = "--url", required = true, paramLabel = "URL", description = "Server base URL, e.g. http://127.0.0.1:8000")
    URI url;

    @Option(names = "--model", paramLabel = "NAME", defaultValue = "Qwen/Qwen2.5-7B-Instruct", description = "Model name sent in requests (default: ${DEFAULT-VALUE})")
    String model;

    @Option(names = "--num-prompts", paramLabel = "N", defaultValue = "100", description = "Requests to send (default: ${DEFAULT-VALUE})")
    int numPrompts;

    @Option(names = "--request-rate", paramLabel = "R", defaultValue = "inf", description = "Requests per second, Poisson arrivals; inf sends all at once (default: ${DEFAULT-VALUE})")
    String requestRate;

    @Option(names = "--prompt-chars", paramLabel = "MIN:MAX", defaultValue = "800:4000", description = "Prompt length range in characters, MIN:MAX (default: ${DEFAULT-VALUE})")
    String promptChars;

    @Option(names = "--max-tokens", paramLabel = "N", defaultValue = "64", description = "Tokens to generate per request (default: ${DEFAULT-VALUE})")
    int maxTokens;

    @Option(names = "--profile", description = "POST /start_profile before and /stop_profile after the run")
    boolean profile;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "0", description = "Random seed for arrivals and prompt lengths (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--json", description = "Print the result as one JSON object on stdout instead of the table "
            + "(counts as integers, times in ms, null for what no request measured); messages stay on stderr.")
    boolean json;


    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        double rate;
        try {
            rate = requestRate.equalsIgnoreCase("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(requestRate);
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--request-rate must be a number or 'inf', not '" + requestRate + "'");
        }
        String[] range = promptChars.split(":");
        LoadGenerator.Plan plan;
        try {
            if (range.length != 2) throw new IllegalArgumentException("--prompt-chars must be MIN:MAX");
            plan = new LoadGenerator.Plan(url, model, numPrompts, rate, Integer.parseInt(range[0]),
                    Integer.parseInt(range[1]), maxTokens, profile, seed);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        // The request counter is redrawn in place: only on a terminal. Asked here, not in a field
        // initializer, which every vprof command would run when picocli builds its command line.
        boolean liveProgress = Posix.isatty(Posix.STDERR_FILENO);
        AtomicInteger done = new AtomicInteger();
        try {
            BenchResult r = new LoadGenerator().run(plan, res -> {
                int n = done.incrementAndGet();
                if (liveProgress) {
                    synchronized (err) {
                        err.print("\rrequests done: " + n + "/" + numPrompts);
                        err.flush();
                    }
                }
            });
            if (liveProgress) err.println();
            if (json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("url", url.toString());
                m.put("model", model);
                m.put("num_prompts", numPrompts);
                m.put("request_rate", Double.isInfinite(rate) ? "inf" : rate);
                m.putAll(r.asJson());
                out.println(Json.MAPPER.writeValueAsString(m));
            } else {
                out.print(r.format());
            }
            out.flush();
            // The server answered, but not every request succeeded: not the server that was expected.
            return r.failed() == 0 ? ExitCode.OK.code() : ExitCode.NOT_EXPECTED.code();
        } catch (LoadGenerator.UnreachableException e) {
            if (liveProgress && done.get() > 0) err.println();
            err.println("vprof bench: " + (e.completed() == 0 ? "cannot reach " + e.url()
                    : "lost " + e.url() + " after " + e.completed() + " of " + numPrompts + " requests")
                    + ": " + e.getMessage() + "; " + HttpFailures.CHECK_THE_URL);
            err.flush();
            return ExitCode.CANNOT.code();
        } catch (IOException e) {
            err.println("vprof bench: " + e.getMessage());
            err.flush();
            return ExitCode.CANNOT.code();
        }
    }
}
