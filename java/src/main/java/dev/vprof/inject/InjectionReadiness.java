package dev.vprof.inject;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether {@code vprof attach --inject} can work on this machine, from the facts the kernel
 * checks before it lets one process ptrace another (native/src/inject/access.c): the Yama
 * {@code ptrace_scope}, CAP_SYS_PTRACE, and the seccomp mode of vprof itself. For {@code vprof
 * doctor}; the injector's own {@code --check} gives the final answer for a given target.
 */
public final class InjectionReadiness {
    private static final int CAP_SYS_PTRACE = 19;

    /**
     * @param possible  false when some blocker certainly stops every injection here
     * @param summary   one line: what injection can reach here
     * @param blockers  each problem with its remedy
     */
    public record Verdict(boolean possible, String summary, List<String> blockers) {}

    private InjectionReadiness() {}

    /**
     * @param yamaScope  the content of /proc/sys/kernel/yama/ptrace_scope, or null without Yama
     * @param selfStatus the content of /proc/self/status
     * @param injectorPresent whether the bundled vprof-inject exists
     */
    public static Verdict assess(String yamaScope, String selfStatus, boolean injectorPresent) {
        boolean cap = hasCapSysPtrace(selfStatus);
        int seccomp = (int) statusField(selfStatus, "Seccomp:", 10, 0);
        List<String> blockers = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean possible = true;
        if (!injectorPresent) {
            possible = false;
            blockers.add("vprof-inject is missing from this build: rebuild vprof (mvn -B package)");
        }
        String scope = yamaScope == null ? null : yamaScope.strip();
        String yamaFix = "`echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope`, or run vprof with sudo";
        if (scope == null || scope.equals("0")) {
            notes.add(scope == null ? "no Yama" : "ptrace_scope 0");
        } else if (scope.equals("1") || scope.equals("2")) {
            if (cap) {
                notes.add("ptrace_scope " + scope + " but CAP_SYS_PTRACE");
            } else {
                possible = false;
                blockers.add("Yama ptrace_scope is " + scope + (scope.equals("1")
                        ? " (only a parent may trace its child, and vprof is not the target's parent)"
                        : " (only CAP_SYS_PTRACE may trace)") + ": " + yamaFix);
            }
        } else {
            possible = false;
            blockers.add("Yama ptrace_scope is " + scope + ": ptrace is disabled until reboot; restart programs "
                    + "with `vprof launch` instead");
        }
        notes.add(cap ? "CAP_SYS_PTRACE: any user's process" : "no CAP_SYS_PTRACE: only processes of your own user");
        if (seccomp == 2) {
            notes.add("a seccomp filter is active");
            blockers.add("vprof runs under a seccomp filter (a container?): if it forbids ptrace, injection fails "
                    + "with `ptrace is forbidden`; run the container with --cap-add=SYS_PTRACE or a seccomp profile "
                    + "that allows ptrace");
        } else if (seccomp == 1) {
            possible = false;
            blockers.add("vprof runs in strict seccomp mode, which forbids ptrace; run it outside that sandbox");
        }
        String summary = (possible ? "possible" : "not possible") + " (" + String.join(", ", notes) + ")";
        return new Verdict(possible, summary, blockers);
    }

    /** CAP_SYS_PTRACE in the CapEff line of a /proc/PID/status text. */
    public static boolean hasCapSysPtrace(String status) {
        return ((statusField(status, "CapEff:", 16, 0) >>> CAP_SYS_PTRACE) & 1) != 0;
    }

    private static long statusField(String status, String key, int radix, long fallback) {
        for (String line : status.split("\n")) {
            if (line.startsWith(key)) {
                try {
                    return Long.parseUnsignedLong(line.substring(key.length()).strip(), radix);
                } catch (NumberFormatException e) {
                    return fallback;
                }
            }
        }
        return fallback;
    }
}
