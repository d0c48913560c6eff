package dev.vprof.engine;

import dev.vprof.region.ArmSpec;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one capture is to do, decided before it starts: {@code run}, {@code attach} and
 * {@code demo} turn their options into a plan and hand it to {@link Capture#start}.
 *
 * @param mode        RUN: the agents armed themselves from VPROF_ARM in {@code command}'s tree;
 *                    ATTACH: arm the agents found in {@code rootPid}'s tree, and those that join it;
 *                    FEEDS: no agents, only the feeds (metrics, spans, the trigger, vLLM's torch
 *                    traces); it ends at the duration or when stopped
 * @param rootPid     the tree whose processes are captured
 * @param command     RUN: the command started with the agent (its exit ends the capture); else null
 * @param arm         what the agents are asked to record
 * @param ringBytes   the ring size asked for, 0 for the agent's default (ATTACH warns that it is fixed)
 * @param output      the capture file to write
 * @param commandLine what the file's metadata records as the command
 * @param options     the options as the file's metadata records them
 * @param metrics     scrape this {@code /metrics} during the capture, or null
 * @param trigger     POST {@code trigger/start_profile} and {@code /stop_profile}, or null
 * @param duration    stop after this long, or null for no limit
 * @param feeds       spans received or imported, opened before anything else (so that a port in use
 *                    or a bad {@code --spans} file is reported first); the capture closes them
 * @param rangeScopeTree --range-scope tree: a cudaProfilerApi range begun in any process of the tree
 *                    is relayed to every agent ({@link TreeRangeRelay})
 * @param torchTraces --torch-traces: after the capture, wait for the PyTorch profiler traces vLLM
 *                    writes into a folder and fold their GPU work into the file; null for none
 */
public record CapturePlan(Mode mode, int rootPid, Process command, ArmSpec arm, long ringBytes, Path output,
                          List<String> commandLine, Map<String, String> options, Scrape metrics, URI trigger,
                          Duration duration, CaptureFeeds feeds, boolean rangeScopeTree, TorchTraces torchTraces) {
    public enum Mode { RUN, ATTACH, FEEDS }

    /**
     * vLLM's torch profiler as a source: the traces that appear in {@code dir} during the capture
     * are waited for (at most {@code timeout} after the capture stops) and folded into the file.
     */
    public record TorchTraces(Path dir, Duration timeout) {}

    /** Scrape {@code url} every {@code interval}. */
    public record Scrape(URI url, Duration interval) {}

    public CapturePlan {
        commandLine = List.copyOf(commandLine);
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options)); // the metadata keeps their order
        if (mode == Mode.RUN && command == null) {
            throw new IllegalArgumentException("a RUN capture needs the command it started");
        }
        feeds = feeds == null ? CaptureFeeds.none() : feeds;
    }

    /** A plan without torch traces. */
    public CapturePlan(Mode mode, int rootPid, Process command, ArmSpec arm, long ringBytes, Path output,
                       List<String> commandLine, Map<String, String> options, Scrape metrics, URI trigger,
                       Duration duration, CaptureFeeds feeds, boolean rangeScopeTree) {
        this(mode, rootPid, command, arm, ringBytes, output, commandLine, options, metrics, trigger, duration, feeds,
                rangeScopeTree, null);
    }

    /** A plan whose ranges are each process's own (--range-scope process). */
    public CapturePlan(Mode mode, int rootPid, Process command, ArmSpec arm, long ringBytes, Path output,
                       List<String> commandLine, Map<String, String> options, Scrape metrics, URI trigger,
                       Duration duration, CaptureFeeds feeds) {
        this(mode, rootPid, command, arm, ringBytes, output, commandLine, options, metrics, trigger, duration, feeds,
                false, null);
    }
}
