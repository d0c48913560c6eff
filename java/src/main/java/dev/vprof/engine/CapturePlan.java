package dev.vprof.engine;

import dev.vprof.bindings.VprofRing;
import dev.vprof.region.ArmSpec;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one capture is to do, decided before it starts: {@code run}, {@code attach}, {@code capture}
 * and {@code demo} turn their options into a plan and hand it to {@link Capture#start}.
 *
 * <p>A plan is a description only: what to capture, where, which feeds to start. It holds nothing
 * live (no process, no socket, no thread), so it can be built, printed, compared and tested
 * without starting anything. What the caller started before the capture (RUN's command, the
 * opened feeds) travels beside it as a {@link Started}.
 *
 * <pre>{@code
 * CapturePlan plan = CapturePlan.builder(CapturePlan.Mode.ATTACH)
 *         .rootPid(pid).arm(spec).output(file).commandLine(List.of("attach", "--pid", "42"))
 *         .duration(Duration.ofSeconds(30))
 *         .build();
 * }</pre>
 *
 * <p>What each part means:
 * <ul>
 * <li>{@code mode}: RUN: the agents armed themselves from VPROF_ARM in the started command's tree
 *     (its exit ends the capture); ATTACH: arm the agents found in {@code rootPid}'s tree, and
 *     those that join it; FEEDS: no agents, only the feeds (metrics, spans, the trigger, vLLM's
 *     torch traces); it ends at the duration or when stopped</li>
 * <li>{@code rootPid}: the tree whose processes are captured (RUN: the command's pid)</li>
 * <li>{@code arm}: what the agents are asked to record</li>
 * <li>{@code ringBytes}: the ring size asked for, 0 for the agent's default (ATTACH warns that it
 *     is fixed)</li>
 * <li>{@code output}: the capture file to write</li>
 * <li>{@code commandLine}: what the file's metadata records as the command</li>
 * <li>{@code options}: the options as the file's metadata records them, in their order</li>
 * <li>{@code metrics}: scrape this {@code /metrics} during the capture, or null</li>
 * <li>{@code trigger}: POST {@code trigger/start_profile} and {@code /stop_profile}, or null</li>
 * <li>{@code duration}: stop after this long, or null for no limit</li>
 * <li>{@code rangeScopeTree}: --range-scope tree: a cudaProfilerApi range begun in any process of
 *     the tree is relayed to every agent ({@link TreeRangeRelay})</li>
 * <li>{@code torchTraces}: --torch-traces: after the capture, wait for the PyTorch profiler traces
 *     vLLM writes into a folder and fold their GPU work into the file; null for none</li>
 * <li>{@code continuous}: {@code vprof watch}: the agents stay armed (or duty-cycled) for as long as
 *     the capture runs ({@link Continuous}); null for a capture that ends when its agents do</li>
 * </ul>
 */
public record CapturePlan(Mode mode, int rootPid, ArmSpec arm, long ringBytes, Path output, List<String> commandLine,
        Map<String, String> options, Scrape metrics, URI trigger, Duration duration, boolean rangeScopeTree,
        TorchTraces torchTraces, Continuous continuous) {
    public enum Mode { RUN, ATTACH, FEEDS }

    /**
     * vLLM's torch profiler as a source: the traces that appear in {@code dir} during the capture
     * are waited for (at most {@code timeout} after the capture stops) and folded into the file.
     */
    public record TorchTraces(Path dir, Duration timeout) {}

    /** Scrape {@code url} every {@code interval}. */
    public record Scrape(URI url, Duration interval) {}

    /**
     * {@code vprof watch}: an ATTACH capture that keeps its agents armed for as long as it runs. An
     * agent that went back to DORMANT by itself (its heartbeat came late, its process's own
     * cudaProfilerStop ended its last range) is armed again; every agent disarms itself once this
     * front end has been silent for {@code heartbeatTimeout} (a killed watch leaves no agent armed
     * for long). With {@code armedFraction} below 1 the agents are armed for cudaProfilerApi ranges
     * and the front end opens one range of {@code armedFraction} of every {@code cycle}, at its
     * start, and closes it (a duty cycle, {@link DutyCycle}).
     */
    public record Continuous(Duration heartbeatTimeout, double armedFraction, Duration cycle) {
        /** Armed all the time, with this heartbeat timeout. */
        public static Continuous always(Duration heartbeatTimeout) {
            return new Continuous(heartbeatTimeout, 1.0, Duration.ofSeconds(10));
        }

        /** Whether the front end opens and closes the ranges (armedFraction below 1). */
        public boolean dutyCycled() {
            return armedFraction < 1.0;
        }
    }

    /** Throws {@link IllegalArgumentException} when the parts do not make one plan. */
    public CapturePlan {
        Objects.requireNonNull(mode, "mode");
        commandLine = List.copyOf(commandLine);
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options)); // the metadata keeps their order
        if (output == null) {
            throw new IllegalArgumentException("a capture plan needs the file it writes");
        }
        if (mode != Mode.FEEDS && rootPid <= 0) {
            throw new IllegalArgumentException("a " + mode + " capture needs the root pid of its tree, not "
                    + rootPid);
        }
        if (mode != Mode.FEEDS && arm == null) {
            throw new IllegalArgumentException("a " + mode + " capture needs what its agents record (arm)");
        }
        if (ringBytes < 0) {
            throw new IllegalArgumentException("ringBytes is " + ringBytes + ", not a size");
        }
        if (duration != null && duration.isNegative()) {
            throw new IllegalArgumentException("duration " + duration + " is negative");
        }
        if (metrics != null && (metrics.url() == null || metrics.interval() == null
                || metrics.interval().isNegative() || metrics.interval().isZero())) {
            throw new IllegalArgumentException("metrics needs a URL and an interval above zero: " + metrics);
        }
        if (torchTraces != null && (torchTraces.dir() == null || torchTraces.timeout() == null)) {
            throw new IllegalArgumentException("torchTraces needs a folder and a timeout: " + torchTraces);
        }
        if (continuous != null) {
            if (mode != Mode.ATTACH) {
                throw new IllegalArgumentException("a continuous capture attaches (ATTACH), not " + mode);
            }
            if (continuous.heartbeatTimeout() == null || continuous.heartbeatTimeout().toMillis() < 100
                    || !(continuous.armedFraction() > 0 && continuous.armedFraction() <= 1)
                    || continuous.cycle() == null || continuous.cycle().toMillis() < 100) {
                throw new IllegalArgumentException("a continuous capture needs a heartbeat timeout and a cycle of "
                        + "100 ms or more and an armed fraction in (0, 1]: " + continuous);
            }
            if (continuous.dutyCycled() && arm.rangeMode() != VprofRing.RANGE_PROFILER) {
                throw new IllegalArgumentException("a duty-cycled capture arms its agents for cudaProfilerApi ranges");
            }
        }
    }

    /** A plan of {@code mode}, every other part at its default (none, 0, empty). */
    public static Builder builder(Mode mode) {
        return new Builder(mode);
    }

    /** A builder holding this plan's parts, to make one that differs in a few. */
    public Builder toBuilder() {
        Builder b = new Builder(mode);
        b.rootPid = rootPid;
        b.arm = arm;
        b.ringBytes = ringBytes;
        b.output = output;
        b.commandLine = commandLine;
        b.options = options;
        b.metrics = metrics;
        b.trigger = trigger;
        b.duration = duration;
        b.rangeScopeTree = rangeScopeTree;
        b.torchTraces = torchTraces;
        b.continuous = continuous;
        return b;
    }

    /** Names each part of a plan; {@link #build} checks that they make one. */
    public static final class Builder {
        private Mode mode;
        private int rootPid;
        private ArmSpec arm;
        private long ringBytes;
        private Path output;
        private List<String> commandLine = List.of();
        private Map<String, String> options = Map.of();
        private Scrape metrics;
        private URI trigger;
        private Duration duration;
        private boolean rangeScopeTree;
        private TorchTraces torchTraces;
        private Continuous continuous;

        private Builder(Mode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
        }

        public Builder mode(Mode m) { this.mode = Objects.requireNonNull(m, "mode"); return this; }

        public Builder rootPid(int pid) { this.rootPid = pid; return this; }

        public Builder arm(ArmSpec spec) { this.arm = spec; return this; }

        public Builder ringBytes(long bytes) { this.ringBytes = bytes; return this; }

        public Builder output(Path file) { this.output = file; return this; }

        public Builder commandLine(List<String> words) {
            this.commandLine = Objects.requireNonNull(words, "commandLine");
            return this;
        }

        public Builder options(Map<String, String> opts) {
            this.options = Objects.requireNonNull(opts, "options");
            return this;
        }

        public Builder metrics(Scrape scrape) { this.metrics = scrape; return this; }

        public Builder trigger(URI base) { this.trigger = base; return this; }

        public Builder duration(Duration d) { this.duration = d; return this; }

        public Builder rangeScopeTree(boolean tree) { this.rangeScopeTree = tree; return this; }

        public Builder torchTraces(TorchTraces t) { this.torchTraces = t; return this; }

        public Builder continuous(Continuous c) { this.continuous = c; return this; }

        /** The plan; throws {@link IllegalArgumentException} when its parts do not make one. */
        public CapturePlan build() {
            return new CapturePlan(mode, rootPid, arm, ringBytes, output, commandLine, options, metrics, trigger,
                    duration, rangeScopeTree, torchTraces, continuous);
        }
    }
}
