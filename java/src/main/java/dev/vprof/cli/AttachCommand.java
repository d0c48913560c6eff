package dev.vprof.cli;

import dev.vprof.bindings.VprofRing;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcessTree;
import dev.vprof.discovery.RegionFile;
import dev.vprof.inject.InjectPrompt;
import dev.vprof.inject.InjectionException;
import dev.vprof.inject.Injector;
import dev.vprof.inject.LateInjection;
import dev.vprof.nativelib.NativeFiles;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.ArmSpec;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import dev.vprof.region.RegionNotReadyException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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
                "      --trigger localhost:8000 --metrics localhost:8000 --otlp"})
final class AttachCommand implements Callable<Integer> {
    private static final long NOT_READY_WAIT_NS = TimeUnit.SECONDS.toNanos(2);

    @Spec
    CommandSpec spec;

    @Option(names = {"-p", "--pid"}, required = true, paramLabel = "PID",
            description = "The process to capture; its descendants are captured too.")
    int pid;

    @Mixin
    CaptureOptions capture = new CaptureOptions();

    @Option(names = "--inject", description = "Load the agent into the processes of the tree that use CUDA but "
            + "have no vprof agent (ptrace, or sys.remote_exec for Python 3.14+), then capture them; without it "
            + "vprof asks on a terminal. Risks: docs/attach.md.")
    boolean inject;

    AgentDirectory directory = AgentDirectory.system();
    /** Late injection and its terminal prompt (null: no terminal); tests replace them. */
    LateInjection lateInjection;
    InjectPrompt prompt = InjectPrompt.terminal();
    /** The pids this attach loaded the agent into. */
    private final List<Integer> injectedNow = new ArrayList<>();

    /** vprof demo and tests: called once the agents are armed and the file exists, just before the capture runs. */
    Consumer<CaptureSession> beforeCapture = s -> { };
    /** vprof demo: null shows the live progress line when a console is attached. */
    Boolean showProgress;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        capture.validate();
        Duration duration = capture.durationOrNull();
        ArmSpec armSpec = capture.toSpec(CaptureRunner.newCaptureId());
        Path file = OutputPath.expand(capture.output, pid, LocalDateTime.now());
        OutputPath.checkWritable(file);

        // --spans read and the OTLP ports bound before any agent is touched: their errors come first.
        CaptureFeeds feeds = CaptureFeeds.open(capture, err);
        List<Region> regions;
        try {
            List<Integer> withoutAgent = offerInjection(err);
            regions = findAgents(err, withoutAgent);
        } catch (RuntimeException e) {
            feeds.close();
            throw e;
        }
        CaptureSession session = new CaptureSession(CaptureSession.Mode.ATTACH, pid, armSpec, null, directory, err,
                showProgress != null ? showProgress : System.console() != null);
        session.rangeScopeTree(capture.treeScope());
        session.feeds(feeds);
        // Arm first: every refusal (FAILED, busy, no answer) is reported before a file exists.
        try {
            session.armAll(regions, capture.ringBytes());
        } catch (RuntimeException e) {
            feeds.close();
            throw e;
        }
        warnWhatLateAgentsMissed(err, session);
        try {
            session.output(CaptureRunner.createOutput(file, List.of("attach", "--pid", Integer.toString(pid)),
                    capture.asMap()));
        } catch (RuntimeException e) {
            feeds.close();
            session.releaseAll();
            throw e;
        }
        err.println("vprof: capturing " + regions.size() + " process" + (regions.size() == 1 ? "" : "es")
                + " in the tree of pid " + pid + (duration != null ? " for " + capture.duration : "")
                + "; Ctrl-C to stop");
        err.flush();
        if (duration != null) {
            session.deadlineAfterNanos(duration.toNanos());
        }
        beforeCapture.accept(session);
        CaptureSession.Summary s = CaptureRunner.runWithShutdownHook(session, err);
        CaptureSession.printSummary(err, file.toString(), s);
        err.flush();
        return 0;
    }

    /**
     * The processes of the tree that use CUDA but have no agent: with --inject (or yes at the
     * terminal's prompt) the agent is loaded into them now; returns those left without one.
     */
    private List<Integer> offerInjection(PrintWriter err) {
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
        List<Integer> chosen = new ArrayList<>();
        List<Integer> left = new ArrayList<>();
        for (int p : bare) {
            boolean yes = inject || (prompt != null && prompt.confirm("pid " + p + " (" + LateInjection.commandOf(p)
                    + ") uses CUDA but has no vprof agent; inject it now? [y/N] "));
            (yes ? chosen : left).add(p);
        }
        try {
            lateInjection.injectAll(chosen);
            injectedNow.addAll(chosen);
        } catch (InjectionException e) {
            throw new CliException(e.getMessage(), e);
        }
        return left;
    }

    /** An agent loaded just now says what it could not see (work before CUPTI attached at the ARM). */
    private void warnWhatLateAgentsMissed(PrintWriter err, CaptureSession session) {
        for (Attached a : session.attached()) {
            String why = a.region.reason();
            if (injectedNow.contains(a.pid()) && (a.region.agentFlags() & VprofRing.AGENT_INJECTED_LATE) != 0
                    && !why.isEmpty()) {
                err.println("vprof: warning: pid " + a.pid() + ": " + why);
            }
        }
    }

    /** The agents in pid's tree, validated; every way this can fail is one clear sentence. */
    private List<Region> findAgents(PrintWriter err, List<Integer> withoutAgent) {
        if (!ProcessTree.isAlive(pid)) {
            throw new CliException("no process with pid " + pid + " is running");
        }
        var tree = ProcessTree.read().descendantsOf(pid);
        List<RegionFile> files = directory.within(tree);
        String injectHint = withoutAgent.isEmpty() ? "" : "; pid" + (withoutAgent.size() == 1 ? " " : "s ")
                + withoutAgent.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
                + " use" + (withoutAgent.size() == 1 ? "s" : "") + " CUDA without one: "
                + "use --inject to load the agent into the running process";
        if (files.isEmpty()) {
            throw new CliException("no vprof agent in pid " + pid + " or its descendants; start the program with "
                    + "`vprof launch -- CMD`, or with CUDA_INJECTION64_PATH=$(vprof agent-path) in its environment"
                    + (inject ? "; none of them has CUDA loaded (libcuda mapped) to inject into: has it "
                    + "initialized CUDA yet?" : injectHint));
        }
        if (!injectHint.isEmpty()) {
            err.println("vprof: warning: not capturing the processes without an agent" + injectHint);
        }
        int uid = Posix.getuid();
        List<Region> regions = new ArrayList<>();
        try {
            for (RegionFile f : files) {
                Region r = openWhenReady(f.path(), uid);
                if (r.state() == AgentState.EXITED) {
                    r.close();
                    continue;
                }
                regions.add(r);
            }
        } catch (RegionException e) {
            regions.forEach(Region::close);
            throw new CliException(e.getMessage(), e);
        }
        if (regions.isEmpty()) {
            throw new CliException("every vprof agent in the tree of pid " + pid + " has already exited");
        }
        return regions;
    }

    private static Region openWhenReady(Path path, int uid) throws RegionException {
        long deadline = System.nanoTime() + NOT_READY_WAIT_NS;
        while (true) {
            try {
                Region r = Region.open(path, uid, true);
                if (r.state() != AgentState.STARTING) {
                    return r;
                }
                r.close();
                if (System.nanoTime() - deadline > 0) {
                    throw new RegionException("the agent in pid " + Region.pidOf(path)
                            + " is still starting after 2 s; try again in a moment");
                }
            } catch (RegionNotReadyException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RegionException("interrupted");
            }
        }
    }
}
