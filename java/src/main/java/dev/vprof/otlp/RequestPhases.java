package dev.vprof.otlp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns vLLM's {@code llm_request} span into a request slice with before-the-engine, queue,
 * prefill and decode children.
 *
 * <p>vLLM opens the span at the request's arrival in the API server (its wall clock) and closes
 * it after the request's last output was processed, and puts the per-request timings on it as
 * attributes, in seconds: {@code gen_ai.latency.time_to_first_token} and {@code e2e} measured by
 * the API server from the arrival, and the engine's own {@code time_in_queue} (queued until first
 * scheduled), {@code time_in_model_prefill} (scheduled until first token) and
 * {@code time_in_model_decode} (first until last token), measured on the engine's clock. The
 * model's {@code time_in_model_forward}/{@code time_in_model_execute} are kept as attributes only
 * (they are summed GPU time, not an interval).
 *
 * <p><b>Before the engine.</b> The API server counts ttft from the arrival, the engine counts
 * queue and prefill from when it received the request, so ttft is larger than queue + prefill by
 * the time the request spent before the engine: HTTP handling and tokenization (about 10 ms on a
 * small model). That is normal and becomes its own phase, {@link #BEFORE_ENGINE}, never an anomaly.
 *
 * <p><b>Layout with ttft.</b> The phases are laid forward from the span's start S, the instant
 * both ttft and e2e count from:
 * <pre>
 *   before_engine = [S,                         S + ttft - queue - prefill]
 *   queue         = [S + ttft - queue - prefill, S + ttft - prefill       ]
 *   prefill       = [S + ttft - prefill,         S + ttft                 ]
 *   decode        = [S + ttft,                   S + ttft + decode        ]
 * </pre>
 * What follows the decode until the span's end (the last output handed back) stays the parent's
 * own time. Queue, prefill and decode keep the attributes' lengths exactly.
 *
 * <p><b>Layout without ttft.</b> The three engine phases are laid backwards from the span's end
 * E (decode ends at E, prefill before it, queue before that), and whatever remains between the
 * span's start and the queue's start is the before-the-engine phase.
 *
 * <p><b>Substitutions.</b> When prefill is missing it is taken as {@code ttft - queue}; when
 * decode is missing, as {@code e2e - ttft}; a missing queue time is 0. Each is recorded.
 *
 * <p><b>Real inconsistencies</b>, each recorded in {@link RequestSlice#anomalies()} (so a report
 * can flag the request) by more than {@link #TOLERANCE_NS}: ttft shorter than queue + prefill
 * (the engine's phases cannot take longer than the time to the first token that includes them;
 * the before-the-engine phase is then empty); e2e longer than the span (vLLM measures e2e before
 * it closes the span); e2e shorter than ttft; phases that do not fit in the span. A latency that
 * is negative, NaN or infinite is taken as 0. Phases that run past the span's end are first moved
 * earlier into the before-the-engine time, then clamped at the span's start (the earliest phases
 * shrink first), so children never leave their parent. A span that lasts longer than e2e is
 * normal (the span closes after the output was processed) and is not flagged.
 */
public final class RequestPhases {
    private RequestPhases() {}

    public static final String SPAN_NAME = "llm_request";
    /** Arrival until the engine queued the request: HTTP handling, tokenization. */
    public static final String BEFORE_ENGINE = "before_engine";
    public static final String QUEUE = "queue";
    public static final String PREFILL = "prefill";
    public static final String DECODE = "decode";
    /** The longest latency an attribute may give (about 31 years); a longer one is taken as this, flagged. */
    static final double MAX_LATENCY_S = 1e9;

    /** The phases in their order on the timeline. */
    public static final List<String> PHASES = List.of(BEFORE_ENGINE, QUEUE, PREFILL, DECODE);

    public static final String ATTR_QUEUE = "gen_ai.latency.time_in_queue";
    public static final String ATTR_TTFT = "gen_ai.latency.time_to_first_token";
    public static final String ATTR_PREFILL = "gen_ai.latency.time_in_model_prefill";
    public static final String ATTR_DECODE = "gen_ai.latency.time_in_model_decode";
    public static final String ATTR_E2E = "gen_ai.latency.e2e";
    public static final String ATTR_REQUEST_ID = "gen_ai.request.id";
    public static final String ATTR_PROMPT_TOKENS = "gen_ai.usage.prompt_tokens";
    public static final String ATTR_COMPLETION_TOKENS = "gen_ai.usage.completion_tokens";

    /** Disagreements smaller than this are clock noise between vLLM's monotonic and wall clocks. */
    public static final long TOLERANCE_NS = 1_000_000;

    /** The requests among {@code spans}, and every other span untouched (own name, own nesting). */
    public record Split(List<RequestSlice> requests, List<Span> others) {}

    public static Split split(List<Span> spans) {
        List<RequestSlice> requests = new ArrayList<>();
        List<Span> others = new ArrayList<>();
        for (Span s : spans) {
            if (isLlmRequest(s)) {
                requests.add(of(s));
            } else {
                others.add(s);
            }
        }
        return new Split(requests, others);
    }

    /** vLLM's span by name, or any span carrying the engine latencies (other engines reuse them). */
    public static boolean isLlmRequest(Span s) {
        return s.name().equals(SPAN_NAME) || s.attribute(ATTR_QUEUE) != null || s.attribute(ATTR_PREFILL) != null;
    }

    /** Derives the request slice of one llm_request span (see the class comment). */
    public static RequestSlice of(Span s) {
        List<String> anomalies = new ArrayList<>();
        long start = s.startEpochNs();
        long end = Math.max(start, s.endEpochNs());
        if (end - start < 0) {
            // A span longer than a long holds (hostile times): its phases are laid in none of it.
            anomalies.add("the span's times " + start + " .. " + s.endEpochNs() + " ns are no span: taken as empty");
            end = start;
        }
        long spanNs = end - start;

        long queue = latencyNs(s, ATTR_QUEUE, anomalies);
        long prefill = latencyNs(s, ATTR_PREFILL, anomalies);
        long decode = latencyNs(s, ATTR_DECODE, anomalies);
        long ttft = latencyNs(s, ATTR_TTFT, anomalies);
        long e2e = latencyNs(s, ATTR_E2E, anomalies);

        if (queue < 0) {
            anomalies.add("no " + ATTR_QUEUE + ": queue taken as 0");
            queue = 0;
        }
        if (prefill < 0) {
            if (ttft >= 0) {
                prefill = Math.max(0, ttft - queue);
                anomalies.add("no " + ATTR_PREFILL + ": prefill taken as ttft - queue");
            } else {
                anomalies.add("no " + ATTR_PREFILL + " nor " + ATTR_TTFT + ": prefill taken as 0");
                prefill = 0;
            }
        }
        if (decode < 0) {
            if (e2e >= 0 && ttft >= 0) {
                decode = Math.max(0, e2e - ttft);
                anomalies.add("no " + ATTR_DECODE + ": decode taken as e2e - ttft");
            } else {
                anomalies.add("no " + ATTR_DECODE + ": decode taken as 0");
                decode = 0;
            }
        }
        if (ttft >= 0 && queue + prefill - ttft > TOLERANCE_NS) {
            anomalies.add(String.format(Locale.ROOT, "ttft %.3f ms is shorter than queue + prefill %.3f ms",
                    ttft / 1e6, (queue + prefill) / 1e6));
        }
        if (e2e >= 0 && e2e - spanNs > TOLERANCE_NS) {
            anomalies.add(String.format(Locale.ROOT, "e2e %.3f ms is longer than the span (%.3f ms)",
                    e2e / 1e6, spanNs / 1e6));
        }
        if (e2e >= 0 && ttft >= 0 && ttft - e2e > TOLERANCE_NS) {
            anomalies.add(String.format(Locale.ROOT, "e2e %.3f ms is shorter than ttft %.3f ms", e2e / 1e6, ttft / 1e6));
        }

        long queueStart;
        if (ttft >= 0) {
            long before = Math.max(0, ttft - queue - prefill);
            long overrun = before + queue + prefill + decode - spanNs;
            if (overrun > 0) {
                // Moved earlier into the time before the engine first: the engine's lengths are kept.
                long moved = Math.min(before, overrun);
                if (overrun > TOLERANCE_NS) {
                    anomalies.add(String.format(Locale.ROOT,
                            "ttft + decode = %.3f ms is longer than the span (%.3f ms): the phases moved %.3f ms earlier",
                            (ttft + decode) / 1e6, spanNs / 1e6, moved / 1e6));
                }
                before -= moved;
            }
            queueStart = start + before;
        } else {
            queueStart = end - decode - prefill - queue;
        }
        long prefillStart = queueStart + queue;
        long decodeStart = prefillStart + prefill;
        long decodeEnd = decodeStart + decode;
        if (decodeEnd > end) {
            // Still past the end: the engine's phases alone are longer than the span.
            decodeEnd = end;
            decodeStart = end - decode;
            prefillStart = decodeStart - prefill;
            queueStart = prefillStart - queue;
        }
        if (queueStart < start) {
            anomalies.add(String.format(Locale.ROOT,
                    "queue + prefill + decode = %.3f ms is longer than the span (%.3f ms): clamped to the span's start",
                    (queue + prefill + decode) / 1e6, spanNs / 1e6));
            queueStart = start;
            prefillStart = Math.max(prefillStart, start);
            decodeStart = Math.max(decodeStart, start);
        }
        // Each edge at or after the one before and no later than the end: a no-op for any span a
        // server sends, and what keeps a phase from ending before it starts for a hostile one.
        queueStart = Math.min(Math.max(queueStart, start), end);
        prefillStart = Math.min(Math.max(prefillStart, queueStart), end);
        decodeStart = Math.min(Math.max(decodeStart, prefillStart), end);
        decodeEnd = Math.min(Math.max(decodeEnd, decodeStart), end);
        List<RequestSlice.Phase> phases = List.of(
                new RequestSlice.Phase(BEFORE_ENGINE, start, queueStart),
                new RequestSlice.Phase(QUEUE, queueStart, prefillStart),
                new RequestSlice.Phase(PREFILL, prefillStart, decodeStart),
                new RequestSlice.Phase(DECODE, decodeStart, decodeEnd));

        AnyValue id = s.attribute(ATTR_REQUEST_ID);
        String requestId = id == null || id.asText().isEmpty() ? s.spanIdHex() : id.asText();
        return new RequestSlice(s, requestId, start, end, phases, count(s, ATTR_PROMPT_TOKENS),
                count(s, ATTR_COMPLETION_TOKENS), anomalies);
    }

    /**
     * An attribute in seconds, as nanoseconds; -1 when absent. Integers are read as seconds
     * too (some exporters drop the fraction of whole numbers); bad values become 0, flagged.
     */
    private static long latencyNs(Span s, String key, List<String> anomalies) {
        AnyValue v = s.attribute(key);
        if (v == null) {
            return -1;
        }
        double seconds = v.asDouble();
        if (Double.isNaN(seconds) || Double.isInfinite(seconds)) {
            anomalies.add(key + " = " + v.asText() + " is not a number of seconds: taken as 0");
            return 0;
        }
        if (seconds < 0) {
            anomalies.add(key + " = " + v.asText() + " is negative: taken as 0");
            return 0;
        }
        if (seconds > MAX_LATENCY_S) {
            // Five of these still add up inside a long, and so do the phase edges placed with them.
            anomalies.add(key + " = " + v.asText() + " s is longer than any request: taken as " + (long) MAX_LATENCY_S
                    + " s");
            return (long) (MAX_LATENCY_S * 1e9);
        }
        return Math.round(seconds * 1e9);
    }

    private static long count(Span s, String key) {
        AnyValue v = s.attribute(key);
        if (v == null) {
            return -1;
        }
        double d = v.asDouble();
        return Double.isNaN(d) ? -1 : (long) d;
    }
}
