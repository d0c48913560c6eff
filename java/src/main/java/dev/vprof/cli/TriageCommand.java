package dev.vprof.cli;

import dev.vprof.metrics.HttpFailures;
import dev.vprof.metrics.MetricMath;
import dev.vprof.metrics.MetricsScraper;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.metrics.VllmMetrics;
import dev.vprof.nativelib.Posix;
import dev.vprof.triage.Assessment;
import dev.vprof.triage.ReplicaTriage;
import dev.vprof.triage.Triage;
import dev.vprof.triage.TriageReport;
import dev.vprof.triage.Verdict;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code vprof triage --url URL [--window 30s] [--json]}: reads a vLLM server's /metrics at
 * the start and end of a window (and every interval between, for the gauges), and says what
 * is wrong and what to run next.
 */
@Command(name = "triage", mixinStandardHelpOptions = true,
        description = {"Read a vLLM server's /metrics over a window and say what is wrong: queue-bound,"
                + " KV-cache pressure, prefill-bound, decode-bound, clients timing out, or healthy;"
                + " with the numbers behind it and the next command to run.",
            "A quantile read from a histogram is shown as the bucket that holds it (\"1-2.5 s\", \"<= 300 ms\"):"
                + " a histogram does not say more. With --json each quantile is {low_s, high_s, exact}.",
            "Exit codes: 0 a verdict was given, 5 the endpoint has no vLLM metrics, 2 it cannot be read."},
        footer = {"", "Example:", "  vprof triage --url http://localhost:8000 --window 30s", "", SignalHelp.STOP})
public final class TriageCommand extends VprofCommand {
    public TriageCommand() {
        super(ExitCode.OK, ExitCode.CANNOT, ExitCode.NOT_EXPECTED);
    }

    static final Duration READ_TIMEOUT = Duration.ofSeconds(3);

    @Option(names = "--url", required = true, paramLabel = "URL",
            description = "The server's metrics URL; a bare host:port means http://host:port/metrics.")
    String url;

    @Option(names = "--window", paramLabel = "D", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long to watch (e.g. 30s, 2m, 500ms). Default: ${DEFAULT-VALUE}.")
    Duration window;

    @Option(names = "--interval", paramLabel = "D", defaultValue = "1s", converter = DurationConverter.class,
            description = "How often to read the gauges (queue depth, KV usage) during the window;"
                    + " at least 100ms. Default: ${DEFAULT-VALUE}.")
    Duration interval;

    @Option(names = "--json", description = "Print the verdict and the numbers as JSON.")
    boolean json;

    /**
     * The live line is redrawn in place with \r and an escape: only on a terminal, never into a log
     * file. Null: ask isatty when the command runs (not when picocli builds every command's object).
     */
    private Boolean liveProgress;

    /** Overrides whether stderr is taken for a terminal (tests, and callers that own their stderr). */
    public TriageCommand liveProgress(boolean on) {
        liveProgress = on;
        return this;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean live = liveProgress != null ? liveProgress : Posix.isatty(Posix.STDERR_FILENO);
        URI metricsUrl;
        try {
            metricsUrl = MetricsScraper.metricsUri(url);
        } catch (IllegalArgumentException e) {
            err.println("vprof triage: " + e.getMessage());
            return ExitCode.CANNOT.code();
        }
        if (interval.compareTo(MetricsScraper.MIN_INTERVAL) < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--interval must be at least " + MetricsScraper.MIN_INTERVAL.toMillis() + "ms");
        }
        if (window.compareTo(interval) < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--window (" + window.toMillis() + "ms) must be at least --interval (" + interval.toMillis() + "ms)");
        }
        List<MetricsSnapshot> scrapes = new ArrayList<>();
        int gaps = 0;
        String lastError = null;
        // Reads are on demand: the first may meet a cold client or a busy server, so each gets
        // at least READ_TIMEOUT even when the gauge interval is shorter.
        Duration readTimeout = interval.compareTo(READ_TIMEOUT) > 0 ? interval : READ_TIMEOUT;
        try (MetricsScraper scraper = MetricsScraper.onDemand(metricsUrl, readTimeout)) {
            ScrapeResult first = scraper.scrapeOnce();
            if (first instanceof ScrapeResult.Gap g) {
                err.println("vprof triage: cannot read metrics: " + g.error() + "; " + HttpFailures.CHECK_THE_URL);
                return ExitCode.CANNOT.code();
            }
            scrapes.add(((ScrapeResult.Scrape) first).snapshot());
            if (json || !live) { // on stderr: --json's stdout stays JSON, and the wait is never silent
                err.println("vprof triage: reading " + metricsUrl + " every " + interval.toMillis() + "ms for "
                        + window.toMillis() / 1000.0 + " s; the verdict comes at the end");
                err.flush();
            }
            long start = System.nanoTime();
            long end = start + window.toNanos();
            long next = start;
            while (true) {
                next += interval.toNanos();
                long now = System.nanoTime();
                if (next > end) {
                    next = end;
                }
                if (next > now) {
                    Thread.sleep(Duration.ofNanos(next - now));
                }
                ScrapeResult r = scraper.scrapeOnce();
                if (r instanceof ScrapeResult.Scrape s) {
                    scrapes.add(s.snapshot());
                } else {
                    gaps++;
                    lastError = ((ScrapeResult.Gap) r).error();
                }
                if (!json && live) {
                    progress(err, System.nanoTime() - start, scrapes.getLast(), gaps);
                }
                if (next >= end) {
                    break;
                }
            }
            if (!json && live) {
                err.print("\r\033[K");
                err.flush();
            }
        }
        if (scrapes.size() < 2) {
            err.println("vprof triage: the server stopped answering during the window: " + lastError);
            return ExitCode.CANNOT.code();
        }
        double seconds = (scrapes.getLast().epochNs() - scrapes.getFirst().epochNs()) / 1e9;
        Assessment a = Triage.assess(scrapes, seconds, Triage.Thresholds.DEFAULT, metricsUrl);
        if (gaps > 0) {
            err.println("vprof triage: " + gaps + " of the reads failed (last: " + lastError
                    + "); the verdict uses the rest");
        }
        // Ray Serve or data-parallel engines behind one endpoint: a verdict per replica too.
        List<ReplicaTriage.ReplicaVerdict> replicas = ReplicaTriage.assess(scrapes, seconds, Triage.Thresholds.DEFAULT,
                metricsUrl);
        out.print(json ? ReplicaTriage.json(TriageReport.json(a, metricsUrl.toString()), replicas) + "\n"
                : TriageReport.text(a, metricsUrl.toString()) + ReplicaTriage.text(replicas));
        out.flush();
        return a.verdict() == Verdict.NOT_VLLM ? ExitCode.NOT_EXPECTED.code() : ExitCode.OK.code();
    }

    private void progress(PrintWriter err, long elapsedNs, MetricsSnapshot last, int gaps) {
        double waiting = MetricMath.gauge(last, VllmMetrics.NUM_REQUESTS_WAITING,
                MetricMath.ALL_SERIES);
        double running = MetricMath.gauge(last, VllmMetrics.NUM_REQUESTS_RUNNING,
                MetricMath.ALL_SERIES);
        err.printf(Locale.ROOT, "\r\033[Kreading %s: %.0f of %.0f s  running %s  waiting %s%s",
                url, elapsedNs / 1e9, window.toNanos() / 1e9, fmt(running), fmt(waiting),
                gaps > 0 ? "  (" + gaps + " failed reads)" : "");
        err.flush();
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    /** Durations as people write them: 30s, 500ms, 2m, 1h, or plain seconds. */
    public static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.strip().toLowerCase(Locale.ROOT);
            try {
                if (v.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
                }
                double n;
                long unitNs;
                if (v.endsWith("s")) {
                    n = Double.parseDouble(v.substring(0, v.length() - 1));
                    unitNs = 1_000_000_000L;
                } else if (v.endsWith("m")) {
                    n = Double.parseDouble(v.substring(0, v.length() - 1));
                    unitNs = 60_000_000_000L;
                } else if (v.endsWith("h")) {
                    n = Double.parseDouble(v.substring(0, v.length() - 1));
                    unitNs = 3_600_000_000_000L;
                } else {
                    n = Double.parseDouble(v);
                    unitNs = 1_000_000_000L;
                }
                if (!(n > 0) || Double.isInfinite(n)) {
                    throw new CommandLine.TypeConversionException("'" + value + "' is not a positive duration");
                }
                return Duration.ofNanos((long) (n * unitNs));
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + value + "' is not a duration (examples: 30s, 500ms, 2m)");
            }
        }
    }
}
