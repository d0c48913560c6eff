package dev.vprof.export.sqlite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.report.Report;
import dev.vprof.timeline.CounterTrack;
import dev.vprof.timeline.Phase;
import dev.vprof.timeline.Request;
import dev.vprof.timeline.ServiceSpan;
import dev.vprof.timeline.Timeline;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/**
 * What Nsight Systems has no table for: the requests in the window and their phases with the GPU
 * time of each as {@code vprof report} computes it ({@code VPROF_REQUESTS}, {@code VPROF_REQUEST_PHASES}),
 * the other spans ({@code VPROF_SPANS}), the metric tracks ({@code VPROF_METRIC_SAMPLES}), and what
 * each capture range lost ({@code VPROF_DROPS}), all from the layout and the report.
 */
final class VprofTables {
    private static final ObjectMapper JSON = new ObjectMapper();

    private VprofTables() {}

    /** {@code time}: epoch ns to ns since the session start. */
    static void write(Connection db, Timeline layout, Report report, LongUnaryOperator time) throws SQLException {
        requests(db, layout, report, time);
        spans(db, layout, time);
        counters(db, layout, time);
        drops(db, report);
    }

    static void requests(Connection db, Timeline layout, Report report, LongUnaryOperator time) throws SQLException {
        Map<String, Report.RequestSummary> summaries = new HashMap<>();
        if (report != null) {
            for (Report.RequestSummary s : report.requests()) {
                summaries.putIfAbsent(s.traceId() + "/" + s.startNs(), s);
            }
        }
        try (PreparedStatement req = db.prepareStatement("INSERT INTO VPROF_REQUESTS "
                + "(id, traceId, spanId, name, start, end, attributes) VALUES (?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement ph = db.prepareStatement("INSERT INTO VPROF_REQUEST_PHASES "
                     + "(requestId, phase, start, end, gpuNs) VALUES (?, ?, ?, ?, ?)")) {
            int id = 0;
            for (Request r : layout.requests()) {
                id++;
                req.setInt(1, id);
                req.setString(2, r.traceId());
                req.setString(3, r.spanId());
                req.setString(4, r.name());
                req.setLong(5, time.applyAsLong(r.startNs()));
                req.setLong(6, time.applyAsLong(r.endNs()));
                req.setString(7, json(r.attributes()));
                req.executeUpdate();
                Report.RequestSummary s = summaries.get(r.traceId() + "/" + r.startNs());
                for (Phase p : r.phases()) {
                    ph.setInt(1, id);
                    ph.setString(2, p.name());
                    ph.setLong(3, time.applyAsLong(p.startNs()));
                    ph.setLong(4, time.applyAsLong(p.endNs()));
                    Long gpu = s == null ? null : switch (p.name()) {
                        case "queue" -> s.gpuNsInQueue();
                        case "prefill" -> s.gpuNsInPrefill();
                        case "decode" -> s.gpuNsInDecode();
                        default -> null;
                    };
                    if (gpu == null) {
                        ph.setNull(5, Types.INTEGER);
                    } else {
                        ph.setLong(5, gpu);
                    }
                    ph.executeUpdate();
                }
            }
        }
    }

    static void spans(Connection db, Timeline layout, LongUnaryOperator time) throws SQLException {
        try (PreparedStatement st = db.prepareStatement("INSERT INTO VPROF_SPANS (traceId, spanId, parentSpanId, "
                + "service, name, start, end, attributes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (ServiceSpan s : layout.spans()) {
                st.setString(1, s.traceId());
                st.setString(2, s.spanId());
                st.setString(3, s.parentSpanId());
                st.setString(4, s.service());
                st.setString(5, s.name());
                st.setLong(6, time.applyAsLong(s.startNs()));
                st.setLong(7, time.applyAsLong(s.endNs()));
                st.setString(8, json(s.attributes()));
                st.executeUpdate();
            }
        }
    }

    static void counters(Connection db, Timeline layout, LongUnaryOperator time) throws SQLException {
        try (PreparedStatement st = db.prepareStatement("INSERT INTO VPROF_METRIC_SAMPLES (name, kind, unit, "
                + "timestamp, value) VALUES (?, ?, ?, ?, ?)")) {
            for (CounterTrack c : layout.counters()) {
                for (int i = 0, n = c.size(); i < n; i++) {
                    double v = c.value(i);
                    st.setString(1, c.name());
                    st.setString(2, c.kind().name().toLowerCase(Locale.ROOT));
                    st.setString(3, c.unit());
                    st.setLong(4, time.applyAsLong(c.time(i)));
                    if (Double.isFinite(v)) {
                        st.setDouble(5, v);
                    } else {
                        st.setNull(5, Types.REAL); // an empty interval: no value
                    }
                    st.addBatch();
                }
                st.executeBatch();
            }
        }
    }

    /** What each capture range lost or kept off the timeline, by reason, as the report counts it. */
    static void drops(Connection db, Report report) throws SQLException {
        if (report == null) {
            return;
        }
        try (PreparedStatement st = db.prepareStatement("INSERT INTO VPROF_DROPS (globalPid, pid, rangeIndex, "
                + "rangeSource, reason, count) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (Report.RangeSummary r : report.ranges()) {
                Map<String, Long> reasons = new LinkedHashMap<>();
                reasons.put("ring_full", r.ringDrops());
                reasons.put("ring_full_kernels", r.ringDropsKernels());
                reasons.put("cupti", r.cuptiDrops());
                reasons.put("zero_timestamp_kernels", r.zeroTimestampKernels());
                if (r.fidelity() != null) {
                    reasons.put("kernels_missing", r.fidelity().kernelsMissing());
                    reasons.put("clipped", r.fidelity().clipped());
                    r.fidelity().rejected().forEach((k, v) -> reasons.put("rejected_" + k, v));
                }
                for (Map.Entry<String, Long> e : reasons.entrySet()) {
                    if (e.getValue() == null || e.getValue() == 0) {
                        continue;
                    }
                    st.setLong(1, NsysSchema.globalPid(r.pid()));
                    st.setInt(2, r.pid());
                    st.setInt(3, r.index());
                    st.setString(4, r.source());
                    st.setString(5, e.getKey());
                    st.setLong(6, e.getValue());
                    st.executeUpdate();
                }
            }
        }
    }

    private static String json(Map<String, String> attributes) {
        if (attributes == null || attributes.isEmpty()) {
            return null;
        }
        try {
            return JSON.writeValueAsString(attributes);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
