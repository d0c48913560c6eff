package dev.vprof.engine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code --torch-traces DIR}: the PyTorch profiler traces vLLM writes into its
 * {@code torch_profiler_dir} on {@code /stop_profile}, one per worker, found among the files of
 * the folder: those that appeared (or changed) since the capture began.
 *
 * <p>{@link #snapshot} notes what the folder holds as the capture begins (it may not exist yet:
 * PyTorch's trace handler creates it on its first write). After the capture stops,
 * {@link #await} waits, bounded by the timeout and with a progress line every few seconds,
 * until at least one new trace is there and no trace file has appeared or changed for the
 * settle time (a worker writes its file in one go, but the workers do not finish together, and
 * a large trace takes vLLM minutes). A {@code .json} file must also end with its closing brace.
 *
 * <p>What it cannot use is named, one sentence each: the folder stayed empty; it held only
 * traces from another run (present and unchanged since the capture began, or written before it,
 * as a copy that keeps its time does); the wait ran out while a file was still being written.
 */
final class TorchTraceFolder {
    /** No trace file appeared or changed for this long: vLLM is done writing. */
    static final Duration SETTLE = Duration.ofSeconds(2);
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long PROGRESS_EVERY_NS = TimeUnit.SECONDS.toNanos(5);
    /** File times are coarse on some file systems; a file this much older than the start still counts as new. */
    private static final long MTIME_SLACK_NS = TimeUnit.SECONDS.toNanos(1);

    private final Path dir;
    private final Duration timeout;
    private final Duration settle;
    private Map<Path, State> before = Map.of();
    private long startEpochNs;

    private record State(long size, long mtimeNs) {}

    TorchTraceFolder(Path dir, Duration timeout, Duration settle) {
        this.dir = dir;
        this.timeout = timeout;
        this.settle = settle;
    }

    TorchTraceFolder(CapturePlan.TorchTraces t) {
        this(t.dir(), t.timeout(), SETTLE);
    }

    Path dir() {
        return dir;
    }

    /** Whether a file name is a PyTorch profiler trace: {@code .json}, {@code .json.gz}, {@code *.pt.trace.json[.gz]}. */
    static boolean isTraceName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return !n.startsWith(".") && (n.endsWith(".json") || n.endsWith(".json.gz"));
    }

    /** The capture begins at {@code startEpochNs}: what the folder holds now is not this capture's. */
    void snapshot(long startEpochNs) {
        this.startEpochNs = startEpochNs;
        this.before = list();
    }

    /**
     * After the capture stopped: the new traces, in name order, once they are complete; a
     * {@link CaptureException} that names why there are none.
     */
    List<Path> await(PrintWriter log) {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        long nextProgress = started + PROGRESS_EVERY_NS;
        Map<Path, State> seen = new HashMap<>();
        long lastChange = started;
        log.println("vprof: --torch-traces: waiting up to " + human(timeout) + " for the traces vLLM writes into " + dir);
        log.flush();
        while (true) {
            long now = System.nanoTime();
            Map<Path, State> fresh = fresh(list());
            if (!fresh.equals(seen)) {
                seen = fresh;
                lastChange = now;
            }
            if (!seen.isEmpty() && now - lastChange >= settle.toNanos() && allComplete(seen.keySet())) {
                return List.copyOf(new TreeMap<>(seen).keySet());
            }
            if (now - deadline >= 0) {
                throw new CaptureException(timedOut(seen));
            }
            if (now - nextProgress >= 0) {
                long bytes = seen.values().stream().mapToLong(State::size).sum();
                log.printf(Locale.ROOT, "vprof: --torch-traces: %d new trace file%s (%.1f MB) in %s so far, %d s of %s%n",
                        seen.size(), seen.size() == 1 ? "" : "s", bytes / 1e6, dir,
                        TimeUnit.NANOSECONDS.toSeconds(now - started), human(timeout));
                log.flush();
                nextProgress = now + PROGRESS_EVERY_NS;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(POLL_NS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CaptureException("--torch-traces: interrupted while waiting for the traces in " + dir);
            }
        }
    }

    /** The files that are this capture's: not there at the start (or changed since), and written after it began. */
    private Map<Path, State> fresh(Map<Path, State> now) {
        Map<Path, State> out = new HashMap<>();
        for (Map.Entry<Path, State> e : now.entrySet()) {
            State was = before.get(e.getKey());
            if (e.getValue().equals(was)) {
                continue;
            }
            if (e.getValue().mtimeNs() < startEpochNs - MTIME_SLACK_NS) {
                continue; // copied in with its old time: another run's
            }
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }

    private String timedOut(Map<Path, State> seen) {
        if (!seen.isEmpty()) {
            Path growing = null;
            for (Path p : new TreeMap<>(seen).keySet()) {
                if (!complete(p)) {
                    growing = p;
                    break;
                }
            }
            Path named = growing != null ? growing : new TreeMap<>(seen).lastKey();
            return String.format(Locale.ROOT, "--torch-traces: vLLM was still writing %s (%.1f MB so far) when the %s "
                    + "wait ran out; give it longer with --torch-traces-timeout (large traces take minutes), or read "
                    + "the traces later with vprof report %s", named.getFileName(), seen.get(named).size() / 1e6,
                    human(timeout), dir);
        }
        Map<Path, State> all = list();
        if (all.isEmpty()) {
            return "--torch-traces: " + dir + " stayed empty for " + human(timeout) + " after the capture; start vLLM "
                    + "with --profiler-config '{\"profiler\":\"torch\",\"torch_profiler_dir\":\"" + dir + "\"}' (the "
                    + "same folder as the server sees it) and let --trigger or vllm bench serve --profile start it";
        }
        long newest = all.values().stream().mapToLong(State::mtimeNs).max().orElse(0);
        return "--torch-traces: " + dir + " holds only " + all.size() + " trace file" + (all.size() == 1 ? "" : "s")
                + " from another run (the newest written " + Instant.ofEpochSecond(0, newest) + ", before this capture "
                + "began at " + Instant.ofEpochSecond(0, startEpochNs) + ", or unchanged since); vLLM wrote none "
                + "during this one: is it the server's torch_profiler_dir, and does --trigger reach that server?";
    }

    private static boolean allComplete(Iterable<Path> files) {
        for (Path p : files) {
            if (!complete(p)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A {@code .json} trace ends with its closing brace (PyTorch writes it last); a gzip file is
     * taken as complete once its size settles (its end is checked when it is read).
     */
    static boolean complete(Path p) {
        if (!p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json")) {
            return true;
        }
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "r")) {
            long len = f.length();
            for (long at = len - 1; at >= 0 && at >= len - 4096; at--) {
                f.seek(at);
                int b = f.read();
                if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
                    continue;
                }
                return b == '}';
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The trace files in the folder now, with their sizes and times; empty when the folder does not exist. */
    private Map<Path, State> list() {
        Map<Path, State> out = new HashMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (!isTraceName(p.getFileName().toString())) {
                    continue;
                }
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    if (a.isRegularFile()) {
                        Instant m = a.lastModifiedTime().toInstant();
                        out.put(p, new State(a.size(), m.getEpochSecond() * 1_000_000_000L + m.getNano()));
                    }
                } catch (IOException gone) {
                    // removed or renamed between the listing and the look: the next poll sees what is there
                }
            }
        } catch (NoSuchFileException notYet) {
            return out;
        } catch (IOException e) {
            throw new CaptureException("--torch-traces: cannot list " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        if (s >= 60 && s % 60 == 0) {
            return (s / 60) + "m";
        }
        if (s >= 1) {
            return s + "s";
        }
        return d.toMillis() + "ms";
    }

    /** The new files, for a message: their names. */
    static List<String> names(List<Path> files) {
        List<String> out = new ArrayList<>();
        for (Path p : files) {
            out.add(p.getFileName().toString());
        }
        return out;
    }
}
