package dev.vprof.inject;

import java.time.Duration;

/**
 * The exit codes of {@code vprof-inject} (native/src/inject/inject.h) and, for each, the
 * sentence vprof shows: what happened and what to do about it.
 */
public enum InjectorExit {
    INJECTED(0),
    OTHER(1),
    USAGE(2),
    NO_PROCESS(3),
    PERMISSION(4),
    YAMA(5),
    SECCOMP(6),
    ALREADY_TRACED(7),
    ALREADY_LOADED(8),
    DLOPEN_FAILED(9),
    /** No thread reached a safe point within the wait; they were moving (busy in the allocator or loader). */
    NO_SAFE_POINT(10),
    /** No thread reached a safe point, and none moved while the injector looked: a longer wait will not help. */
    STUCK(11);

    private final int code;

    InjectorExit(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** A suggestion four times the wait that failed, at least 20 s, in --inject-timeout's syntax. */
    private static String longer(Duration wait) {
        long s = Math.max(20, Math.min(3600, wait.toSeconds() * 4));
        return s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    /** The constant for an exit status; {@link #OTHER} for any code the injector does not define. */
    public static InjectorExit of(int code) {
        for (InjectorExit e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        return OTHER;
    }

    /**
     * One sentence for a person: why the agent could not be loaded into {@code pid}, and the
     * remedy. {@code detail} is the injector's own message (its stderr without the
     * "vprof-inject: " prefix); it is appended where it adds what only the injector knows
     * (the Yama scope, the tracer's pid, dlerror's text).
     */
    public String explain(int pid, String agent, String detail) {
        return explain(pid, agent, detail, Injector.DEFAULT_SAFE_POINT_WAIT);
    }

    /**
     * The same, for an injector that waited {@code wait} for a safe point: the advice for
     * {@link #NO_SAFE_POINT} names a longer {@code --inject-timeout} than that.
     */
    public String explain(int pid, String agent, String detail, Duration wait) {
        String d = detail == null || detail.isBlank() ? "" : " (" + detail.strip() + ")";
        // For a refusal at the safe point the injector's text IS the reason (which thread, where,
        // decided how): it is given once, as the sentence itself, not repeated in parentheses.
        String reason = detail == null || detail.isBlank()
                ? "no thread of pid " + pid + " was at a point where loading a library is safe" : detail.strip();
        String launch = "or restart it under `vprof launch -- CMD`, which loads the agent at start and needs no "
                + "injection";
        return switch (this) {
            case INJECTED -> "loaded the vprof agent into pid " + pid;
            case ALREADY_LOADED -> "pid " + pid + " already has the vprof agent loaded; it is attached, not injected again";
            case NO_PROCESS -> "pid " + pid + " exited before the agent could be loaded into it; check the pid "
                    + "(ps -p " + pid + ") and retry";
            case PERMISSION -> "permission denied to trace pid " + pid + ": run vprof as the user that owns it, "
                    + "or with CAP_SYS_PTRACE (e.g. sudo)" + d;
            case YAMA -> "the Yama ptrace_scope setting forbids tracing pid " + pid + ": " + PtraceScope.REMEDY
                    + "; or restart the program with `vprof launch`" + d;
            case SECCOMP -> "ptrace of pid " + pid + " is forbidden in this environment (seccomp filter or container "
                    + "policy): run the "
                    + "container with --cap-add=SYS_PTRACE or a seccomp profile that allows ptrace, or restart the "
                    + "program with `vprof launch`" + d;
            case ALREADY_TRACED -> "pid " + pid + " is already traced by another tool (a debugger, strace, another "
                    + "profiler) and a process can have only one tracer: detach that tool and retry" + d;
            case DLOPEN_FAILED -> "pid " + pid + " could not load the agent " + agent + ": check that it can read "
                    + "that file and that its C library matches the one vprof was built for" + d;
            case NO_SAFE_POINT -> reason + "; nothing was changed in pid " + pid + ". Its threads were busy in the "
                    + "allocator or the dynamic loader each time: give it longer with --inject-timeout="
                    + longer(wait) + ", " + launch;
            case STUCK -> reason + "; nothing was changed in pid " + pid + ". Its threads did not move while vprof "
                    + "looked (a thread stuck inside the loader or the allocator, or a process held by a debugger), "
                    + "so waiting longer will not help: find what holds it (vprof-inject --pid " + pid
                    + " --explain shows every thread's call chain), " + launch;
            case USAGE -> "vprof-inject refused the arguments vprof gave it for pid " + pid + ", which is a vprof bug: please report "
                    + "it with this message" + d;
            case OTHER -> "loading the agent into pid " + pid + " failed" + (d.isEmpty() ? "; retry with "
                    + "`vprof-inject --pid " + pid + " --lib " + agent + " --verbose` to see why" : d);
        };
    }
}
