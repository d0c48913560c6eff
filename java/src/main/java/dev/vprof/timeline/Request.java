package dev.vprof.timeline;

import java.util.Collections;
import java.util.LinkedHashMap;
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
        if (endNs < startNs) {
            throw new IllegalArgumentException("request " + traceId + "/" + spanId + " ends before it starts");
        }
        traceId = traceId == null ? "" : traceId;
        spanId = spanId == null ? "" : spanId;
        name = name == null ? "" : name;
        attributes = attributes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        phases = phases == null ? List.of() : List.copyOf(phases);
    }
}
