package dev.vprof.watch;

import dev.vprof.metrics.HistogramDelta;
import dev.vprof.metrics.MetricMath;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.Quantile;
import dev.vprof.metrics.ScrapeResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The {@code --when} conditions evaluated at every scrape the watch records, on the scrapes
 * themselves (the file's METRICS, as they are written): no second scraper. A condition that has
 * held at every scrape for its {@code for} fires; it fires again only after {@code minInterval}
 * while it keeps holding, so one long episode asks for one dump per interval.
 *
 * <p>A quantile from a histogram is only known to lie in a bucket ({@link Quantile}): it counts as
 * above a threshold only when its bucket's lower bound is at or above it (the data proves it), and
 * below only when its upper bound is; a window without observations holds no quantile and the
 * condition does not hold.
 *
 * <p>A condition whose metric the server does not have in {@link #NEVER_AFTER} scrapes in a row
 * from the first one on can never be computed: {@link #fatal()} says so in one sentence and the
 * watch stops. Called on the drain thread only.
 */
final class ConditionWatch {
    /** Successful scrapes without a condition's metric after which it is taken as never computable. */
    static final int NEVER_AFTER = 5;

    /** What a condition that fired asks for. */
    interface Fire {
        void fire(Condition c, String why);
    }

    private static final class State {
        final Condition c;
        long holdingSinceNs = -1;
        long lastFiredNs = Long.MIN_VALUE;
        boolean everComputable;
        int absentScrapes;
        String last = "not computed yet";

        State(Condition c) {
            this.c = c;
        }
    }

    private final List<State> states = new ArrayList<>();
    private final Deque<MetricsSnapshot> history = new ArrayDeque<>();
    private final long keepNs;
    private final long minIntervalNs;
    private final String url;
    private final Fire fire;
    private volatile String fatal;

    ConditionWatch(List<Condition> conditions, long minIntervalNs, String url, Fire fire) {
        long keep = 0;
        for (Condition c : conditions) {
            states.add(new State(c));
            keep = Math.max(keep, c.window().toNanos());
        }
        this.keepNs = keep;
        this.minIntervalNs = minIntervalNs;
        this.url = url;
        this.fire = fire;
    }

    /** Why the watch must stop (a condition that can never be computed), or null. */
    String fatal() {
        return fatal;
    }

    /** Each condition and its latest value, for the status endpoint. */
    List<String> describe() {
        List<String> out = new ArrayList<>();
        for (State s : states) {
            out.add(s.c.text() + ": " + s.last);
        }
        return out;
    }

    void scrapes(List<ScrapeResult> results) {
        for (ScrapeResult r : results) {
            if (r instanceof ScrapeResult.Scrape s) {
                scrape(s.snapshot());
            }
        }
    }

    private void scrape(MetricsSnapshot now) {
        history.addLast(now);
        // Keep one scrape older than the longest window: its values are the window's start.
        while (history.size() > 2) {
            Iterator<MetricsSnapshot> it = history.iterator();
            it.next();
            if (now.epochNs() - it.next().epochNs() < keepNs) {
                break;
            }
            history.removeFirst();
        }
        while (history.size() > 100_000) {
            history.removeFirst();
        }
        for (State s : states) {
            evaluate(s, now);
        }
    }

    private void evaluate(State s, MetricsSnapshot now) {
        Condition c = s.c;
        if (c.metric().resolve(now) == null) {
            s.absentScrapes++;
            s.last = "the server's /metrics has no " + c.metric().name();
            if (!s.everComputable && s.absentScrapes >= NEVER_AFTER && fatal == null) {
                fatal = "--when '" + c.text() + "' can never be computed: " + url + " answered " + s.absentScrapes
                        + " scrapes without " + c.metric().name() + (c.metric().names().size() > 1
                        ? " (or " + String.join(", ", c.metric().names().subList(1, c.metric().names().size())) + ")" : "")
                        + "; is it a vLLM server? (vprof triage --url says what it serves)";
            }
            s.holdingSinceNs = -1;
            return;
        }
        s.everComputable = true;
        s.absentScrapes = 0;
        Boolean holds = holds(c, now, s);
        if (holds == null || !holds) {
            s.holdingSinceNs = -1;
            return;
        }
        long t = now.epochNs();
        if (s.holdingSinceNs < 0) {
            s.holdingSinceNs = t;
        }
        if (t - s.holdingSinceNs >= c.holdFor().toNanos()
                && (s.lastFiredNs == Long.MIN_VALUE || t - s.lastFiredNs >= minIntervalNs)) {
            s.lastFiredNs = t;
            String held = c.holdFor().isZero() ? "" : String.format(Locale.ROOT, " for %.1f s",
                    (t - s.holdingSinceNs) / 1e9);
            fire.fire(c, c.text() + ": " + s.last + held);
        }
    }

    /** Whether {@code c} holds at {@code now}; null when it cannot be computed yet (one scrape, no window). */
    private Boolean holds(Condition c, MetricsSnapshot now, State s) {
        switch (c.statistic()) {
            case GAUGE -> {
                double v = MetricMath.gauge(now, c.metric(), MetricMath.ALL_SERIES);
                if (Double.isNaN(v)) {
                    s.last = "no value";
                    return null;
                }
                s.last = c.series() + " = " + num(v);
                return c.op().test(v, c.threshold());
            }
            default -> {
                MetricsSnapshot from = windowStart(now, c.window().toNanos());
                if (from == null) {
                    s.last = "waiting for a second scrape";
                    return null;
                }
                double seconds = (now.epochNs() - from.epochNs()) / 1e9;
                if (c.statistic() == Condition.Statistic.RATE) {
                    double inc = MetricMath.counterIncrease(from, now, c.metric(), MetricMath.ALL_SERIES);
                    if (Double.isNaN(inc) || seconds <= 0) {
                        s.last = "no rate";
                        return null;
                    }
                    double rate = inc / seconds;
                    s.last = c.series() + " = " + num(rate) + "/s";
                    return c.op().test(rate, c.threshold());
                }
                HistogramDelta d = MetricMath.histogramIncrease(from, now, c.metric(), MetricMath.ALL_SERIES);
                if (d == null) {
                    s.last = "the histogram breaks the rules of a histogram";
                    return null;
                }
                if (c.statistic() == Condition.Statistic.MEAN) {
                    double mean = d.mean();
                    if (Double.isNaN(mean)) {
                        s.last = "no request in the last " + num(seconds) + " s";
                        return false;
                    }
                    s.last = c.series() + " = " + ms(mean);
                    return c.op().test(mean, c.threshold());
                }
                Quantile q = d.durationQuantile(c.quantile());
                if (!q.known()) {
                    s.last = "no request in the last " + num(seconds) + " s";
                    return false;
                }
                s.last = c.series() + " in (" + ms(q.low()) + ", " + ms(q.high()) + "]";
                return switch (c.op()) {
                    // A bucket's lower bound is exclusive: the value lies above it.
                    case GT -> q.exact() ? q.low() > c.threshold() : q.low() >= c.threshold();
                    case GE -> q.low() >= c.threshold();
                    case LT -> q.high() < c.threshold();
                    case LE -> q.high() <= c.threshold();
                };
            }
        }
    }

    /** The scrape the window starts at: the latest at or before {@code now - window}, else the oldest; null with one. */
    private MetricsSnapshot windowStart(MetricsSnapshot now, long windowNs) {
        MetricsSnapshot best = null;
        for (MetricsSnapshot s : history) {
            if (s == now) {
                break;
            }
            if (best == null || s.epochNs() <= now.epochNs() - windowNs) {
                best = s;
            }
        }
        return best;
    }

    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static String ms(double seconds) {
        if (Double.isInfinite(seconds)) {
            return "+Inf";
        }
        return seconds < 1 ? String.format(Locale.ROOT, "%.0f ms", seconds * 1e3) : String.format(Locale.ROOT, "%.2f s", seconds);
    }
}
