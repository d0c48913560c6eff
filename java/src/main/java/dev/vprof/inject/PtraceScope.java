package dev.vprof.inject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Yama LSM's {@code kernel.yama.ptrace_scope}: the one reader of
 * {@code /proc/sys/kernel/yama/ptrace_scope} and the one wording of its values, used by
 * {@code vprof doctor}'s ptrace line and by the injection checks ({@link InjectionReadiness},
 * {@link InjectorExit#YAMA}).
 *
 * @param value the file's content without surrounding white space, or null where there is no
 *              Yama (the file is missing or unreadable: no restriction beyond the classic one)
 */
public record PtraceScope(String value) {
    /** Where the kernel publishes the setting. */
    public static final Path FILE = Path.of("/proc/sys/kernel/yama/ptrace_scope");

    /** How to lift a scope that stops vprof from tracing, in every message that names one. */
    public static final String REMEDY = "`echo 0 | sudo tee " + FILE + "`, or run vprof with sudo";

    /** No Yama LSM on this machine. */
    public static final PtraceScope NO_YAMA = new PtraceScope(null);

    public PtraceScope {
        value = value == null ? null : value.strip();
    }

    /** This machine's setting. */
    public static PtraceScope read() {
        return read(FILE);
    }

    /** The setting in {@code file}; {@link #NO_YAMA} when it cannot be read. */
    public static PtraceScope read(Path file) {
        try {
            return new PtraceScope(Files.readString(file));
        } catch (IOException e) {
            return NO_YAMA;
        }
    }

    /** Whether a Yama LSM is there at all. */
    public boolean yama() {
        return value != null;
    }

    /**
     * The value and what it means, as vprof says it everywhere: {@code 1 (restricted to
     * descendants: only a parent may trace its child)}; for no Yama, {@code no Yama LSM: no ptrace
     * restriction}.
     */
    public String describe() {
        if (value == null) {
            return "no Yama LSM: no ptrace restriction";
        }
        return value + " (" + switch (value) {
            case "0" -> "classic";
            case "1" -> "restricted to descendants: only a parent may trace its child";
            case "2" -> "admin-only: only CAP_SYS_PTRACE may trace";
            case "3" -> "no attach: ptrace is disabled until reboot";
            default -> "not a value Yama defines; treated as no attach";
        } + ")";
    }

    /** Scope 0 or no Yama: a process may trace any process of its own user. */
    public boolean classic() {
        return value == null || value.equals("0");
    }

    /** Scope 1 or 2: CAP_SYS_PTRACE lifts the restriction (sudo, or the capability in a container). */
    public boolean liftedByCapability() {
        return "1".equals(value) || "2".equals(value);
    }
}
