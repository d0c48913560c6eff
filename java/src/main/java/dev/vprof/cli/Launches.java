package dev.vprof.cli;

import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcFs;
import dev.vprof.discovery.ProcessTree;
import dev.vprof.discovery.RegionFile;
import dev.vprof.engine.AgentEnvironment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The launches whose agents an attach's tree holds. A launch is one start of a program with the
 * agent: the processes a vprof front end started ({@code vprof launch}, {@code run}, the demo)
 * carry the same {@link AgentEnvironment#LAUNCH_VARIABLE}; a program started by hand with
 * CUDA_INJECTION64_PATH is one launch from the topmost process of the tree that has the variable
 * down (its workers inherit it); agents injected into running processes ({@code attach --inject})
 * carry neither, and those under one parent (a server's workers) are one launch. Two launches in one tree ({@code attach --pid 1}, a shell that
 * started two servers) are most likely not all the person meant to capture.
 */
final class Launches {
    private static final String INJECTION_VARIABLE = "CUDA_INJECTION64_PATH";

    /** One launch: its topmost process in the tree and the agents' pids. */
    record Launch(int root, String command, List<Integer> agents) {
        String describe() {
            String cmd = command == null || command.isBlank() ? "?" : command.strip();
            if (cmd.length() > 60) {
                cmd = cmd.substring(0, 57) + "...";
            }
            return "pid " + root + " (" + cmd + ")" + (agents.size() == 1 && agents.getFirst() == root ? ""
                    : " with agent" + (agents.size() == 1 ? "" : "s") + " in pid" + (agents.size() == 1 ? " " : "s ")
                    + agents.stream().map(String::valueOf).collect(Collectors.joining(", ")));
        }
    }

    private Launches() {}

    /** The launches of the agents in {@code root}'s tree, in the order their agents are found. */
    static List<Launch> inTree(int root, AgentDirectory directory) {
        ProcFs proc = directory.proc();
        if (!proc.isAlive(root)) {
            return List.of();
        }
        ProcessTree tree = proc.tree();
        Set<Integer> inTree = tree.descendantsOf(root);
        Map<String, List<Integer>> agentsByKey = new LinkedHashMap<>();
        Map<String, Integer> rootByKey = new LinkedHashMap<>();
        for (RegionFile f : directory.within(inTree)) {
            int pid = f.pid();
            String launch = proc.environment(pid, AgentEnvironment.LAUNCH_VARIABLE);
            int top;
            String key;
            if (launch != null) {
                top = topmost(proc, tree, inTree, pid, AgentEnvironment.LAUNCH_VARIABLE, launch);
                key = "launch " + launch;
            } else if (proc.environment(pid, INJECTION_VARIABLE) != null) {
                top = topmost(proc, tree, inTree, pid, INJECTION_VARIABLE, null);
                key = "tree " + top;
            } else {
                // No variable at all: the agent was injected into the running process (attach
                // --inject). A server's workers share their parent, so that parent is the launch.
                int parent = tree.parent(pid);
                top = parent > 0 && inTree.contains(parent) ? parent : pid;
                key = "injected under " + top;
            }
            agentsByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(pid);
            rootByKey.merge(key, top, (a, b) -> inTree.contains(a) && isAbove(tree, a, b) ? a : b);
        }
        List<Launch> out = new ArrayList<>();
        agentsByKey.forEach((key, agents) -> {
            int top = rootByKey.get(key);
            out.add(new Launch(top, proc.commandLine(top), List.copyOf(agents)));
        });
        return out;
    }

    /**
     * The highest ancestor of {@code pid} inside the tree whose environment has {@code name}
     * (equal to {@code value} when not null), the chain unbroken from {@code pid} up.
     */
    private static int topmost(ProcFs proc, ProcessTree tree, Set<Integer> inTree, int pid, String name,
                               String value) {
        int top = pid;
        int p = tree.parent(pid);
        for (int depth = 0; depth < 64 && p > 0 && inTree.contains(p); depth++) {
            String v = proc.environment(p, name);
            if (v == null || (value != null && !value.equals(v))) {
                break;
            }
            top = p;
            p = tree.parent(p);
        }
        return top;
    }

    /** Whether {@code a} is {@code b} or one of its ancestors. */
    private static boolean isAbove(ProcessTree tree, int a, int b) {
        int p = b;
        for (int depth = 0; depth < 64 && p > 0; depth++) {
            if (p == a) {
                return true;
            }
            p = tree.parent(p);
        }
        return false;
    }

    /** The sentence for a tree of several launches, without a terminal to ask. */
    static String refusal(int root, List<Launch> launches) {
        return "the tree of pid " + root + " holds the agents of " + launches.size() + " separate launches: "
                + launches.stream().map(Launch::describe).collect(Collectors.joining("; "))
                + "; attach to one of them with --pid, or pass --all to capture them all";
    }

    /** The question asked on a terminal. */
    static String question(int root, List<Launch> launches) {
        StringBuilder q = new StringBuilder("the tree of pid " + root + " holds the agents of " + launches.size()
                + " separate launches (other people's servers, perhaps):\n");
        for (Launch l : launches) {
            q.append("  ").append(l.describe()).append('\n');
        }
        return q.append("capture all ").append(launches.size()).append(" (--all skips this question)? [y/N] ")
                .toString();
    }
}
