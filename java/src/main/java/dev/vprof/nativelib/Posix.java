package dev.vprof.nativelib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The few libc calls the front end needs, as FFM downcalls gathered in one place.
 *
 * <p>Why not {@link System#nanoTime()} for the heartbeat: the agent compares the heartbeat
 * with its own {@code clock_gettime(CLOCK_MONOTONIC)}, and the JDK does not promise that
 * nanoTime is that clock.
 */
public final class Posix {
    private Posix() {}

    /** Linux's clockid for CLOCK_MONOTONIC. */
    private static final int CLOCK_MONOTONIC = 1;
    private static final int CLOCK_REALTIME = 0;
    /** CLOCK_BOOTTIME: CLOCK_MONOTONIC plus the time suspended, Perfetto's trace clock on Linux. */
    private static final int CLOCK_BOOTTIME = 7;

    /* struct timespec { time_t tv_sec; long tv_nsec; } on LP64 Linux */
    private static final StructLayout TIMESPEC = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("tv_sec"),
            ValueLayout.JAVA_LONG.withName("tv_nsec"));

    /** Where a downcall that captures errno leaves it. */
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /*
     * struct sigaction { sighandler_t sa_handler; sigset_t sa_mask; int sa_flags; void (*sa_restorer)(void); }
     * is 152 bytes in glibc on x86-64 and aarch64; only sa_handler, at offset 0 in every Linux libc,
     * is read, and the buffer is larger than any of them.
     */
    private static final long SIGACTION_BYTES = 256;
    /** SIG_IGN as sa_handler holds it: the handler pointer (void (*)(int)) 1. */
    private static final long SIG_IGN = 1;

    /** pidfd_open(2)'s number: 434 in the generic syscall table, which x86-64 and aarch64 both use for it. */
    private static final long SYS_PIDFD_OPEN = 434;
    private static final short POLLIN = 0x1;

    /* struct pollfd { int fd; short events; short revents; } */
    private static final StructLayout POLLFD = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("fd"),
            ValueLayout.JAVA_SHORT.withName("events"),
            ValueLayout.JAVA_SHORT.withName("revents"));

    /*
     * Each call is linked the first time it is used, in a holder class of its own (the JVM runs a
     * class's initializer once, on first use, thread-safely). Every command starts through this
     * class, and most need none of these calls or one: the first downcall a JVM links loads the
     * FFM linker's machinery, about a tenth of a second of CPU, and each further one a few ms
     * (bench/README.md, "One pass"), which a short command paid for all eleven.
     */
    private static MethodHandle link(String function, FunctionDescriptor descriptor, Linker.Option... options) {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().findOrThrow(function), descriptor, options);
        } catch (IllegalCallerException e) {
            throw new NativeAccessException(e);
        }
    }

    private static final class ClockGettime {
        static final MethodHandle HANDLE = link("clock_gettime",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    }

    private static final class Getuid {
        static final MethodHandle HANDLE = link("getuid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
    }

    private static final class Kill {
        static final MethodHandle HANDLE = link("kill",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    }

    private static final class Isatty {
        static final MethodHandle HANDLE = link("isatty", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    }

    private static final class SyscallIntInt {
        // long syscall(long number, ...): here with two int arguments.
        static final MethodHandle HANDLE = link("syscall",
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT),
                Linker.Option.firstVariadicArg(1));
    }

    private static final class Poll {
        static final MethodHandle HANDLE = link("poll",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT));
    }

    private static final class Close {
        static final MethodHandle HANDLE = link("close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    }

    private static final class Open {
        // int open(const char *path, int flags, ...): two arguments, no mode (nothing is created).
        static final MethodHandle HANDLE = link("open",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
                Linker.Option.captureCallState("errno"));
    }

    private static final class Flock {
        static final MethodHandle HANDLE = link("flock",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                Linker.Option.captureCallState("errno"));
    }

    private static final class Sigaction {
        static final MethodHandle HANDLE = link("sigaction",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS));
    }

    private static final class Signal {
        static final MethodHandle HANDLE = link("signal",
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    }

    /** CLOCK_MONOTONIC in nanoseconds: the clock the agent checks heartbeats against. */
    public static long monotonicNanos() {
        return clockNanos(CLOCK_MONOTONIC);
    }

    /** CLOCK_REALTIME in nanoseconds since the Unix epoch. */
    public static long realtimeNanos() {
        return clockNanos(CLOCK_REALTIME);
    }

    /** CLOCK_BOOTTIME in nanoseconds since the host booted. */
    public static long boottimeNanos() {
        return clockNanos(CLOCK_BOOTTIME);
    }

    private static long clockNanos(int clock) {
        // A tiny confined arena per call: the heartbeat runs every few hundred ms, not per record.
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ts = arena.allocate(TIMESPEC);
            int rc = (int) ClockGettime.HANDLE.invokeExact(clock, ts);
            if (rc != 0) {
                throw new IllegalStateException("clock_gettime(" + clock + ") failed");
            }
            return ts.get(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L + ts.get(ValueLayout.JAVA_LONG, 8);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The real user id of this process. */
    public static int getuid() {
        try {
            return (int) Getuid.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** kill(2); returns 0 on success, -1 on failure (no errno: callers only need yes/no). */
    public static int kill(int pid, int signal) {
        try {
            return (int) Kill.HANDLE.invokeExact(pid, signal);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * isatty(3): whether file descriptor {@code fd} is a terminal. The JDK only says whether a
     * console is attached, not whether stderr (fd 2) in particular is one: `vprof ... 2> log` from a
     * terminal still has a console.
     */
    public static boolean isatty(int fd) {
        try {
            return (int) Isatty.HANDLE.invokeExact(fd) == 1;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * pidfd_open(2): a descriptor that becomes readable when {@code pid} exits (Linux 5.3 and
     * later). Returns -1 when the process is gone or the kernel has no pidfd_open.
     */
    public static int pidfdOpen(int pid) {
        try {
            return (int) (long) SyscallIntInt.HANDLE.invokeExact(SYS_PIDFD_OPEN, pid, 0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static final int STDERR_FILENO = 2;

    /**
     * Whether a pidfd says its process has exited (readable); does not wait. A zombie has
     * exited: its pidfd is readable although /proc still lists it.
     */
    public static boolean pidfdExited(int pidfd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(POLLFD);
            p.set(ValueLayout.JAVA_INT, 0, pidfd);
            p.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
            int n = (int) Poll.HANDLE.invokeExact(p, 1L, 0);
            return n > 0 && (p.get(ValueLayout.JAVA_SHORT, 6) & POLLIN) != 0;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** close(2); errors are ignored (the descriptor is ours and closed once). */
    public static void close(int fd) {
        try {
            int ignored = (int) Close.HANDLE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Whether signal {@code sig} is ignored (SIG_IGN): a disposition inherited across exec, as a
     * background job of a non-interactive shell inherits SIGINT's and {@code nohup}'s command
     * SIGHUP's. Read from {@code /proc/self/status}'s {@code SigIgn} mask (proc(5): the process's
     * ignored signals, bit {@code sig - 1}), which every command asks at its start: a file read
     * instead of a downcall to link. Where that line cannot be read, sigaction(2) with no new
     * action reads the same disposition.
     */
    public static boolean signalIgnored(int sig) {
        Long mask = ignoredSignalMask();
        if (mask != null) {
            return (mask >>> (sig - 1) & 1) != 0;
        }
        return signalIgnoredBySigaction(sig);
    }

    /** Whether {@code sig} is ignored, as sigaction(2) says. */
    static boolean signalIgnoredBySigaction(int sig) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment old = arena.allocate(SIGACTION_BYTES, 8);
            int rc = (int) Sigaction.HANDLE.invokeExact(sig, MemorySegment.NULL, old);
            return rc == 0 && old.get(ValueLayout.JAVA_LONG, 0) == SIG_IGN;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code SigIgn} of /proc/self/status (64 signals in 16 hex digits), or null where it cannot be read. */
    static Long ignoredSignalMask() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("SigIgn:")) {
                    return Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16);
                }
            }
            return null;
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    /** Sets signal {@code sig} back to its default action (SIG_DFL, the null handler). */
    public static void defaultSignal(int sig) {
        try {
            MemorySegment ignored = (MemorySegment) Signal.HANDLE.invokeExact(sig, MemorySegment.NULL);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int LOCK_SH = 1;
    private static final int LOCK_EX = 2;
    private static final int LOCK_NB = 4;
    private static final int EWOULDBLOCK = 11;
    private static final int EINTR = 4;

    /** open(2) of an existing file, read-only and close-on-exec; -1 when it cannot be opened. */
    public static int openReadOnly(String path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            return (int) Open.HANDLE.invokeExact(state, arena.allocateFrom(path), O_RDONLY | O_CLOEXEC);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** What {@link #tryFlock} found. */
    public enum Lock { TAKEN, HELD_ELSEWHERE, UNSUPPORTED }

    /**
     * flock(2) without waiting: an exclusive or a shared lock on the open file of {@code fd}. flock
     * locks belong to the open file, not the process, so a second open of the same file in this
     * process conflicts too, and closing another descriptor of the file does not drop them (the
     * JDK's {@code FileLock}, a POSIX record lock, is dropped by any close of the file in the JVM).
     */
    public static Lock tryFlock(int fd, boolean exclusive) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            for (int attempt = 0; attempt < 100; attempt++) {
                int rc = (int) Flock.HANDLE.invokeExact(state, fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB);
                if (rc == 0) {
                    return Lock.TAKEN;
                }
                int errno = (int) ERRNO.get(state, 0L);
                if (errno == EWOULDBLOCK) {
                    return Lock.HELD_ELSEWHERE;
                }
                if (errno != EINTR) {
                    return Lock.UNSUPPORTED;
                }
            }
            return Lock.UNSUPPORTED;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static final int SIGHUP = 1;
    public static final int SIGINT = 2;
    public static final int SIGTERM = 15;
    public static final int SIGKILL = 9;
}
