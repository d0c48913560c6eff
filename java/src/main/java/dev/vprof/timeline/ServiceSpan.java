package dev.vprof.timeline;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A span of any other service; it keeps its own name and its nesting (by time containment). */
public record ServiceSpan(String traceId, String spanId, String parentSpanId, String service, String name,
                   long startNs, long endNs, Map<String, String> attributes) {
    public ServiceSpan {
        if (endNs < startNs) {
            throw new IllegalArgumentException("span " + traceId + "/" + spanId + " ends before it starts");
        }
        traceId = traceId == null ? "" : traceId;
        spanId = spanId == null ? "" : spanId;
        parentSpanId = parentSpanId == null ? "" : parentSpanId;
        service = service == null || service.isEmpty() ? "unknown_service" : service;
        name = name == null ? "" : name;
        attributes = attributes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }
}
