package dev.vprof.timeline;

import java.util.List;
import java.util.Map;

/**
 * One served request, from a span such as vLLM's {@code llm_request}: its trace and span ids (hex),
 * its interval, its attributes, and its phases. Phases lie inside the request; writers clip any that
 * stray outside so the slices still nest.
 */
public record Request(String traceId, String spanId, String name, long startNs, long endNs,
                      Map<String, String> attributes, List<Phase> phases) {
    public Request {
        SpanFields.checkInterval("request", traceId, spanId, startNs, endNs);
        traceId = SpanFields.orEmpty(traceId);
        spanId = SpanFields.orEmpty(spanId);
        name = SpanFields.orEmpty(name);
        attributes = SpanFields.attributes(attributes);
        phases = phases == null ? List.of() : List.copyOf(phases);
    }
}
