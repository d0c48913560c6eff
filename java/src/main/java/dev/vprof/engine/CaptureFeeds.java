package dev.vprof.engine;

import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.MetricsCodec;
import dev.vprof.capture.NodeEvidence;
import dev.vprof.capture.SpansCodec;
import dev.vprof.capture.WindowChunk;
import dev.vprof.metrics.MetricsScraper;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.nativelib.Posix;
import dev.vprof.otlp.ExportRequest;
import dev.vprof.otlp.OtlpReceiverConfig;
import dev.vprof.otlp.OtlpReceiver;
import dev.vprof.otlp.ReceiverStats;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanImport;
import dev.vprof.otlp.SpanWindow;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a capture records besides the rings: {@code /metrics} scrapes ({@code --metrics}), OTLP
 * requests received ({@code --otlp*}, kept as they arrived) or spans imported ({@code --spans}),
 * and the profiler trigger ({@code --trigger}); and, as the capture ends, its window (a WINDOW
 * chunk). Opened before anything else ({@link #open}); the capture that gets it closes it.
 *
 * <p>Threads: the scraper and the receiver's threads only put data on a bounded queue; the
 * session's reader thread drains it ({@link #pump}) and writes METRICS and SPANS chunks about
 * once a second. A queue rather than a synchronized {@code CaptureWriter}: the writer stays
 * confined to the one thread that drains the rings, so the drain never waits behind a lock
 * held while a span batch is encoded, chunks hold a second of data instead of one request's,
 * and a capture that falls behind pushes back on OTLP senders (they are answered "unavailable"
 * and retry) instead of growing without bound.
 */
public final class CaptureFeeds implements AutoCloseable {
    /** Scrapes and span batches waiting for the reader thread. */
    private static final int QUEUE_ITEMS = 4096;
    /** Spans waiting for the reader thread; beyond this OTLP senders are told to retry. */
    private static final long MAX_PENDING_SPANS = 500_000;
    private static final long WRITE_EVERY_NS = TimeUnit.SECONDS.toNanos(1);
    /** Request bodies a SPANS chunk holds at most (a larger request takes a chunk of its own). */
    private static final long SPANS_CHUNK_BYTES = 4 << 20;
    /** Spans per request when an imported request too large for one chunk is re-encoded. */
    private static final int SPANS_PER_CHUNK = 10_000;
    /** The largest request a SPANS chunk holds (room left for the chunk's own header). */
    private static final long MAX_REQUEST_BYTES = CaptureFormat.MAX_PAYLOAD - 16;
    private static final int SCRAPES_PER_CHUNK = 64;

    /** The counts of the closing summary (and of the WINDOW chunk). */
    public record Counts(long scrapes, long gaps, long scrapesDropped, long spansReceived, long spansRejected,
                         long spansRefused, long spansImported, long importErrors, long spansOutsideWindow,
                         long triggerFailures) {
        static final Counts NONE = new Counts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

        Map<String, Long> asMap() {
            Map<String, Long> m = new LinkedHashMap<>();
            m.put("scrapes", scrapes);
            m.put("gaps", gaps);
            m.put("scrapes_dropped", scrapesDropped);
            m.put("spans_received", spansReceived);
            m.put("spans_rejected", spansRejected);
            m.put("spans_refused", spansRefused);
            m.put("spans_imported", spansImported);
            m.put("import_errors", importErrors);
            m.put("spans_outside_window", spansOutsideWindow);
            if (triggerFailures > 0) {
                m.put(WindowChunk.TRIGGER_FAILURES_KEY, triggerFailures);
            }
            return m;
        }
    }

    private URI metricsUrl;
    private Duration metricsInterval;
    private ProfilerTrigger trigger;
    private final SpanImport.Result imported;
    private final Path importedFrom;
    private OtlpReceiver receiver;

    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(QUEUE_ITEMS);
    private final AtomicLong pendingSpans = new AtomicLong();
    private final AtomicLong scrapesDropped = new AtomicLong();
    private final AtomicLong spansRefused = new AtomicLong();
    private volatile boolean acceptingSpans = true;

    // Reader thread only, from here on.
    private MetricsScraper scraper;
    private Thread triggerThread;
    private volatile boolean triggerStarted;
    /** What went wrong with {@code --trigger}, first failure first; the capture goes on, marked. */
    private final List<String> triggerFailures = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean stopping;
    private long windowStartNs;
    private long windowEndNs = -1;
    private long nextWriteNs;
    private final List<ScrapeResult> scrapes = new ArrayList<>();
    private final List<ExportRequest> requests = new ArrayList<>();
    private long scrapesOk;
    private long gaps;
    private boolean inGap;
    private long spansReceived;
    private long receivedOutside;
    private long importedOutside;
    private boolean finished;
    private boolean closed;
    /** The capture's signal handlers from {@link #open}, until the capture takes them ({@link #takeSignals}). */
    private StopSignals signals;

    private CaptureFeeds(SpanImport.Result imported, Path importedFrom) {
        this.imported = imported;
        this.importedFrom = importedFrom;
    }

    /** No spans: a plain capture (the plan may still scrape metrics and trigger). */
    public static CaptureFeeds none() {
        return new CaptureFeeds(null, null);
    }

    /**
     * Opens what must be checked before anything else happens: imports {@code spansFile} now (its
     * errors, line-numbered, go to {@code err}; the good spans are kept) and starts the OTLP
     * receiver {@code otlp} asks for, so that a port in use is reported before any agent is armed
     * or command started. Spans that arrive before the capture begins wait for it. The scraper and
     * the trigger start with the capture ({@link CapturePlan#metrics()}, {@link CapturePlan#trigger()}).
     *
     * @param otlp      the receiver's addresses, or null for none
     * @param spansFile spans to import ({@code --spans}), or null
     */
    public static CaptureFeeds open(OtlpReceiverConfig otlp, Path spansFile, PrintWriter err) {
        SpanImport.Result imported = null;
        if (spansFile != null) {
            imported = SpansFile.read(spansFile, err);
        }
        CaptureFeeds f = new CaptureFeeds(imported, spansFile);
        // From here the capture is under way for the user (the receiver says it listens, and
        // takes spans): a Ctrl-C from now on must end it with its file, not before it.
        f.signals = StopSignals.installPending();
        if (otlp != null) {
            try {
                f.receiver = OtlpReceiver.start(otlp, f::offer, w -> warn(err, "OTLP: " + w));
            } catch (IOException e) {
                f.close();
                throw new CaptureException("cannot start the OTLP receiver: " + e.getMessage(), e);
            }
            err.println("vprof: OTLP receiver listening:"
                    + (f.receiver.grpcAddress() == null ? "" : " gRPC " + OtlpReceiverConfig.format(f.receiver.grpcAddress()))
                    + (f.receiver.httpAddress() == null ? "" : " HTTP " + OtlpReceiverConfig.format(f.receiver.httpAddress())));
            err.flush();
        }
        return f;
    }

    /**
     * An export request from any thread: its body is kept (SPANS chunks store what arrived), its
     * spans are counted. Throws when the capture cannot take it (ended, or behind): the OTLP
     * receiver then answers "unavailable" and the sender retries.
     */
    void offer(ExportRequest request) {
        int spans = request.spans().size();
        if (spans == 0) {
            return;
        }
        if (!acceptingSpans) {
            spansRefused.addAndGet(spans);
            throw new IllegalStateException("the vprof capture has ended");
        }
        long n = pendingSpans.addAndGet(spans);
        boolean queued = false;
        try {
            queued = n <= MAX_PENDING_SPANS && queue.offer(request, 1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!queued) {
            pendingSpans.addAndGet(-spans);
            spansRefused.addAndGet(spans);
            throw new IllegalStateException("the vprof capture is not keeping up; retry later");
        }
    }

    private void offerScrape(ScrapeResult r) {
        if (!queue.offer(r)) {
            scrapesDropped.incrementAndGet();
        }
    }

    /** The OTLP/HTTP receiver's bound address (the real port when 0 was asked), or null. */
    public InetSocketAddress otlpHttpAddress() {
        return receiver == null ? null : receiver.httpAddress();
    }

    /** The OTLP/gRPC receiver's bound address, or null. */
    public InetSocketAddress otlpGrpcAddress() {
        return receiver == null ? null : receiver.grpcAddress();
    }

    /** Spans the OTLP receiver has accepted so far (0 without one). */
    public long spansAccepted() {
        return receiver == null ? 0 : receiver.stats().spansAccepted();
    }

    // ---- the reader thread --------------------------------------------------------------------

    /**
     * The capture starts: its window opens at {@code out}'s start, the imported spans are written,
     * the plan's scraper starts, and its trigger POSTs /start_profile. A RUN capture starts the
     * server itself, so the trigger waits for it to listen instead of failing.
     */
    void begin(CaptureOutput out, CapturePlan plan, PrintWriter err) throws IOException {
        if (plan.metrics() != null) {
            metricsUrl = plan.metrics().url();
            metricsInterval = plan.metrics().interval();
        }
        if (plan.trigger() != null) {
            trigger = new ProfilerTrigger(plan.trigger());
        }
        boolean retryUntilUp = plan.mode() == CapturePlan.Mode.RUN;
        windowStartNs = out.startEpochNs() != 0 ? out.startEpochNs() : Posix.realtimeNanos();
        nextWriteNs = System.nanoTime() + WRITE_EVERY_NS;
        if (imported != null) {
            writeSpans(out, imported.requests());
        }
        if (metricsUrl != null) {
            scraper = new MetricsScraper(metricsUrl, metricsInterval, this::offerScrape);
            scraper.start();
            err.println("vprof: scraping " + metricsUrl + " every " + millis(metricsInterval));
        }
        if (trigger != null) {
            if (retryUntilUp) {
                triggerThread = Thread.ofPlatform().daemon().name("vprof-trigger").start(() -> startWhenUp(err));
            } else {
                try {
                    trigger.start();
                } catch (CaptureException e) {
                    // The attach ends here (CaptureSession.begin finishes the file): the file says why.
                    triggerFailures.add(e.getMessage());
                    throw e;
                }
                triggerStarted = true;
                err.println("vprof: --trigger: POST " + trigger.startUri() + " ok");
            }
        }
        err.flush();
    }

    /**
     * A POST of {@code --trigger} failed after the capture began (RUN's retries, /stop_profile):
     * said now, counted in the WINDOW chunk (so that the file and its report say so), repeated
     * loudly in the closing summary. The capture goes on.
     */
    private void triggerFailed(PrintWriter err, CaptureException e) {
        triggerFailures.add(e.getMessage());
        err.println("vprof: error: " + e.getMessage() + "; the capture goes on without it, marked as such");
    }

    /** RUN: the server comes up some time after its command starts; try every half second. */
    private void startWhenUp(PrintWriter err) {
        while (!stopping) {
            try {
                trigger.start();
                triggerStarted = true;
                synchronized (err) {
                    err.println("vprof: --trigger: POST " + trigger.startUri() + " ok");
                    err.flush();
                }
                return;
            } catch (CaptureException e) {
                if (!ProfilerTrigger.notListening(e)) {
                    synchronized (err) {
                        triggerFailed(err, e);
                        err.flush();
                    }
                    return;
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Called on every turn of the reader loop; writes what arrived about once a second. */
    void pump(CaptureOutput out, long nowNs, PrintWriter err) throws IOException {
        if (nowNs - nextWriteNs < 0) {
            return;
        }
        nextWriteNs = nowNs + WRITE_EVERY_NS;
        drainQueue(err);
        writePending(out);
    }

    /**
     * The capture is ending, before the agents are disarmed: POST /stop_profile so the range closes
     * cleanly. Not when {@code serverGone} (run's command exited: there is nobody to ask).
     */
    void beforeFinish(PrintWriter err, boolean serverGone) {
        stopping = true;
        if (triggerThread != null) {
            triggerThread.interrupt();
            try {
                triggerThread.join(TimeUnit.SECONDS.toMillis(70));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (trigger != null && !triggerStarted && triggerFailures.isEmpty()) {
            triggerFailures.add("--trigger: " + trigger.startUri() + " never answered while the capture ran");
        }
        if (trigger != null && triggerStarted && !serverGone) {
            try {
                trigger.stop();
                err.println("vprof: --trigger: POST " + trigger.stopUri() + " ok");
            } catch (CaptureException e) {
                triggerFailed(err, e);
            }
            err.flush();
        }
    }

    /**
     * The capture is over: a last scrape, the scraper and the receiver stopped, everything
     * still queued written, then the WINDOW chunk.
     */
    void finish(CaptureOutput out, PrintWriter err) throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        stopping = true;
        if (scraper != null) {
            scraper.close();
            // One scrape at the very end, so that deltas over the window cover all of it.
            try (MetricsScraper last = MetricsScraper.onDemand(metricsUrl, scrapeTimeout())) {
                offerScrape(last.scrapeOnce());
            }
        }
        windowEndNs = Posix.realtimeNanos();
        acceptingSpans = false;
        if (receiver != null) {
            receiver.close();
        }
        drainQueue(err);
        writePending(out);
        if (imported != null) {
            importedOutside = SpanWindow.filter(imported.spans(), windowStartNs, windowEndNs).outside().size();
        }
        Map<String, Long> windowCounts = counts().asMap();
        windowCounts.putAll(NodeEvidence.atEnd()); // the node's clock at the end, for a merge (dev.vprof.merge)
        out.chunk(CaptureFormat.KIND_WINDOW, new WindowChunk(windowStartNs, windowEndNs, windowCounts).toJson());
    }

    private Duration scrapeTimeout() {
        Duration d = metricsInterval.multipliedBy(4).dividedBy(5);
        return d.compareTo(Duration.ofSeconds(2)) > 0 ? Duration.ofSeconds(2) : d;
    }

    private void drainQueue(PrintWriter err) {
        List<Object> items = new ArrayList<>();
        queue.drainTo(items);
        long now = Posix.realtimeNanos();
        for (Object item : items) {
            if (item instanceof ScrapeResult r) {
                scrapes.add(r);
                if (r instanceof ScrapeResult.Gap g) {
                    gaps++;
                    if (!inGap) {
                        warn(err, "metrics: scrape of " + metricsUrl + " failed (" + g.error()
                                + "); the capture goes on and marks the gap");
                    }
                    inGap = true;
                } else {
                    scrapesOk++;
                    if (inGap) {
                        warn(err, "metrics: " + metricsUrl + " answers again");
                    }
                    inGap = false;
                }
            } else {
                ExportRequest request = (ExportRequest) item;
                pendingSpans.addAndGet(-request.spans().size());
                spansReceived += request.spans().size();
                for (Span s : request.spans()) {
                    // Ended before the capture began (an exporter's late batch), or from a clock ahead of ours.
                    if (s.endEpochNs() < windowStartNs || s.startEpochNs() > now) {
                        receivedOutside++;
                    }
                }
                requests.add(request);
            }
        }
    }

    private void writePending(CaptureOutput out) throws IOException {
        for (int i = 0; i < scrapes.size(); i += SCRAPES_PER_CHUNK) {
            out.chunk(CaptureFormat.KIND_METRICS,
                    MetricsCodec.encode(scrapes.subList(i, Math.min(scrapes.size(), i + SCRAPES_PER_CHUNK))));
        }
        scrapes.clear();
        writeSpans(out, requests);
        requests.clear();
    }

    /**
     * SPANS chunks of the requests as they arrived (SpansCodec version 2), up to about 4 MiB each.
     * A received request always fits one chunk ({@link OtlpReceiverConfig#MAX_MAX_BODY_BYTES}); an
     * imported file too large for one (a whole OTLP JSON document over 64 MiB) is stored as its
     * decoded spans, re-encoded as OTLP protobuf requests of {@value #SPANS_PER_CHUNK} spans.
     */
    private static void writeSpans(CaptureOutput out, List<ExportRequest> list) throws IOException {
        List<ExportRequest> batch = new ArrayList<>();
        long batchBytes = 0;
        for (ExportRequest whole : list) {
            List<ExportRequest> parts = List.of(whole);
            if (SpansCodec.encodedSize(whole) > MAX_REQUEST_BYTES) {
                List<Span> spans = whole.spans();
                parts = new ArrayList<>();
                for (int i = 0; i < spans.size(); i += SPANS_PER_CHUNK) {
                    parts.add(ExportRequest.of(spans.subList(i, Math.min(spans.size(), i + SPANS_PER_CHUNK))));
                }
            }
            for (ExportRequest r : parts) {
                long size = SpansCodec.encodedSize(r);
                if (!batch.isEmpty() && batchBytes + size > SPANS_CHUNK_BYTES) {
                    out.chunk(CaptureFormat.KIND_SPANS, SpansCodec.encodeRequests(batch));
                    batch.clear();
                    batchBytes = 0;
                }
                batch.add(r);
                batchBytes += size;
            }
        }
        if (!batch.isEmpty()) {
            out.chunk(CaptureFormat.KIND_SPANS, SpansCodec.encodeRequests(batch));
        }
    }

    Counts counts() {
        ReceiverStats.Snapshot rs = receiver == null ? null : receiver.stats();
        return new Counts(scrapesOk, gaps, scrapesDropped.get(), spansReceived,
                rs == null ? 0 : rs.spansRejected(), spansRefused.get(),
                imported == null ? 0 : imported.spans().size(), imported == null ? 0 : imported.errorCount(),
                receivedOutside + importedOutside, triggerFailures.size());
    }

    /** The summary's lines about the feeds; empty when there were none. */
    List<String> summaryLines() {
        List<String> lines = new ArrayList<>();
        Counts c = counts();
        if (metricsUrl != null) {
            lines.add(String.format("vprof: metrics: %d scrape%s of %s, %d gap%s%s", c.scrapes(), c.scrapes() == 1 ? "" : "s",
                    metricsUrl, c.gaps(), c.gaps() == 1 ? "" : "s",
                    c.scrapesDropped() > 0 ? ", " + c.scrapesDropped() + " dropped (the capture fell behind)" : ""));
        }
        if (receiver != null) {
            lines.add("vprof: " + receiver.describe());
            lines.add(String.format("vprof: spans: %d received into the capture, %d rejected as invalid, %d refused%s",
                    c.spansReceived(), c.spansRejected(), c.spansRefused(),
                    c.spansRefused() > 0 ? " (sent when the capture had ended or fell behind)" : ""));
        }
        if (imported != null) {
            lines.add(String.format("vprof: spans: %d imported from %s (%s), %d error%s", c.spansImported(), importedFrom,
                    imported.format(), c.importErrors(), c.importErrors() == 1 ? "" : "s"));
        }
        if (!triggerFailures.isEmpty()) {
            lines.add("vprof: warning: --trigger FAILED (" + triggerFailures.getFirst() + "): the server may never have"
                    + " profiled this capture; the file records the failure and `vprof report` repeats it");
        }
        if ((receiver != null || imported != null) && c.spansOutsideWindow() > 0) {
            lines.add("vprof: spans: " + c.spansOutsideWindow() + " span(s) lie wholly outside the capture window "
                    + "(kept in the file, left off the timeline)");
        }
        return lines;
    }

    /** The signal handlers installed by {@link #open} (a stop that came meanwhile kept in them), or null. */
    StopSignals takeSignals() {
        StopSignals s = signals;
        signals = null;
        return s;
    }

    /** Releases threads and ports; safe on any path, more than once. */
    @Override
    public void close() {
        if (signals != null) {
            signals.restore(); // the capture never began: the command's own handlers again
            signals = null;
        }
        if (closed) {
            return;
        }
        closed = true;
        stopping = true;
        acceptingSpans = false;
        if (triggerThread != null) {
            triggerThread.interrupt();
        }
        if (scraper != null) {
            scraper.close();
        }
        if (receiver != null) {
            receiver.close();
        }
        if (trigger != null) {
            trigger.close();
        }
    }

    private static void warn(PrintWriter err, String s) {
        synchronized (err) {
            err.println("vprof: warning: " + s);
            err.flush();
        }
    }

    private static String millis(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
