package dev.vprof.cli;

import dev.vprof.bindings.VprofRing;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcessTree;
import dev.vprof.engine.Capture;
import dev.vprof.engine.CaptureEnvironment;
import dev.vprof.engine.CaptureException;
import dev.vprof.engine.CaptureFeeds;
import dev.vprof.engine.CapturePlan;
import dev.vprof.engine.CaptureSummary;
import dev.vprof.engine.Started;
import dev.vprof.inject.InjectPrompt;
import dev.vprof.inject.InjectionException;
import dev.vprof.inject.Injector;
import dev.vprof.inject.LateInjection;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.ArmSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "attach", mixinStandardHelpOptions = true,
        description = {"Capture a running process and all its descendants that have a vprof agent "
                + "(started with `vprof launch` or CUDA_INJECTION64_PATH=$(vprof agent-path)).",
                "Ends at --duration, Ctrl-C, when every agent's capture range is over, or when the targets exit; "
                        + "the agents go back to dormant and the targets run on."},
        footer = {"", "Examples:",
                "  vprof attach --pid 4242 --duration 10s -o b.vprof",
                "  vprof attach --pid 4242 --capture-range=cudaProfilerApi   # vLLM: POST /start_profile",
                "  vprof attach --pid 4242 --capture-range=nvtx:decode@vllm --capture-range-end=repeat:5",
                "  vprof attach --pid 4242 --inject --duration 3s   # started without vprof: see docs/attach.md",
                "  # kernels, /metrics and spans in one file; vprof POSTs /start_profile and /stop_profile:",
                "  vprof attach --pid 4242 --capture-range=cudaProfilerApi --duration 10s \\",
                "      --trigger localhost:8000 --metrics localhost:8000 --otlp",
                "  vprof attach --pid 1 --all --duration 5s   # every agent on the machine, whichever launch",
                "", SignalHelp.CAPTURE})
final class AttachCommand extends VprofCommand {
    AttachCommand() {
        super(ExitCode.OK, ExitCode.CANNOT);
    }

    @Option(names = {"-p", "--pid"}, required = true, paramLabel = "PID",
            description = "The process to capture; its descendants are captured too.")
    int pid;

    @Mixin
    CaptureOptions capture = new CaptureOptions();

    @Option(names = "--inject", description = "Load the agent into the processes of the tree that use CUDA but "
            + "have no vprof agent (ptrace, or sys.remote_exec for Python 3.14+), then capture them; without it "
            + "vprof asks on a terminal. Risks: docs/attach.md.")
    boolean inject;

    @Option(names = "--inject-timeout", paramLabel = "D", defaultValue = "5s",
            description = "How long the injector may wait, per process, for a thread at a point where loading "
                    + "a library is safe (not inside the allocator or the dynamic loader), e.g. 20s, 2m; "
                    + "default: ${DEFAULT-VALUE}. Nothing is changed in a process that never gets there.")
    String injectTimeout = "5s";

    @Option(names = "--all", description = "Capture every agent of the tree even when they belong to separate "
            + "launches (attach --pid 1, a shell that started two servers); without it vprof asks on a terminal, "
            + "and elsewhere refuses, naming the launches.")
    boolean all;

    AgentDirectory directory = AgentDirectory.system();
    /** Late injection and its terminal prompt (null: no terminal); tests replace them. */
    LateInjection lateInjection;
    InjectPrompt prompt = InjectPrompt.terminal();
    /** The pids this attach loaded the agent into. */
    private final List<Integer> injectedNow = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        capture.validate();
        Duration safePointWait = injectTimeoutValue();
        ArmSpec armSpec = capture.toSpec(Capture.newCaptureId());
        Path file = OutputPath.expand(capture.output, pid, LocalDateTime.now(ZoneId.systemDefault()));
        OutputPath.checkWritable(file);
        OutputPath.refuseExisting(file, capture.force, "the capture file");

        confirmLaunches();
        CapturePlan plan = capture.plan(CapturePlan.Mode.ATTACH)
                .rootPid(pid).arm(armSpec).output(file).commandLine(List.of("attach", "--pid", Integer.toString(pid)))
                .build();
        // --spans read and the OTLP ports bound before any agent is touched: their errors come first.
        CaptureFeeds feeds = capture.openFeeds(err);
        List<Integer> withoutAgent;
        try {
            withoutAgent = offerInjection(err, safePointWait);
        } catch (RuntimeException e) {
            feeds.close();
            throw e;
        }
        // Arms every agent of the tree before the file exists: every refusal (FAILED, busy, no answer) comes first.
        Capture running;
        try {
            running = Capture.start(plan, Started.feeds(feeds),
                    new CaptureEnvironment(directory, err, Posix.isatty(Posix.STDERR_FILENO)));
        } catch (CaptureException.NoAgent e) {
            if (capture.torchTraces != null) {
                // vLLM's torch traces bring the GPU work: the agents are optional then.
                err.println("vprof: no agent in the tree of pid " + pid + ": capturing the feeds and vLLM's torch "
                        + "traces only");
                running = Capture.start(plan.toBuilder().mode(CapturePlan.Mode.FEEDS).build(),
                        Started.feeds(capture.openFeeds(err)),
                        new CaptureEnvironment(directory, err, Posix.isatty(Posix.STDERR_FILENO)));
                capture.printSummaryJson(running.awaitSummary(), file, null, spec.commandLine().getOut());
                return ExitCode.OK.code();
            }
            throw new CliException(e.getMessage() + (inject ? "; none of them has CUDA loaded (libcuda mapped) to "
                    + "inject into: has it initialized CUDA yet?" : injectHint(withoutAgent)), e);
        }
        if (!withoutAgent.isEmpty()) {
            err.println("vprof: warning: not capturing the processes without an agent" + injectHint(withoutAgent));
        }
        warnWhatLateAgentsMissed(err, running.targets());
        err.flush();
        CaptureSummary summary = running.awaitSummary();
        int exit = capture.exportSpans(file, capture.humanOut(spec.commandLine().getOut(), err), err);
        capture.printSummaryJson(summary, file, null, spec.commandLine().getOut());
        return exit;
    }

    /**
     * Agents of more than one launch in the tree: captured with --all or a yes on the terminal;
     * without a terminal, refused with the launches named.
     */
    private void confirmLaunches() {
        if (all) {
            return;
        }
        List<Launches.Launch> launches = Launches.inTree(pid, directory);
        if (launches.size() < 2) {
            return;
        }
        if (prompt == null) {
            throw new CliException(Launches.refusal(pid, launches));
        }
        if (!prompt.confirm(Launches.question(pid, launches))) {
            throw new CliException("not capturing the " + launches.size() + " launches in the tree of pid " + pid
                    + "; attach to one of them with --pid, or pass --all");
        }
    }

    /**
     * The processes of the tree that use CUDA but have no agent: with --inject (or yes at the
     * terminal's prompt) the agent is loaded into them now; returns those left without one.
     */
    private Duration injectTimeoutValue() {
        Duration d = Units.duration("--inject-timeout", injectTimeout);
        if (d.compareTo(Duration.ofMillis(1)) < 0 || d.compareTo(Injector.MAX_SAFE_POINT_WAIT) > 0) {
            throw new CliException("--inject-timeout must be between 1ms and 1h, not " + injectTimeout);
        }
        return d;
    }

    private List<Integer> offerInjection(PrintWriter err, Duration safePointWait) {
        if (!ProcessTree.isAlive(pid)) {
            return List.of(); // findAgents says so
        }
        List<Integer> bare;
        try {
            if (lateInjection == null) {
                lateInjection = new LateInjection(new Injector(NativeFiles.require(NativeFiles.INJECT)),
                        NativeFiles.require(NativeFiles.AGENT), directory, Posix.getuid(), err);
            }
            bare = lateInjection.candidates(pid);
        } catch (IOException | InjectionException e) {
            if (inject) {
                throw new CliException(e.getMessage() + "; --inject cannot work without it", e);
            }
            return List.of(); // attach through existing agents still works
        }
        boolean yes = !bare.isEmpty() && (inject || (prompt != null && prompt.confirm(injectQuestion(bare))));
        List<Integer> chosen = yes ? bare : List.of();
        List<Integer> left = yes ? List.of() : bare;
        try {
            lateInjection.safePointWait(safePointWait).injectAll(chosen);
            injectedNow.addAll(chosen);
        } catch (InjectionException e) {
            throw new CliException(e.getMessage(), e);
        }
        return left;
    }

    /** One question for the whole tree (a TP=8 server is asked once, not eight times). */
    static String injectQuestion(List<Integer> pids) {
        if (pids.size() == 1) {
            int p = pids.getFirst();
            return "pid " + p + " (" + LateInjection.commandOf(p) + ") uses CUDA but has no vprof agent; "
                    + "inject it now? [y/N] ";
        }
        StringBuilder q = new StringBuilder(pids.size() + " processes use CUDA but have no vprof agent:\n");
        for (int p : pids) {
            q.append("  pid ").append(p).append(" (").append(LateInjection.commandOf(p)).append(")\n");
        }
        return q.append("inject the agent into all ").append(pids.size()).append(" now? [y/N] ").toString();
    }

    /** An agent loaded just now says what it could not see (work before CUPTI attached at the ARM). */
    private void warnWhatLateAgentsMissed(PrintWriter err, List<Capture.Target> targets) {
        for (Capture.Target t : targets) {
            String why = t.reason();
            if (injectedNow.contains(t.pid()) && (t.agentFlags() & VprofRing.AGENT_INJECTED_LATE) != 0
                    && !why.isEmpty()) {
                err.println("vprof: warning: pid " + t.pid() + ": " + why);
            }
        }
    }

    /** What to say about the processes of the tree that use CUDA without an agent; empty when none. */
    private static String injectHint(List<Integer> withoutAgent) {
        return withoutAgent.isEmpty() ? "" : "; pid" + (withoutAgent.size() == 1 ? " " : "s ")
                + withoutAgent.stream().map(String::valueOf).collect(Collectors.joining(", "))
                + " use" + (withoutAgent.size() == 1 ? "s" : "") + " CUDA without one: "
                + "use --inject to load the agent into the running process";
    }
}
