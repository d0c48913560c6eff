package dev.vprof.inject;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the bundled {@code vprof-inject} (native/src/inject): the ptrace injector that makes a
 * running process dlopen a library on a thread the injection creates (strategy at the top of
 * inject_main.c).
 */
public final class Injector {
    /** How long the injector looks for a safe point before it gives up (exit 10 or 11), unless told otherwise. */
    public static final Duration DEFAULT_SAFE_POINT_WAIT = Duration.ofSeconds(5);
    /** The longest wait vprof-inject accepts (its --timeout-ms). */
    public static final Duration MAX_SAFE_POINT_WAIT = Duration.ofHours(1);
    /**
     * How long we wait for the injector beyond its own safe-point wait: the library's constructors
     * in the target. Past it the injector is asked to stop (it holds SIGTERM until the thread it
     * borrowed is restored, so stopping it never leaves the target mid-call).
     */
    private static final long LOAD_WAIT_MS = 30_000;

    /** What one run of the injector said. */
    public record Result(int exitCode, String stdout, String stderr) {
        public InjectorExit exit() {
            return InjectorExit.of(exitCode);
        }

        /**
         * For an injection: the borrowed thread and what showed it safe, from the injector's
         * "injected LIB into PID (borrowed thread T, safe by ...)" line; empty when absent.
         */
        public String howInjected() {
            String out = stdout.strip();
            int open = out.indexOf(" (borrowed thread ");
            return open < 0 || !out.endsWith(")") ? "" : out.substring(open + 2, out.length() - 1);
        }

        /** The injector's messages without its "vprof-inject: " prefixes, one line each. */
        public String detail() {
            List<String> lines = new ArrayList<>();
            for (String l : stderr.strip().split("\n")) {
                String s = l.strip();
                if (s.startsWith("vprof-inject: ")) {
                    s = s.substring("vprof-inject: ".length());
                }
                if (!s.isEmpty()) {
                    lines.add(s);
                }
            }
            return String.join("; ", lines);
        }
    }

    private final Path executable;

    public Injector(Path executable) {
        this.executable = executable;
    }

    public Path executable() {
        return executable;
    }

    /** The pids in {@code root}'s tree that have libcuda (or the CUPTI test double's stand-in) mapped. */
    public List<Integer> listCuda(int root) throws IOException {
        Result r = run(List.of("--pid", Integer.toString(root), "--list-cuda"), LOAD_WAIT_MS);
        if (r.exit() == InjectorExit.NO_PROCESS) {
            return List.of();
        }
        if (r.exitCode() != 0) {
            throw new IOException("vprof-inject --list-cuda failed (exit " + r.exitCode() + "): " + r.detail());
        }
        List<Integer> pids = new ArrayList<>();
        for (String line : r.stdout().split("\n")) {
            String s = line.strip();
            if (!s.isEmpty()) {
                pids.add(Integer.parseInt(s));
            }
        }
        return pids;
    }

    /** Loads {@code library} (an absolute path) into {@code pid}, waiting the default time for a safe point. */
    public Result inject(int pid, Path library) throws IOException {
        return inject(pid, library, DEFAULT_SAFE_POINT_WAIT);
    }

    /** Loads {@code library} into {@code pid}, waiting at most {@code wait} for a thread at a safe point. */
    public Result inject(int pid, Path library, Duration wait) throws IOException {
        long ms = Math.clamp(wait.toMillis(), 1, MAX_SAFE_POINT_WAIT.toMillis());
        return run(List.of("--pid", Integer.toString(pid), "--lib", library.toAbsolutePath().toString(),
                "--timeout-ms", Long.toString(ms)), ms + LOAD_WAIT_MS);
    }

    /** Whether injecting into {@code pid} is possible here (exit 0), and why not. */
    public Result check(int pid) throws IOException {
        return run(List.of("--pid", Integer.toString(pid), "--check"), LOAD_WAIT_MS);
    }

    private Result run(List<String> args, long waitMs) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable.toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        CompletableFuture<String> out = readAsync(p.getInputStream());
        CompletableFuture<String> err = readAsync(p.getErrorStream());
        try {
            if (!p.waitFor(waitMs, TimeUnit.MILLISECONDS)) {
                p.destroy();
                p.waitFor(10, TimeUnit.SECONDS);
                return new Result(InjectorExit.OTHER.code(), "", "vprof-inject did not finish within "
                        + waitMs / 1000 + " s (a library constructor in the target may be stuck)");
            }
            return new Result(p.exitValue(), out.get(5, TimeUnit.SECONDS), err.get(5, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroy();
            throw new IOException("interrupted while vprof-inject ran", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot read the output of vprof-inject: " + e.getMessage(), e);
        }
    }

    private static CompletableFuture<String> readAsync(InputStream in) {
        CompletableFuture<String> f = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (in) {
                f.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }
}
