package dev.vprof.timeline;

import java.util.Map;

/** A span of any other service; it keeps its own name and its nesting (by time containment). */
public record ServiceSpan(String traceId, String spanId, String parentSpanId, String service, String name,
                   long startNs, long endNs, Map<String, String> attributes) {
    public ServiceSpan {
        SpanFields.checkInterval("span", traceId, spanId, startNs, endNs);
        traceId = SpanFields.orEmpty(traceId);
        spanId = SpanFields.orEmpty(spanId);
        parentSpanId = SpanFields.orEmpty(parentSpanId);
        service = service == null || service.isEmpty() ? "unknown_service" : service;
        name = SpanFields.orEmpty(name);
        attributes = SpanFields.attributes(attributes);
    }
}
