package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.vprof.bindings.VprofRing;
import dev.vprof.engine.AgentEnvironment;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.region.AgentState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The cases where the self-test drives the program step by step and attaches to it, as an
 * on-call engineer attaches to a server started with `vprof launch` (a dormant agent) or
 * without vprof (`attach --inject`): graphs instantiated while dormant (R2), launch cost in each
 * agent state within one process (R7), and late injection.
 */
final class InteractiveCases {
    private final SelftestRun run;

    InteractiveCases(SelftestRun run) {
        this.run = run;
    }

    /** The program's environment with a dormant agent, as `vprof launch` starts a server. */
    private Map<String, String> dormantEnv() throws IOException {
        Map<String, String> env = new HashMap<>(run.programEnv);
        AgentEnvironment.apply(env, NativeFiles.require(NativeFiles.AGENT), 0, null);
        return env;
    }

    private Process attach(Path dir, long pid, String... opts) throws IOException {
        List<String> args = new ArrayList<>(List.of("attach", "--pid", Long.toString(pid)));
        args.addAll(List.of(opts));
        args.addAll(List.of("-o", dir.resolve("capture.vprof").toString()));
        return SelfCli.start(SelfCli.vprof(args.toArray(String[]::new)), Map.of(), dir, "attach");
    }

    /** Waits for an attach to end; a row if it failed or hung. */
    private boolean attachEnded(String label, Process attach, Path dir) throws IOException, InterruptedException {
        boolean ended = attach.waitFor(run.timeout(60), TimeUnit.SECONDS);
        if (!ended) {
            SelfCli.kill(attach);
        }
        int code = ended ? attach.exitValue() : 124;
        if (code != 0) {
            run.table.add(Row.of(label + ": vprof attach", "exit 0", "exit " + code + ": "
                    + SelftestRun.tail(SelfCli.read(dir.resolve("attach.stderr"))), false));
        }
        return code == 0;
    }

    /** A row when the agent did not reach the state; true when it did. */
    private boolean reached(String label, long pid, AgentState want, long seconds) throws InterruptedException {
        AgentState s = run.awaitAgent(pid, want::equals, seconds);
        if (s == want) {
            return true;
        }
        run.table.add(Row.of(label, want.name(), (s == null ? "no agent region" : s.name()) + " after " + seconds
                + " s" + (s == AgentState.FAILED ? ": " + SelftestRun.agentReason(pid) : ""), false));
        return false;
    }

    /** What steps return when they stopped early: a row already says why. */
    private static final JsonNode STOPPED = MissingNode.getInstance();

    /** Steps taken with an attach going; the program's result line, null when it printed none, or STOPPED. */
    @FunctionalInterface
    private interface Steps {
        JsonNode run() throws IOException, InterruptedException;
    }

    /**
     * Runs the steps with the attach going, then waits for it to end (a row if it failed) and makes
     * sure it is gone. The program's result line, or null when there is nothing to check (a row says why).
     */
    // STOPPED is a sentinel compared by identity (Jackson's shared MissingNode, which readTree gives for empty input).
    @SuppressWarnings("ReferenceEquality")
    private JsonNode attached(String label, Path dir, Process attach, Steps steps)
            throws IOException, InterruptedException {
        try {
            JsonNode result = steps.run();
            if (result == STOPPED || !attachEnded(label, attach, dir)) {
                return null;
            }
            if (result == null) {
                run.table.add(Row.of(label + ": the program's result", "a result line", "none (see program.stderr)",
                        false));
            }
            return result;
        } finally {
            if (attach.isAlive()) {
                SelfCli.kill(attach);
            }
        }
    }

    /**
     * R2: two graphs captured and instantiated while the agent is dormant (A also replayed then),
     * an attach for two cudaProfilerApi ranges (repeat:2: CUDA 13.1 Update 1 fixed graph launches'
     * correlation ids in every profiling run after the first), replays in each. Every node kernel
     * with its ids, or none and the agent's loud warning; the table says which this GPU gives.
     */
    void graphDormant() throws IOException, InterruptedException {
        String label = "graph-dormant";
        Path dir = run.caseDir(label);
        JsonNode result;
        try (Target t = Target.start(List.of(run.program.toString(), label), dormantEnv(), dir, "program")) {
            t.await("captured", run.timeout(60));
            AgentState s = SelftestRun.agentState(t.pid());
            run.table.add(Row.of(label + ": agent state while the graphs were captured and instantiated", "DORMANT",
                    s == null ? "no agent region" : s.name() + (s == AgentState.FAILED ? ": "
                            + SelftestRun.agentReason(t.pid()) : ""), s == AgentState.DORMANT));
            // Runtime and driver API records too: they say which call's id the node kernels carry.
            Process attach = attach(dir, t.pid(), "--capture-range=cudaProfilerApi", "--capture-range-end=repeat:2",
                    "--kinds", "kernel,memcpy,memset,runtime,driver");
            result = attached(label, dir, attach, () -> {
                if (!reached(label + ": vprof attach armed the agent", t.pid(), AgentState.ARMED, run.timeout(30))) {
                    return STOPPED;
                }
                t.send("go");
                t.await("next", run.timeout(60));
                // The next range must not begin while this one drains (it would cut it short).
                if (!reached(label + ": range 1 drained and closed", t.pid(), AgentState.ARMED, run.timeout(10))) {
                    return STOPPED;
                }
                t.send("go");
                t.await("stopped", run.timeout(60));
                return t.result(run.timeout(60));
            });
        }
        if (result == null) {
            return;
        }
        Path file = dir.resolve("capture.vprof");
        JsonNode report = run.report(file, dir);
        CaptureFacts facts = run.facts(file, dir);
        Map<String, String> outcomes = new LinkedHashMap<>();
        int i = 1;
        for (JsonNode want : result.path("ranges")) {
            RangeCheck.Result r = new RangeCheck(label + " r" + i, want, SelftestRun.range(report, i), facts.range(i),
                    run.shapes).check(RangeCheck.Graphs.DELIVERED_OR_LOUD);
            run.table.addAll(r.rows());
            final int index = i;
            r.graphOutcomes().forEach((graph, outcome) -> outcomes.put("r" + index + " " + graph, outcome));
            i++;
        }
        run.table.fact("R2, graphs instantiated while the agent is dormant", outcomes.isEmpty() ? "not judged"
                : outcomes.toString());
        run.table.add(Row.info(label + ": R2 on this GPU (node kernels of graphs instantiated while dormant)",
                outcomes.toString()));
    }

    /**
     * R7: ns per launch with no agent (a process of its own), then in one process: dormant (twice),
     * armed with no range open, capturing, and after the capture ended (the agent finalizes CUPTI at
     * the next launch).
     */
    void launchCost() throws IOException, InterruptedException {
        String label = "launch-cost";
        Path dir = run.caseDir(label);
        Map<String, JsonNode> phases = new HashMap<>();
        try (Target t = Target.start(List.of(run.program.toString(), label), run.programEnv, dir, "no-agent")) {
            t.await("ready", run.timeout(60));
            measure(t, "none", phases);
            t.send("exit");
            t.exitCode(run.timeout(30));
        }
        Boolean finalized = null;
        boolean finalizeExpected = false;
        JsonNode result;
        try (Target t = Target.start(List.of(run.program.toString(), label), dormantEnv(), dir, "program")) {
            t.await("ready", run.timeout(60));
            measure(t, "dormant", phases);
            measure(t, "dormant-again", phases);
            Process attach = attach(dir, t.pid(), "--capture-range=cudaProfilerApi", "--capture-range-end=stop");
            JsonNode stopped = attached(label, dir, attach, () -> {
                if (!reached(label + ": vprof attach armed the agent", t.pid(), AgentState.ARMED, run.timeout(30))) {
                    return STOPPED;
                }
                measure(t, "armed", phases);
                t.send("start");
                t.await("started", run.timeout(30));
                measure(t, "capturing", phases);
                t.send("stop");
                return t.awaitEvent("stopped", run.timeout(30));
            });
            result = null;
            if (stopped != null) { // else a row says why; the phases measured so far are still judged
                reached(label + ": agent dormant after the capture", t.pid(), AgentState.DORMANT, run.timeout(10));
                t.send("launch"); // the agent finalizes CUPTI in this launch's API exit callback
                t.await("launched", run.timeout(30));
                long bits = SelftestRun.cuptiFacts(t.pid());
                if (bits >= 0) {
                    finalized = (bits & VprofRing.CUPTI_FINALIZED) != 0;
                    finalizeExpected = (bits & VprofRing.CUPTI_FINALIZES) != 0;
                }
                measure(t, "after-capture", phases);
                t.send("exit");
                result = t.result(run.timeout(30));
            }
        }
        run.table.addAll(LaunchCostCheck.check(phases, finalized, finalizeExpected));
        if (result != null) {
            exactRanges(label, dir, result);
        }
    }

    /** The attach's capture in DIR judged against every range the program's result lists. */
    private void exactRanges(String label, Path dir, JsonNode result) throws IOException {
        Path file = dir.resolve("capture.vprof");
        JsonNode report = run.report(file, dir);
        run.table.addAll(run.ranges(label, result, report, run.facts(file, dir), RangeCheck.Graphs.EXACT, r -> r));
    }

    private void measure(Target t, String phase, Map<String, JsonNode> phases) throws IOException, InterruptedException {
        t.send("measure " + phase);
        t.await("measured", run.timeout(60));
        phases.put(phase, t.lastEvent());
    }

    /**
     * vprof watch, the flight recorder: ns per launch with the agent dormant and then with a watch
     * recording all the time (launch-cost's program); a dump asked with {@code vprof dump PID}
     * holding every kernel launched while it was measured; the agent dormant again once the watch
     * ends (SIGTERM), and within 1 s of a second watch's SIGKILL, with the program running on.
     */
    void watch() throws IOException, InterruptedException {
        String label = "watch";
        Path dir = run.caseDir(label);
        Map<String, JsonNode> phases = new HashMap<>();
        try (Target t = Target.start(List.of(run.program.toString(), "launch-cost"), dormantEnv(), dir, "program")) {
            t.await("ready", run.timeout(60));
            String pid = Long.toString(t.pid());
            measure(t, "dormant", phases);
            Process w = SelfCli.start(SelfCli.vprof("watch", "--pid", pid, "--dir", dir.resolve("w").toString(),
                    "--keep", "2m", "--before", "2m", "--after", "1s", "--segment", "5s"), Map.of(), dir, "watch");
            try {
                if (!reached(label + ": vprof watch armed the agent", t.pid(), AgentState.CAPTURING, run.timeout(60))) {
                    return;
                }
                measure(t, "watched", phases);
                SelfCli.Result d = SelfCli.run(SelfCli.vprof("dump", pid, "--json"), Map.of(), run.timeout(120), dir,
                        "dump");
                run.table.add(Row.of(label + ": vprof dump " + pid, "exit 0", "exit " + d.exitCode()
                        + (d.exitCode() == 0 ? "" : ": " + SelftestRun.tail(d.stderr())), d.exitCode() == 0));
                if (d.exitCode() == 0) {
                    JsonNode answer = SelfCli.parse(d.stdout());
                    JsonNode report = run.report(Path.of(answer.path("file").asText()), dir, "dump");
                    long launched = phases.get("watched").path("launches").asLong();
                    long kernels = report.path("totals").path("kernels").asLong();
                    run.table.add(Row.of(label + ": the dump holds every kernel launched while measured", ">= " + launched,
                            Long.toString(kernels), kernels >= launched));
                }
                w.destroy();
                boolean ended = w.waitFor(run.timeout(60), TimeUnit.SECONDS);
                run.table.add(Row.of(label + ": vprof watch ends on SIGTERM", "exit 0",
                        ended ? "exit " + w.exitValue() : "still running", ended && w.exitValue() == 0));
                reached(label + ": agent dormant after the watch", t.pid(), AgentState.DORMANT, run.timeout(10));
            } finally {
                if (w.isAlive()) {
                    SelfCli.kill(w);
                }
            }
            Process killed = SelfCli.start(SelfCli.vprof("watch", "--pid", pid, "--dir", dir.resolve("w2").toString(),
                    "--keep", "30s", "--segment", "5s"), Map.of(), dir, "watch-killed");
            try {
                if (reached(label + ": a second watch armed the agent", t.pid(), AgentState.CAPTURING, run.timeout(60))) {
                    Thread.sleep(1000);
                    killed.destroyForcibly();
                    long t0 = System.nanoTime();
                    AgentState st = run.awaitAgent(t.pid(), AgentState.DORMANT::equals, 5);
                    double s = (System.nanoTime() - t0) / 1e9;
                    run.table.add(Row.of(label + ": agent dormant after the watch's SIGKILL", "within 1.0 s",
                            st == AgentState.DORMANT ? String.format(Locale.ROOT, "%.2f s", s) : String.valueOf(st),
                            st == AgentState.DORMANT && s <= 1.0));
                }
            } finally {
                if (killed.isAlive()) {
                    SelfCli.kill(killed);
                }
            }
            t.send("launch");
            t.await("launched", run.timeout(30));
            t.send("exit");
            int code = t.exitCode(run.timeout(30));
            run.table.add(Row.of(label + ": the program ran on and exited", "exit 0", "exit " + code, code == 0));
        }
        JsonNode dormant = phases.get("dormant");
        JsonNode watched = phases.get("watched");
        if (dormant != null && watched != null) {
            double a = dormant.path("ns_per_launch").asDouble();
            double b = watched.path("ns_per_launch").asDouble();
            run.table.add(Row.info(label + ": ns per launch, dormant / watched (recording all the time)",
                    String.format(Locale.ROOT, "%.1f / %.1f ns, ratio %.2f", a, b, b / a)));
        }
    }

    /** A CUDA process started WITHOUT vprof, captured through `vprof attach --inject`. */
    void lateInjection() throws IOException, InterruptedException {
        String label = "late";
        if (run.injectionRefused != null) {
            run.table.add(Row.skipped(label, "this machine forbids attach --inject (vprof doctor: "
                    + run.injectionRefused + ")"));
            return;
        }
        Path dir = run.caseDir(label);
        JsonNode result;
        try (Target t = Target.start(List.of(run.program.toString(), "wait"), run.programEnv, dir, "program")) {
            t.await("ready", run.timeout(60));
            Process attach = attach(dir, t.pid(), "--inject", "--capture-range=cudaProfilerApi",
                    "--capture-range-end=stop", "--duration=120s");
            result = attached(label, dir, attach, () -> {
                // Let the attach inject and arm before the program reaches its profiler range.
                if (!reached(label + ": attach --inject loaded and armed the agent", t.pid(), AgentState.ARMED,
                        run.timeout(60))) {
                    return STOPPED;
                }
                t.send("go");
                return t.result(run.timeout(60));
            });
        }
        if (result != null) {
            exactRanges(label, dir, result);
        }
    }
}
