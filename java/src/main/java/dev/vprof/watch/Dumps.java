package dev.vprof.watch;

import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;

/**
 * The triggers' one door: every trigger (a condition, SIGUSR1, {@code vprof dump}, a POST, a
 * Prometheus alert) asks here; at most one dump is taken per {@code minInterval}, the others are
 * refused and counted; each dump covers {@code before} the trigger and {@code after} it. A worker
 * thread waits for the window to pass, has the open segment closed, writes the dump from the
 * segments that cover it ({@link DumpFile}) with its verdict and page, and says so in one line.
 * The segments of a pending window are pinned, so the bounds of the window never take them.
 *
 * <p>When the watch ends (the target exited, Ctrl-C) a pending dump is written at once from what
 * was recorded up to then.
 */
final class Dumps implements AutoCloseable {
    /** What asked for a dump: a bounded label set for the exposition. */
    enum Trigger {
        CONDITION, SIGNAL, COMMAND, HTTP, ALERT;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** An accepted request. */
    record Request(int id, Trigger trigger, String what, long atEpochNs, long fromEpochNs, long toEpochNs, Path file,
                   CompletableFuture<DumpFile.Made> done) {}

    /** What a request got: the dump to come, or a refusal with its sentence. */
    sealed interface Outcome permits Accepted, Refused {}

    record Accepted(Request request) implements Outcome {}

    /** @param retryInSeconds when the next dump can be taken; NaN when never (the watch ended) */
    record Refused(String why, double retryInSeconds) implements Outcome {}

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
            .withZone(ZoneId.systemDefault());

    private final Path dir;
    private final Segments segments;
    private final Duration before;
    private final Duration after;
    private final long minIntervalNs;
    private final List<String> commandLine;
    private final PrintWriter log;
    private final LongConsumer holdArmed;
    private final BiConsumer<Request, DumpFile.Made> taken;
    private final Deque<Request> pending = new ArrayDeque<>();
    private final Map<Trigger, Long> takenBy = new EnumMap<>(Trigger.class);
    private final Map<Trigger, Long> refusedBy = new EnumMap<>(Trigger.class);
    private final List<DumpFile.Made> made = new ArrayList<>();
    private final Thread worker;
    private long lastAcceptedNanos;
    private boolean anyAccepted;
    private int nextId = 1;
    private boolean closing;
    private boolean ended;
    private long failed;

    /**
     * @param holdArmed told the System.nanoTime() until which a duty cycle must stay armed
     * @param taken     each dump written, on the worker thread
     */
    Dumps(Path dir, Segments segments, Duration before, Duration after, Duration minInterval, List<String> commandLine,
          PrintWriter log, LongConsumer holdArmed, BiConsumer<Request, DumpFile.Made> taken) {
        this.dir = dir;
        this.segments = segments;
        this.before = before;
        this.after = after;
        this.minIntervalNs = minInterval.toNanos();
        this.commandLine = List.copyOf(commandLine);
        this.log = log;
        this.holdArmed = holdArmed;
        this.taken = taken;
        this.worker = Thread.ofPlatform().daemon().name("vprof-watch-dumps").unstarted(this::work);
        worker.start();
    }

    /** A trigger asks for a dump; safe from any thread, never blocks. */
    synchronized Outcome request(Trigger trigger, String what) {
        if (closing) {
            refusedBy.merge(trigger, 1L, Long::sum);
            return new Refused("the watch is ending", Double.NaN);
        }
        long now = System.nanoTime();
        if (anyAccepted && now - lastAcceptedNanos < minIntervalNs) {
            refusedBy.merge(trigger, 1L, Long::sum);
            double left = (minIntervalNs - (now - lastAcceptedNanos)) / 1e9;
            return new Refused(String.format(Locale.ROOT, "a dump was taken %.1f s ago and --min-interval is %s; "
                    + "the next can be taken in %.1f s", (now - lastAcceptedNanos) / 1e9,
                    Sizes.seconds(minIntervalNs / 1e9), left), left);
        }
        anyAccepted = true;
        lastAcceptedNanos = now;
        long at = Posix.realtimeNanos();
        int id = nextId++;
        Path file = dir.resolve(String.format(Locale.ROOT, "dump-%d-%s.vprof", id, STAMP.format(Instant.ofEpochSecond(0, at))));
        Request r = new Request(id, trigger, what, at, at - before.toNanos(), at + after.toNanos(), file,
                new CompletableFuture<>());
        takenBy.merge(trigger, 1L, Long::sum);
        pending.addLast(r);
        holdArmed.accept(now + after.toNanos());
        log.println("vprof watch: dump " + id + " asked by " + trigger.label() + " (" + what + "): it covers "
                + Sizes.seconds(before.toNanos() / 1e9) + " before and " + Sizes.seconds(after.toNanos() / 1e9)
                + " after; writing " + file);
        log.flush();
        notifyAll();
        return new Accepted(r);
    }

    /** A segment was closed: a waiting dump may be complete now. */
    synchronized void segmentClosed() {
        notifyAll();
    }

    /** Dumps taken (asked and accepted) and refused, by trigger; dumps that failed to be written. */
    synchronized Map<Trigger, Long> takenByTrigger() {
        return new LinkedHashMap<>(takenBy);
    }

    synchronized Map<Trigger, Long> refusedByTrigger() {
        return new LinkedHashMap<>(refusedBy);
    }

    synchronized long failed() {
        return failed;
    }

    synchronized List<DumpFile.Made> made() {
        return List.copyOf(made);
    }

    /**
     * The watch has ended: its last segment is closed. Pending dumps are written from what there is,
     * at once; returns when they are.
     */
    void finish() throws InterruptedException {
        synchronized (this) {
            closing = true;
            ended = true;
            notifyAll();
        }
        worker.join();
    }

    @Override
    public void close() {
        synchronized (this) {
            closing = true;
            ended = true;
            notifyAll();
        }
    }

    private void work() {
        while (true) {
            Request r;
            long pin;
            synchronized (this) {
                while (pending.isEmpty() && !ended) {
                    waitQuietly(0);
                }
                if (pending.isEmpty()) {
                    return;
                }
                r = pending.peekFirst();
            }
            pin = segments.pin(r.fromEpochNs());
            try {
                awaitWindow(r);
                List<Segment> covering = new ArrayList<>();
                for (Segment s : segments.closedSegments()) {
                    if (s.overlaps(r.fromEpochNs(), r.toEpochNs())) {
                        covering.add(s);
                    }
                }
                write(r, covering);
            } finally {
                segments.unpin(pin);
                synchronized (this) {
                    pending.removeFirst();
                }
            }
        }
    }

    /** Until the window's end has passed and a segment closed after it (or the watch ended). */
    private void awaitWindow(Request r) {
        boolean asked = false;
        synchronized (this) {
            while (!ended) {
                long now = Posix.realtimeNanos();
                if (now >= r.toEpochNs()) {
                    if (!asked) {
                        segments.requestCut();
                        asked = true;
                    }
                    List<Segment> closed = segments.closedSegments();
                    if (!closed.isEmpty() && closed.getLast().endEpochNs() >= r.toEpochNs()) {
                        return;
                    }
                    waitQuietly(100);
                } else {
                    waitQuietly(Math.max(1, (r.toEpochNs() - now) / 1_000_000));
                }
            }
        }
    }

    private void write(Request r, List<Segment> covering) {
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("watch-dump", Integer.toString(r.id()));
        extra.put("watch-trigger", r.trigger().label());
        extra.put("watch-fired", r.what());
        extra.put("watch-trigger-epoch-ns", Long.toString(r.atEpochNs()));
        try {
            if (covering.isEmpty()) {
                throw new IOException("no segment covers its window (the watch ended before any was written)");
            }
            DumpFile.Made m = DumpFile.write(covering, r.file(), commandLine, extra);
            synchronized (this) {
                made.add(m);
            }
            log.println("vprof watch: dump " + r.id() + " (" + r.trigger().label() + ": " + r.what() + "): " + m.file()
                    + ", " + Sizes.seconds((m.endEpochNs() - m.startEpochNs()) / 1e9) + " in " + m.segments()
                    + " segment" + (m.segments() == 1 ? "" : "s") + ", " + m.kernels() + " kernels, " + m.requests()
                    + " requests, verdict " + (m.verdictTitle() == null ? "none (no vLLM metrics)" : m.verdictTitle())
                    + (m.missing() > 0 ? ", " + m.missing() + " segments lost to a full disk" : "")
                    + "; page " + m.page());
            log.flush();
            taken.accept(r, m);
            r.done().complete(m);
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                failed++;
            }
            log.println("vprof watch: error: dump " + r.id() + " could not be written to " + r.file() + ": "
                    + e.getMessage() + "; the recording goes on");
            log.flush();
            r.done().completeExceptionally(e);
        }
    }

    // Each caller waits inside a loop that re-tests its own condition (pending dumps, the cut, the deadline).
    @SuppressWarnings("WaitNotInLoop")
    private void waitQuietly(long millis) {
        try {
            wait(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended = true;
        }
    }
}
