package dev.vprof.otlp;

import java.util.List;

/**
 * One inference request on the timeline: the request's own slice (its llm_request span) with
 * before-the-engine, queue, prefill and decode children, derived by {@link RequestPhases}.
 *
 * @param requestId        gen_ai.request.id, or the span id in hex when the span has none
 * @param promptTokens     gen_ai.usage.prompt_tokens, -1 when absent
 * @param completionTokens gen_ai.usage.completion_tokens, -1 when absent
 * @param anomalies        what was inconsistent or missing and how it was handled; empty when clean
 */
public record RequestSlice(Span span, String requestId, long startEpochNs, long endEpochNs, List<Phase> phases,
                           long promptTokens, long completionTokens, List<String> anomalies) {

    public RequestSlice {
        phases = List.copyOf(phases);
        anomalies = List.copyOf(anomalies);
    }

    /** A child slice: "before_engine", "queue", "prefill" or "decode" ({@link RequestPhases#PHASES}). */
    public record Phase(String name, long startEpochNs, long endEpochNs) {
        public long durationNs() {
            return endEpochNs - startEpochNs;
        }
    }

    public Phase phase(String name) {
        for (Phase p : phases) {
            if (p.name.equals(name)) {
                return p;
            }
        }
        return null;
    }

    public boolean consistent() {
        return anomalies.isEmpty();
    }
}
