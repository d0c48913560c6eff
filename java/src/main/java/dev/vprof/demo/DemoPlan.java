package dev.vprof.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one {@code vprof demo} run does, decided before it starts: the load phases sent while the
 * capture runs, how many tokens each request generates, whether the torch-profiler path follows,
 * where the files go and where the OTLP receiver listens. {@link DemoScenario} runs it.
 *
 * @param dir       where the capture, the traces, the reports and the workers' logs go
 * @param phases    the load between /start_profile and /stop_profile, in order; at least one
 * @param maxTokens tokens generated per request of every phase
 * @param torchPath the last step (the same server through its torch profiler, no agent), or null
 * @param otlpPort  the loopback port of the OTLP/HTTP receiver the server's spans go to; 0 for an
 *                  ephemeral one (the torch path's capture listens on the same port again)
 */
public record DemoPlan(Path dir, List<Phase> phases, int maxTokens, TorchPath torchPath, int otlpPort) {
    public DemoPlan {
        phases = List.copyOf(phases);
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a demo needs at least one load phase");
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be at least 1, not " + maxTokens);
        }
        if (otlpPort < 0 || otlpPort > 65535) {
            throw new IllegalArgumentException("otlpPort must be between 0 and 65535, not " + otlpPort);
        }
    }

    /**
     * The demo's story: {@code steady} requests at {@code rate} per second, then {@code burst} at
     * once; a phase of 0 requests is left out (not both).
     */
    public static DemoPlan of(Path dir, int steady, double rate, int burst, int maxTokens, boolean torchPath) {
        List<Phase> phases = new ArrayList<>();
        if (steady > 0) {
            phases.add(Phase.steady(steady, rate));
        }
        if (burst > 0) {
            phases.add(Phase.burst(burst));
        }
        return new DemoPlan(dir, phases, maxTokens, torchPath ? TorchPath.DEFAULT : null, 0);
    }

    /** Every request the phases send. */
    public int requests() {
        return phases.stream().mapToInt(Phase::requests).sum();
    }

    /**
     * One load phase.
     *
     * @param kind     STEADY: requests spread at {@code rate} per second; BURST: all at once
     * @param requests how many, 1 or more
     * @param rate     requests per second (BURST: infinite)
     * @param seed     the load generator's seed, so that each phase's prompts are the same run to run
     */
    public record Phase(Kind kind, int requests, double rate, long seed) {
        public enum Kind { STEADY, BURST }

        public Phase {
            if (requests < 1) {
                throw new IllegalArgumentException("a phase sends at least 1 request, not " + requests);
            }
            if (!(rate > 0)) {
                throw new IllegalArgumentException("a phase's rate must be positive, not " + rate);
            }
        }

        public static Phase steady(int requests, double rate) {
            return new Phase(Kind.STEADY, requests, rate, 1);
        }

        public static Phase burst(int requests) {
            return new Phase(Kind.BURST, requests, Double.POSITIVE_INFINITY, 2);
        }
    }

    /**
     * The torch-profiler path: {@code vprof capture --trigger … --torch-traces …} for
     * {@code duration}, while {@code requests} requests of {@code maxTokens} tokens go out at
     * {@code rate} per second; the traces are waited for at most {@code tracesTimeout}.
     */
    public record TorchPath(int requests, double rate, int maxTokens, Duration duration, Duration tracesTimeout) {
        public static final TorchPath DEFAULT = new TorchPath(12, 8, 16, Duration.ofSeconds(4), Duration.ofSeconds(60));

        public TorchPath {
            if (requests < 1 || !(rate > 0) || maxTokens < 1 || duration.isNegative() || duration.isZero()
                    || tracesTimeout.isNegative()) {
                throw new IllegalArgumentException("a torch path of " + requests + " requests at " + rate + "/s, "
                        + maxTokens + " tokens, " + duration + ", traces within " + tracesTimeout);
            }
        }
    }
}
