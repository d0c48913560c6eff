package dev.vprof.replay;

import dev.vprof.capture.ReadStats;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code vprof simulate}'s arguments with {@code --replay TRACE} turned into {@code --replay SCRIPT}:
 * the trace is read here (any source {@code CaptureSources} opens) and its script written to a
 * temporary file that lives until {@link #close}. A file that is a script already is passed on as it
 * is. Without {@code --replay} the arguments are unchanged.
 */
public final class ReplayArguments implements AutoCloseable {
    /** One sentence for the user. */
    public static final class ReplayException extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient ReadStats health;

        ReplayException(String message, Throwable cause) {
            this(message, cause, null);
        }

        ReplayException(String message, Throwable cause, ReadStats health) {
            super(message, cause);
            this.health = health;
        }

        /** How the source was read, when it was read partly and that left nothing to replay; else null. */
        public ReadStats health() {
            return health;
        }
    }

    private final List<String> arguments;
    private final Path temporary;
    private final Thread cleanup;
    private final ReadStats health;

    private ReplayArguments(List<String> arguments, Path temporary, ReadStats health) {
        this.arguments = List.copyOf(arguments);
        this.temporary = temporary;
        this.health = health;
        // a SIGTERM to `vprof simulate` (vprof run stopping its command) still removes the script
        this.cleanup = temporary == null ? null : new Thread(() -> deleteQuietly(temporary));
        if (cleanup != null) {
            Runtime.getRuntime().addShutdownHook(cleanup);
        }
    }

    public List<String> arguments() {
        return arguments;
    }

    /** How the replayed source was read; null when nothing was converted (no --replay, or a script). */
    public ReadStats health() {
        return health;
    }

    /** Rewrites {@code --replay TRACE} (or {@code --replay=TRACE}); says what the script holds on {@code log}. */
    public static ReplayArguments prepare(List<String> args, PrintStream log) throws ReplayException {
        List<String> out = new ArrayList<>(args);
        int at = -1;
        String trace = null;
        for (int i = 0; i < out.size(); i++) {
            String a = out.get(i);
            if (a.equals("--")) {
                break;
            }
            if (a.equals("--replay") && i + 1 < out.size()) {
                at = i + 1;
                trace = out.get(i + 1);
                break;
            }
            if (a.startsWith("--replay=")) {
                out.set(i, "--replay");
                out.add(i + 1, a.substring("--replay=".length()));
                at = i + 1;
                trace = out.get(i + 1);
                break;
            }
        }
        if (trace == null || isScript(Path.of(trace))) {
            return new ReplayArguments(out, null, null); // vprof-simgpu says what is missing or wrong
        }
        Path source = Path.of(trace);
        Path script = null;
        try {
            script = Files.createTempFile("vprof-replay-", ".script");
            ReplayScript.Summary s = ReplayScript.write(source, script);
            log.printf("vprof simulate: replaying %s: %d process%s, %d kernels, %d copies, %d sets%s%n", source,
                    s.processes(), s.processes() == 1 ? "" : "es", s.kernels(), s.memcpys(), s.memsets(), leftOut(s));
            out.set(at, script.toString());
            return new ReplayArguments(out, script, s.health());
        } catch (NoSuchFileException e) {
            deleteQuietly(script);
            throw new ReplayException("cannot replay " + source + ": no such file or folder; give a .vprof, a PyTorch "
                    + "profiler trace or a folder of rank traces", e);
        } catch (ReplayScript.NothingRead e) {
            deleteQuietly(script);
            throw new ReplayException(e.getMessage(), e, e.health());
        } catch (IOException | RuntimeException e) {
            deleteQuietly(script);
            throw new ReplayException("cannot replay " + source + ": " + e.getMessage(), e);
        }
    }

    private static String leftOut(ReplayScript.Summary s) {
        List<String> parts = new ArrayList<>();
        if (s.invalidTimestamps() > 0) {
            parts.add(s.invalidTimestamps() + " with invalid timestamps");
        }
        if (s.unknownCopyKinds() > 0) {
            parts.add(s.unknownCopyKinds() + " copies of an unknown kind");
        }
        if (s.otherDevices() > 0) {
            parts.add(s.otherDevices() + " on devices past " + (ReplayScript.MAX_DEVICES - 1));
        }
        return parts.isEmpty() ? "" : " (left out: " + String.join(", ", parts) + ")";
    }

    static boolean isScript(Path p) {
        if (!Files.isRegularFile(p)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(p)) {
            return Arrays.equals(in.readNBytes(ReplayScript.MAGIC.length), ReplayScript.MAGIC);
        } catch (IOException e) {
            return false;
        }
    }

    private static void deleteQuietly(Path p) {
        if (p == null) {
            return;
        }
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a temporary file; the system's tmp cleaning takes it
        }
    }

    @Override
    public void close() {
        if (temporary != null) {
            deleteQuietly(temporary);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException ignored) {
                // already shutting down: the hook runs
            }
        }
    }
}
