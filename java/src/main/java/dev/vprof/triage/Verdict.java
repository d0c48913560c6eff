package dev.vprof.triage;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What the metrics say is wrong, in the order triage weighs them (first that holds wins). */
public enum Verdict {
    /** KV-cache blocks nearly all used, sequences preempted. */
    KV_CACHE_PRESSURE("KV-cache pressure"),
    /** Requests wait for a slot: arrivals exceed capacity (past the knee). */
    QUEUE_BOUND("queue-bound"),
    /** A notable share of requests end in {@code finished_reason="abort"}. */
    CLIENTS_TIMING_OUT("clients timing out"),
    /** TTFT over target and prefill, not queueing, is most of it. */
    PREFILL_BOUND("prefill-bound"),
    /** Time between output tokens over target. */
    DECODE_BOUND("decode-bound"),
    /** None of the above. */
    HEALTHY("healthy"),
    /** The endpoint answers but has no vLLM metrics. */
    NOT_VLLM("no vLLM metrics");

    private final String title;

    Verdict(String title) {
        this.title = title;
    }

    /** The name programs read: "queue_bound" (in triage's and the report's JSON). */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Words for a person: "queue-bound". */
    public String title() {
        return title;
    }
}
