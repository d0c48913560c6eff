package dev.vprof.inject;

import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcessTree;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import dev.vprof.region.RegionNotReadyException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Loads the agent into running CUDA processes that were started without it, for
 * {@code vprof attach --inject}: finds them, injects each (PEP 768 {@code sys.remote_exec} for a
 * CPython 3.14+ target, else the ptrace injector), and waits until each new agent has created
 * its region and gone DORMANT, so that the attach that follows finds it like any other agent.
 *
 * <p>Never twice: a process that already has a region is not a candidate, and the injector
 * itself refuses a process that already maps the agent (exit 8, treated as "attach it").
 */
public final class LateInjection {
    /** From dlopen returning to the region being DORMANT: the agent's constructor only maps a file. */
    private static final long REGION_WAIT_NS = TimeUnit.SECONDS.toNanos(10);
    /** remote_exec runs the script at the target's next bytecode boundary; a target stuck in C never gets there. */
    private static final long REMOTE_EXEC_WAIT_NS = TimeUnit.SECONDS.toNanos(3);

    private final Injector injector;
    private final Path agent;
    private final AgentDirectory directory;
    private final int uid;
    private final PrintWriter err;
    private IntFunction<PythonTarget.Plan> planner = PythonTarget::planFor;
    private Duration safePointWait = Injector.DEFAULT_SAFE_POINT_WAIT;

    public LateInjection(Injector injector, Path agent, AgentDirectory directory, int uid, PrintWriter err) {
        this.injector = injector;
        this.agent = agent.toAbsolutePath();
        this.directory = directory;
        this.uid = uid;
        this.err = err;
    }

    /** How long the ptrace injector may wait for a thread of each process to reach a safe point. */
    public LateInjection safePointWait(Duration wait) {
        this.safePointWait = wait;
        return this;
    }

    /** Replaces the remote_exec decision (tests). */
    public LateInjection planner(IntFunction<PythonTarget.Plan> p) {
        this.planner = p;
        return this;
    }

    /** The processes in {@code root}'s tree that have CUDA but no vprof agent (no live region). */
    public List<Integer> candidates(int root) {
        List<Integer> cuda;
        try {
            cuda = injector.listCuda(root);
        } catch (IOException e) {
            throw new InjectionException("cannot tell which processes use CUDA: " + e.getMessage(), e);
        }
        List<Integer> out = new ArrayList<>();
        for (int pid : cuda) {
            if (directory.within(Set.of(pid)).isEmpty()) {
                out.add(pid);
            }
        }
        return out;
    }

    /**
     * Injects the agent into every pid and waits for each region to be DORMANT. Stops at the
     * first refusal with an {@link InjectionException} that names the pid, the reason and the
     * remedy; agents already loaded into earlier pids stay, dormant, for a later attach.
     */
    public void injectAll(List<Integer> pids) {
        for (int pid : pids) {
            err.println("vprof: loading the agent into pid " + pid + " (" + describe(pid) + ")");
            err.flush();
            injectOne(pid);
            awaitDormant(pid, REGION_WAIT_NS);
        }
    }

    private void injectOne(int pid) {
        PythonTarget.Plan plan = planner.apply(pid);
        if (plan.remoteExec()) {
            String failed;
            try {
                failed = RemoteExec.request(plan.interpreter(), pid, agent);
            } catch (IOException e) {
                failed = e.getMessage();
            }
            if (failed == null && regionAppears(pid, REMOTE_EXEC_WAIT_NS)) {
                return;
            }
            err.println("vprof: " + (failed != null ? failed : "sys.remote_exec was accepted but pid " + pid
                    + " did not run it within " + TimeUnit.NANOSECONDS.toSeconds(REMOTE_EXEC_WAIT_NS)
                    + " s (busy outside Python code?)") + "; falling back to ptrace");
        }
        Injector.Result r;
        try {
            r = injector.inject(pid, agent, safePointWait);
        } catch (IOException e) {
            throw new InjectionException("cannot run " + injector.executable() + ": " + e.getMessage(), e);
        }
        InjectorExit exit = r.exit();
        if (exit == InjectorExit.INJECTED) {
            if (!r.howInjected().isEmpty()) {
                err.println("vprof: loaded the agent into pid " + pid + " (" + r.howInjected() + ")");
            }
            return;
        }
        if (exit == InjectorExit.ALREADY_LOADED) {
            return;
        }
        throw new InjectionException("cannot load the agent into pid " + pid + ": "
                + exit.explain(pid, agent.toString(), r.detail(), safePointWait));
    }

    private boolean regionAppears(int pid, long waitNs) {
        Path path = directory.pathFor(pid);
        long deadline = System.nanoTime() + waitNs;
        while (!Files.exists(path)) {
            if (System.nanoTime() - deadline > 0 || !ProcessTree.isAlive(pid)) {
                return false;
            }
            sleep();
        }
        return true;
    }

    /** Waits until the agent in pid has made its region and left STARTING. */
    void awaitDormant(int pid, long waitNs) {
        Path path = directory.pathFor(pid);
        long deadline = System.nanoTime() + waitNs;
        String last = "it created no region " + path;
        while (System.nanoTime() - deadline < 0) {
            if (!ProcessTree.isAlive(pid)) {
                throw new InjectionException("pid " + pid + " exited right after the agent was loaded into it");
            }
            if (Files.exists(path)) {
                try (Region r = Region.open(path, uid, false)) {
                    AgentState st = r.state();
                    if (st == AgentState.FAILED) {
                        throw new InjectionException("the agent loaded into pid " + pid + " FAILED: " + r.reason());
                    }
                    if (st != AgentState.STARTING) {
                        return;
                    }
                    last = "its region is still STARTING";
                } catch (RegionNotReadyException e) {
                    last = e.getMessage();
                } catch (RegionException e) {
                    throw new InjectionException("the agent was loaded into pid " + pid + " but its region is "
                            + "unusable: " + e.getMessage(), e);
                }
            }
            sleep();
        }
        throw new InjectionException("the agent was loaded into pid " + pid + " but did not become ready within "
                + TimeUnit.NANOSECONDS.toSeconds(waitNs) + " s (" + last + "); is " + directory.dir()
                + " writable for that process?");
    }

    private static String describe(int pid) {
        String cmd = ProcessTree.commandLine(pid);
        return cmd.length() > 80 ? cmd.substring(0, 77) + "..." : cmd.isEmpty() ? "?" : cmd;
    }

    /** The short command line of pid, for prompts. */
    public static String commandOf(int pid) {
        return describe(pid);
    }

    private static void sleep() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InjectionException("interrupted while waiting for the agent");
        }
    }
}
