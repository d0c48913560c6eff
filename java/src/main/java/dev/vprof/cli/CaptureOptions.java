package dev.vprof.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.vprof.bindings.VprofRing;
import dev.vprof.engine.CaptureFeeds;
import dev.vprof.engine.CaptureSummary;
import dev.vprof.engine.CapturePlan;
import dev.vprof.engine.ProfilerTrigger;
import dev.vprof.otlp.ForwardTarget;
import dev.vprof.otlp.OtlpReceiverConfig;
import dev.vprof.region.ArmSpec;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The options every capture takes ({@code run} and {@code attach}), validated into an {@link ArmSpec};
 * the feeds' options ({@code --metrics}, {@code --trigger}, {@code --otlp}…) are {@link FeedOptions}'s,
 * which {@code vprof capture} takes alone.
 */
final class CaptureOptions extends FeedOptions {
    @Option(names = "--capture-range", paramLabel = "RANGE", defaultValue = "none",
            description = {"What to record: none (everything from start to stop), cudaProfilerApi "
                    + "(between cudaProfilerStart and cudaProfilerStop), or nvtx:NAME[@DOMAIN] "
                    + "(inside the NVTX range NAME). Default: ${DEFAULT-VALUE}."})
    String captureRange;

    @Option(names = "--capture-range-end", paramLabel = "END", defaultValue = "stop",
            description = {"After a range ends: stop (record one range), repeat (every range), "
                    + "repeat:N (the first N ranges). Default: ${DEFAULT-VALUE}."})
    String captureRangeEnd;

    @Option(names = "--range-scope", paramLabel = "SCOPE", defaultValue = "process",
            description = {"With --capture-range=cudaProfilerApi: process (each process records its own ranges) "
                    + "or tree (a range begun in any process of the tree records in every process; SGLang "
                    + "starts the profiler in one rank only). Default: ${DEFAULT-VALUE}."})
    String rangeScope;

    @Option(names = "--duration", paramLabel = "D",
            description = "Stop after this long (500ms, 10s, 2m); run then sends CMD SIGTERM (SIGKILL 10 s later), "
                    + "as nsys does. Default: until the target exits or Ctrl-C.")
    String duration;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "vprof-%p-%t.vprof",
            description = {"Capture file; %%p is the target pid, %%t a timestamp to the millisecond. An existing "
                    + "file is never replaced without --force.", "Default: ${DEFAULT-VALUE}."})
    String output;

    @Option(names = "--force", description = "Replace the capture file when it exists (without it, vprof refuses).")
    boolean force;

    /** --kinds, --buffer-size, --ring-size. */
    @Mixin
    AgentOptions agent = new AgentOptions();


    /**
     * With --json, the closing summary as one line of JSON on {@code out}; {@code commandExit}:
     * run's command's exit status (null for attach and capture).
     */
    void printSummaryJson(CaptureSummary s, Path file, Integer commandExit, PrintWriter out) {
        if (!json || s == null) {
            return;
        }
        Map<String, Object> m = s.asJson(file.toString());
        if (commandExit != null) {
            m.put("command_exit", commandExit);
        }
        try {
            out.println(Json.MAPPER.writeValueAsString(m));
        } catch (JsonProcessingException e) {
            throw new CliException("cannot write the summary as JSON: " + e.getMessage(), e);
        }
        out.flush();
    }

    /** Where lines for people go that would otherwise share stdout with --json's object. */
    PrintWriter humanOut(PrintWriter out, PrintWriter err) {
        return json ? err : out;
    }

    /** The ARM arguments this capture sends (or puts into VPROF_ARM). */
    ArmSpec toSpec(int captureId) {
        int mode;
        String name = "";
        String domain = "";
        String range = captureRange.trim();
        if (range.equalsIgnoreCase("none")) {
            mode = VprofRing.RANGE_NONE;
        } else if (range.equalsIgnoreCase("cudaProfilerApi")) {
            mode = VprofRing.RANGE_PROFILER;
        } else if (range.regionMatches(true, 0, "nvtx:", 0, 5)) {
            mode = VprofRing.RANGE_NVTX;
            String rest = range.substring(5);
            int at = rest.lastIndexOf('@');
            name = at >= 0 ? rest.substring(0, at) : rest;
            domain = at >= 0 ? rest.substring(at + 1) : "";
            if (name.isEmpty()) {
                throw new CliException("--capture-range=nvtx:NAME needs the NVTX range name, e.g. nvtx:step");
            }
            checkName("NVTX range name", name);
            checkName("NVTX domain", domain);
        } else {
            throw new CliException("--capture-range '" + captureRange
                    + "' is not one of none, cudaProfilerApi, nvtx:NAME[@DOMAIN]");
        }
        return new ArmSpec(mode, repeat(), agent.kindMask(), agent.bufferBytes(), captureId, name, domain);
    }

    private static void checkName(String what, String s) {
        if (s.contains(",") || s.contains("=")) {
            throw new CliException("the " + what + " '" + s + "' may not contain ',' or '='");
        }
        if (s.getBytes(StandardCharsets.UTF_8).length >= VprofRing.NAME_MAX) {
            throw new CliException("the " + what + " '" + s + "' is longer than " + (VprofRing.NAME_MAX - 1) + " bytes");
        }
    }

    /** True for --range-scope tree, which only cudaProfilerApi ranges take. */
    boolean treeScope() {
        String s = rangeScope == null ? "process" : rangeScope.trim();
        if (s.equalsIgnoreCase("process")) {
            return false;
        }
        if (!s.equalsIgnoreCase("tree")) {
            throw new CliException("--range-scope '" + rangeScope + "' is not one of process, tree");
        }
        if (!captureRange.trim().equalsIgnoreCase("cudaProfilerApi")) {
            throw new CliException("--range-scope tree needs --capture-range=cudaProfilerApi");
        }
        return true;
    }

    /** Ranges to record: 1 for stop, 0 (unlimited) for repeat, N for repeat:N. */
    int repeat() {
        String e = captureRangeEnd.trim().toLowerCase(Locale.ROOT);
        if (e.equals("stop")) return 1;
        if (e.equals("repeat")) return 0;
        if (e.startsWith("repeat:")) {
            try {
                int n = Integer.parseInt(e.substring(7));
                if (n > 0) return n;
            } catch (NumberFormatException ignored) {
                // falls through to the message
            }
        }
        throw new CliException("--capture-range-end '" + captureRangeEnd + "' is not one of stop, repeat, repeat:N (N >= 1)");
    }

    /** The --duration, or null for no limit. */
    Duration durationOrNull() {
        return duration == null ? null : Units.duration("--duration", duration);
    }

    /** --torch-traces with its timeout, or null when not asked. */
    CapturePlan.TorchTraces torchTracesOrNull() {
        if (torchTraces == null) {
            return null;
        }
        if (Files.exists(torchTraces) && !Files.isDirectory(torchTraces)) {
            throw new CliException("--torch-traces " + torchTraces + " is a file; give the folder vLLM writes its "
                    + "traces into (its torch_profiler_dir)");
        }
        Duration d = Units.duration("--torch-traces-timeout", torchTracesTimeout);
        if (d.compareTo(Duration.ofMillis(100)) < 0) {
            throw new CliException("--torch-traces-timeout " + torchTracesTimeout + " is below the minimum of 100ms");
        }
        return new CapturePlan.TorchTraces(torchTraces, d);
    }

    /** The --trigger base URL (http://HOST:PORT), or null. */
    URI triggerUriOrNull() {
        return trigger == null ? null : ProfilerTrigger.baseUri(trigger);
    }

    /** The OTLP receiver's configuration, or null when no --otlp option was given. */
    OtlpReceiverConfig otlpConfigOrNull() {
        return otlp.resolve();
    }

    /**
     * Opens the feeds these options ask for ({@code --otlp*}, {@code --spans}) before anything else
     * starts: a port in use or a bad span file is reported first.
     */
    CaptureFeeds openFeeds(PrintWriter err) {
        return CaptureFeeds.open(otlpConfigOrNull(), spans.file, err);
    }

    /**
     * The capture these options describe, for the command to complete with what only it knows:
     * the root pid, what to arm, the file and the command line.
     */
    CapturePlan.Builder plan(CapturePlan.Mode mode) {
        URI metricsUrl = scrape.uriOrNull();
        return CapturePlan.builder(mode)
                .ringBytes(agent.ringBytes())
                .options(asMap())
                .metrics(metricsUrl == null ? null : new CapturePlan.Scrape(metricsUrl, scrape.interval()))
                .trigger(triggerUriOrNull())
                .duration(durationOrNull())
                .rangeScopeTree(treeScope())
                .torchTraces(torchTracesOrNull());
    }

    /** Options from {@code args}, with their defaults, as {@code run} and {@code attach} would parse them. */
    static CaptureOptions parse(String... args) {
        CaptureOptions o = new CaptureOptions();
        new CommandLine(o).parseArgs(args);
        return o;
    }

    /** Checks every option at once, so that errors come before anything starts. */
    void validate() {
        toSpec(1);
        treeScope();
        agent.ringBytes();
        durationOrNull();
        scrape.uriOrNull();
        scrape.interval();
        triggerUriOrNull();
        torchTracesOrNull();
        otlpConfigOrNull();
        if (spans.file != null && !Files.isReadable(spans.file)) {
            throw new CliException("--spans " + spans.file + ": no such readable file");
        }
        if (otlpExport != null) {
            if (!otlp.enabled() && spans.file == null) {
                throw new CliException("--otlp-export sends the capture's request spans: add --otlp (receive them "
                        + "from vLLM) or --spans FILE");
            }
            try {
                ForwardTarget.parse(otlpExport);
            } catch (IllegalArgumentException e) {
                throw new CliException(e.getMessage().replace("--otlp-forward", "--otlp-export"));
            }
        }
    }

    /** After the capture: --otlp-export's send (0 when not asked for, or all accepted; 2 otherwise). */
    int exportSpans(Path file, PrintWriter out, PrintWriter err) {
        return otlpExport == null ? 0 : OtlpExport.run(file, otlpExport, out, err);
    }

    /** The options as the capture file's metadata records them. */
    Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("capture-range", captureRange);
        m.put("capture-range-end", captureRangeEnd);
        if (treeScope()) m.put("range-scope", "tree");
        if (duration != null) m.put("duration", duration);
        m.put("kinds", agent.kinds);
        if (agent.ring.ringSize != null) m.put("ring-size", agent.ring.ringSize);
        if (agent.bufferSize != null) m.put("buffer-size", agent.bufferSize);
        if (scrape.metrics != null) {
            m.put("metrics", scrape.uriOrNull().toString());
            m.put("metrics-interval", scrape.metricsInterval);
        }
        if (spans.file != null) m.put("spans", spans.file.toString());
        if (trigger != null) m.put("trigger", triggerUriOrNull().toString());
        if (torchTraces != null) m.put("torch-traces", torchTraces.toString());
        if (otlp.enabled()) m.put("otlp", "on");
        return m;
    }
}
