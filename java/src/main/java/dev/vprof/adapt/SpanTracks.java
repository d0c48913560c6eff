package dev.vprof.adapt;

import dev.vprof.otlp.Attribute;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.RequestSlice;
import dev.vprof.otlp.Span;
import dev.vprof.timeline.Phase;
import dev.vprof.timeline.Request;
import dev.vprof.timeline.ServiceSpan;
import dev.vprof.timeline.Timeline;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts spans on the timeline: vLLM's {@code llm_request} spans as requests with before-the-engine,
 * queue, prefill and decode children ({@link RequestPhases}; an empty before-the-engine phase is
 * left out, as a request the engine saw at its arrival has none), every other span under its own service with its own
 * name (the writers nest spans by time). Spans are on epoch ns already (the sender's clock).
 */
final class SpanTracks {
    private SpanTracks() {}

    /** Adds {@code spans} to the timeline; returns how many became requests. */
    static int add(Timeline timeline, List<Span> spans) {
        RequestPhases.Split split = RequestPhases.split(spans);
        for (RequestSlice r : split.requests()) {
            Map<String, String> attrs = new LinkedHashMap<>();
            attrs.put("request_id", r.requestId());
            attrs.put("service", r.span().serviceName());
            attributes(r.span(), attrs);
            if (!r.anomalies().isEmpty()) {
                attrs.put("vprof.anomalies", String.join("; ", r.anomalies()));
            }
            List<Phase> phases = new ArrayList<>(4);
            for (RequestSlice.Phase p : r.phases()) {
                if (p.name().equals(RequestPhases.BEFORE_ENGINE) && p.durationNs() == 0) {
                    continue;
                }
                phases.add(new Phase(p.name(), p.startEpochNs(), p.endEpochNs()));
            }
            timeline.addRequest(new Request(r.span().traceIdHex(), r.span().spanIdHex(), r.span().name(),
                    r.startEpochNs(), r.endEpochNs(), attrs, phases));
        }
        for (Span s : split.others()) {
            Map<String, String> attrs = new LinkedHashMap<>();
            attributes(s, attrs);
            timeline.addSpan(new ServiceSpan(s.traceIdHex(), s.spanIdHex(),
                    s.isRoot() ? "" : s.parentSpanIdHex(), s.serviceName(), s.name(),
                    s.startEpochNs(), Math.max(s.startEpochNs(), s.endEpochNs()), attrs));
        }
        return split.requests().size();
    }

    private static void attributes(Span s, Map<String, String> into) {
        for (Attribute a : s.attributes()) {
            into.putIfAbsent(a.key(), a.value().asText());
        }
    }
}
