package dev.vprof.watch;

import dev.vprof.metrics.MetricType;
import dev.vprof.metrics.RayServe;
import dev.vprof.metrics.VllmMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code --when} condition over the server's scraped metrics (docs/watch.md, "Conditions"):
 *
 * <pre>
 * condition := series [ "[" window "]" ] op threshold [ "for" duration ]
 * series    := gauge | histogram "_p" NN | histogram "_mean" | counter "_rate"
 * op        := "&gt;" | "&gt;=" | "&lt;" | "&lt;="
 * threshold := number [ "us" | "ms" | "s" | "m" | "%" ]
 * </pre>
 *
 * A series is one of vLLM's metrics by a short name ({@code ttft}, {@code num_requests_waiting}) or
 * by its own family name, an older name vLLM used for it, or Ray Serve's {@code ray_} prefixed one
 * ({@code vllm:time_to_first_token_seconds}, {@code ray_vllm:num_requests_waiting}); lookups accept
 * every name ({@link VllmMetrics}). A histogram's quantile ({@code _p50}, {@code _p99},
 * {@code _p999}) and mean, and a counter's rate per second, are taken over the last {@code window}
 * of scrapes (default 10 s), as PromQL's {@code histogram_quantile} over {@code rate(...[10s])}
 * would; a gauge is its latest value. Every series is summed over the server's series (all engines,
 * models, replicas). With {@code for}, the condition fires once it has held at every scrape for
 * that long, as an alerting rule's {@code for} does.
 *
 * @param text       the condition as given
 * @param metric     the vLLM metric
 * @param statistic  what of it is compared
 * @param quantile   0..1 for {@link Statistic#QUANTILE}
 * @param window     the window of a quantile, mean or rate
 * @param op         the comparison
 * @param threshold  in the metric's unit (seconds, a fraction, a count, per second)
 * @param holdFor    how long it must hold before it fires; zero fires at once
 */
public record Condition(String text, VllmMetrics.Metric metric, Statistic statistic, double quantile, Duration window,
                        Op op, double threshold, Duration holdFor) {

    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    public enum Statistic { GAUGE, QUANTILE, MEAN, RATE }

    public enum Op {
        GT(">"), GE(">="), LT("<"), LE("<=");

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        boolean test(double v, double t) {
            return switch (this) {
                case GT -> v > t;
                case GE -> v >= t;
                case LT -> v < t;
                case LE -> v <= t;
            };
        }
    }

    /** A condition that does not parse or names no metric vLLM has: one sentence, for the command to print. */
    public static final class BadCondition extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadCondition(String message) {
            super(message);
        }
    }

    /** Short names: what a person types. Histograms are in seconds; kv_cache_usage a fraction. */
    private static final Map<String, VllmMetrics.Metric> SHORT = new LinkedHashMap<>();

    static {
        SHORT.put("num_requests_waiting", VllmMetrics.NUM_REQUESTS_WAITING);
        SHORT.put("num_requests_running", VllmMetrics.NUM_REQUESTS_RUNNING);
        SHORT.put("kv_cache_usage", VllmMetrics.KV_CACHE_USAGE);
        SHORT.put("ttft", VllmMetrics.TIME_TO_FIRST_TOKEN);
        SHORT.put("itl", VllmMetrics.INTER_TOKEN_LATENCY);
        SHORT.put("tpot", VllmMetrics.INTER_TOKEN_LATENCY);
        SHORT.put("e2e", VllmMetrics.E2E_REQUEST_LATENCY);
        SHORT.put("queue_time", VllmMetrics.REQUEST_QUEUE_TIME);
        SHORT.put("prefill_time", VllmMetrics.REQUEST_PREFILL_TIME);
        SHORT.put("decode_time", VllmMetrics.REQUEST_DECODE_TIME);
        SHORT.put("inference_time", VllmMetrics.REQUEST_INFERENCE_TIME);
        SHORT.put("preemptions", VllmMetrics.NUM_PREEMPTIONS);
        SHORT.put("prompt_tokens", VllmMetrics.PROMPT_TOKENS);
        SHORT.put("generation_tokens", VllmMetrics.GENERATION_TOKENS);
        SHORT.put("requests", VllmMetrics.REQUEST_SUCCESS);
    }

    private static final List<VllmMetrics.Metric> FAMILIES = new ArrayList<>(VllmMetrics.ALL);

    static {
        FAMILIES.add(VllmMetrics.REQUEST_INFERENCE_TIME);
        FAMILIES.add(VllmMetrics.PROMPT_TOKENS_CACHED);
    }

    private static final Pattern SYNTAX = Pattern.compile(
            "\\s*([A-Za-z_:][A-Za-z0-9_:]*)\\s*(?:\\[\\s*([^\\]]*)\\])?\\s*(>=|<=|>|<)\\s*"
                    + "([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([a-zA-Z%]*)\\s*(?:\\bfor\\s+(\\S+))?\\s*");
    private static final Pattern QUANTILE = Pattern.compile("(.+)_p([0-9]{2,3})");

    /** Parses {@code text}; throws {@link BadCondition} with the sentence to print. */
    public static Condition parse(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new BadCondition("--when '" + text + "' does not parse: write SERIES OP VALUE [for DURATION], "
                    + "e.g. 'ttft_p99 > 500ms for 30s' or 'num_requests_waiting > 20' (grammar: docs/watch.md)");
        }
        String series = m.group(1);
        String windowText = m.group(2);
        Op op = switch (m.group(3)) {
            case ">" -> Op.GT;
            case ">=" -> Op.GE;
            case "<" -> Op.LT;
            default -> Op.LE;
        };
        double number = Double.parseDouble(m.group(4));
        String unit = m.group(5).toLowerCase(Locale.ROOT);
        Duration holdFor = m.group(6) == null ? Duration.ZERO : duration(text, "for", m.group(6));

        VllmMetrics.Metric metric;
        Statistic statistic;
        double q = Double.NaN;
        VllmMetrics.Metric direct = lookup(series);
        Matcher qm = QUANTILE.matcher(series);
        if (direct != null && direct.type() == MetricType.GAUGE) {
            metric = direct;
            statistic = Statistic.GAUGE;
        } else if (qm.matches() && histogram(qm.group(1)) != null) {
            metric = histogram(qm.group(1));
            statistic = Statistic.QUANTILE;
            String digits = qm.group(2);
            q = Integer.parseInt(digits) / Math.pow(10, digits.length());
        } else if (series.endsWith("_mean") && histogram(strip(series, "_mean")) != null) {
            metric = histogram(strip(series, "_mean"));
            statistic = Statistic.MEAN;
        } else if (series.endsWith("_rate") && counter(strip(series, "_rate")) != null) {
            metric = counter(strip(series, "_rate"));
            statistic = Statistic.RATE;
        } else {
            throw new BadCondition(unknown(text, series, direct));
        }
        Duration window = DEFAULT_WINDOW;
        if (windowText != null) {
            if (statistic == Statistic.GAUGE) {
                throw new BadCondition("--when '" + text + "': " + series + " is a gauge, compared at each scrape; "
                        + "only a quantile, a mean or a rate takes a [window]");
            }
            window = duration(text, "the window", windowText.strip());
        }
        double threshold = threshold(text, series, metric, statistic, number, unit);
        return new Condition(text.strip(), metric, statistic, q, window, op, threshold, holdFor);
    }

    /** The value in the metric's unit: seconds for latencies, a fraction for kv_cache_usage. */
    private static double threshold(String text, String series, VllmMetrics.Metric metric, Statistic statistic,
                                    double number, String unit) {
        boolean seconds = statistic == Statistic.QUANTILE || statistic == Statistic.MEAN;
        boolean fraction = VllmMetrics.KV_CACHE_USAGE.equals(metric);
        if (seconds) {
            return switch (unit) {
                case "us" -> number / 1e6;
                case "ms" -> number / 1e3;
                case "s" -> number;
                case "m" -> number * 60;
                default -> throw new BadCondition("--when '" + text + "': " + series + " is a time; give the value a "
                        + "unit, e.g. 500ms or 0.5s");
            };
        }
        if (fraction) {
            if (unit.equals("%")) {
                return number / 100;
            }
            if (unit.isEmpty() && number <= 1) {
                return number;
            }
            throw new BadCondition("--when '" + text + "': " + series + " is the share of KV-cache blocks in use; "
                    + "write it as 90% or 0.9");
        }
        if (!unit.isEmpty()) {
            throw new BadCondition("--when '" + text + "': " + series + " is a count" + (statistic == Statistic.RATE
                    ? " per second" : "") + "; write the value without a unit");
        }
        return number;
    }

    private static Duration duration(String text, String what, String d) {
        Matcher m = Pattern.compile("([0-9]*\\.?[0-9]+)(ms|s|m|h)").matcher(d.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new BadCondition("--when '" + text + "': " + what + " '" + d + "' is not a duration; write it like "
                    + "500ms, 30s or 2m");
        }
        double v = Double.parseDouble(m.group(1));
        long unit = switch (m.group(2)) {
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
        Duration out = Duration.ofNanos((long) (v * unit));
        if (out.isZero() && what.equals("the window")) {
            throw new BadCondition("--when '" + text + "': the window must be longer than 0");
        }
        return out;
    }

    private static String strip(String s, String suffix) {
        return s.substring(0, s.length() - suffix.length());
    }

    private static VllmMetrics.Metric histogram(String name) {
        VllmMetrics.Metric m = lookup(name);
        return m != null && m.type() == MetricType.HISTOGRAM ? m : null;
    }

    private static VllmMetrics.Metric counter(String name) {
        VllmMetrics.Metric m = lookup(name);
        return m != null && m.type() == MetricType.COUNTER ? m : null;
    }

    /** The metric a short name, a vLLM family name (any of its names) or its ray_ name stands for; null if none. */
    static VllmMetrics.Metric lookup(String name) {
        VllmMetrics.Metric m = SHORT.get(name);
        if (m != null) {
            return m;
        }
        String bare = name.startsWith(RayServe.PREFIX + "vllm:") ? name.substring(RayServe.PREFIX.length()) : name;
        if (bare.endsWith("_total")) {
            bare = strip(bare, "_total");
        }
        for (VllmMetrics.Metric f : FAMILIES) {
            if (f.names().contains(bare)) {
                return f;
            }
        }
        return null;
    }

    private static String unknown(String text, String series, VllmMetrics.Metric direct) {
        if (direct != null) {
            String how = direct.type() == MetricType.HISTOGRAM ? "a histogram: compare a quantile (" + series
                    + "_p99) or the mean (" + series + "_mean)" : "a counter: compare its rate (" + series + "_rate)";
            return "--when '" + text + "': " + series + " is " + how;
        }
        return "--when '" + text + "': unknown metric '" + series + "'; known: num_requests_waiting, "
                + "num_requests_running, kv_cache_usage, ttft_pNN, itl_pNN, e2e_pNN, queue_time_pNN, prefill_time_pNN, "
                + "decode_time_pNN (or _mean), preemptions_rate, prompt_tokens_rate, generation_tokens_rate, "
                + "requests_rate, or vLLM's own names (vllm:num_requests_waiting, ray_vllm:..., "
                + "vllm:time_to_first_token_seconds_p99)";
    }

    /** The series as this condition reads it, for lines: "ttft_p99", "vllm:num_requests_waiting". */
    String series() {
        int end = text.indexOf(op.symbol);
        return text.substring(0, end < 0 ? text.length() : end).replaceAll("\\[.*", "").strip();
    }
}
