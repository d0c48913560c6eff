package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.timeline.CounterKind;
import dev.vprof.timeline.Phase;
import dev.vprof.timeline.Request;
import dev.vprof.timeline.ServiceSpan;
import dev.vprof.timeline.Timeline;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Requests with their phases, other spans and metric samples on the session's clock; no report, no GPU time. */
class VprofTablesTest {
    @Test
    void requestsSpansAndMetricsAreRowsOnTheSessionsClock() throws Exception {
        Timeline t = new Timeline();
        t.addRequest(new Request("aa", "01", "llm_request", 1_000, 9_000, Map.of("gen_ai.request.id", "r1"),
                List.of(new Phase("queue", 1_000, 2_000), new Phase("prefill", 2_000, 4_000))));
        t.addSpan(new ServiceSpan("aa", "02", "01", "api-server", "POST /v1/chat", 500, 9_500, Map.of()));
        var gauge = t.counter("vllm:num_requests_waiting", CounterKind.GAUGE, "requests");
        gauge.add(1_000, 3);
        gauge.add(2_000, Double.NaN);
        try (Connection c = Databases.withAllTables()) {
            VprofTables.write(c, t, null, ns -> ns - 500);
            assertEquals(List.of(List.of("1", "aa", "01", "llm_request", "500", "8500", "{\"gen_ai.request.id\":\"r1\"}")),
                    Databases.query(c, "SELECT * FROM VPROF_REQUESTS"));
            assertEquals(List.of(Arrays.asList("1", "queue", "500", "1500", null), Arrays.asList("1", "prefill", "1500", "3500", null)),
                    Databases.query(c, "SELECT * FROM VPROF_REQUEST_PHASES ORDER BY start"), "no report: no GPU time");
            assertEquals(List.of(Arrays.asList("aa", "02", "01", "api-server", "POST /v1/chat", "0", "9000", null)),
                    Databases.query(c, "SELECT * FROM VPROF_SPANS"));
            assertEquals(List.of(Arrays.asList("gauge", "requests", "500", "3.0"), Arrays.asList("gauge", "requests", "1500", null)),
                    Databases.query(c, "SELECT kind, unit, timestamp, value FROM VPROF_METRIC_SAMPLES ORDER BY timestamp"));
            assertEquals(List.of(List.of("0")), Databases.query(c, "SELECT count(*) FROM VPROF_DROPS"));
        }
    }
}
