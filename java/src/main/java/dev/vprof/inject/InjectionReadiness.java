package dev.vprof.inject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether {@code vprof attach --inject} can work on this machine, from the facts the kernel
 * checks before it lets one process ptrace another (native/src/inject/access.c): the Yama
 * {@code ptrace_scope} ({@link PtraceScope}), CAP_SYS_PTRACE, and the seccomp mode of vprof itself.
 * For {@code vprof doctor} ({@link #probe}); the injector's own {@code --check} gives the final
 * answer for a given target.
 */
public final class InjectionReadiness {
    private static final int CAP_SYS_PTRACE = 19;

    /**
     * Whether injection can reach here, and what stops it.
     *
     * @param possible  false when some blocker certainly stops every injection here
     * @param summary   one line: what injection can reach here
     * @param blockers  each problem with its remedy
     */
    public record Assessment(boolean possible, String summary, List<String> blockers) {}

    private InjectionReadiness() {}

    /**
     * This machine and this vprof: the Yama scope, {@code /proc/self/status}, and, where nothing
     * certainly blocks, the injector's own probe (ptrace of a child of its own tells a seccomp or
     * LSM ban apart from a filter that allows ptrace).
     *
     * @param injector the bundled vprof-inject, or null when this build lacks it
     */
    public static Assessment probe(Path injector) {
        String status;
        try {
            status = Files.readString(Path.of("/proc/self/status"));
        } catch (IOException e) {
            status = "";
        }
        Assessment v = assess(PtraceScope.read(), status, injector != null);
        List<String> blockers = new ArrayList<>(v.blockers());
        boolean possible = v.possible();
        if (injector != null && possible) {
            int self = (int) ProcessHandle.current().pid();
            try {
                Injector.Result r = new Injector(injector).check(self);
                if (r.exit() == InjectorExit.SECCOMP) {
                    possible = false;
                    blockers.clear();
                    blockers.add(r.exit().explain(self, "", r.detail()));
                } else if (r.exitCode() == 0) {
                    blockers.removeIf(b -> b.contains("seccomp filter")); // the probe shows ptrace works
                }
            } catch (IOException e) {
                blockers.add("cannot run " + injector + ": " + e.getMessage());
            }
        }
        String summary = possible ? v.summary() : v.summary().replaceFirst("^possible", "not possible");
        return new Assessment(possible, summary, List.copyOf(blockers));
    }

    /**
     * Whether injection can reach here, from these settings.
     *
     * @param scope      the Yama setting ({@link PtraceScope#read()})
     * @param selfStatus the content of /proc/self/status
     * @param injectorPresent whether the bundled vprof-inject exists
     */
    public static Assessment assess(PtraceScope scope, String selfStatus, boolean injectorPresent) {
        boolean cap = hasCapSysPtrace(selfStatus);
        int seccomp = (int) statusField(selfStatus, "Seccomp:", 10, 0);
        List<String> blockers = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean possible = true;
        if (!injectorPresent) {
            possible = false;
            blockers.add("vprof-inject is missing from this build: rebuild vprof (mvn -B package)");
        }
        if (scope.classic()) {
            notes.add(scope.yama() ? "ptrace_scope 0" : "no Yama");
        } else if (scope.liftedByCapability()) {
            if (cap) {
                notes.add("ptrace_scope " + scope.value() + " but CAP_SYS_PTRACE");
            } else {
                possible = false;
                blockers.add("Yama ptrace_scope is " + scope.describe()
                        + (scope.value().equals("1") ? ", and vprof is not the target's parent" : "")
                        + ": " + PtraceScope.REMEDY);
            }
        } else {
            possible = false;
            blockers.add("Yama ptrace_scope is " + scope.describe() + ": restart programs with `vprof launch` instead");
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
        return new Assessment(possible, summary, blockers);
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
