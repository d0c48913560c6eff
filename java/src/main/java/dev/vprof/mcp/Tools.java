package dev.vprof.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.analysis.AnalysisJson;
import dev.vprof.analysis.AnalysisText;
import dev.vprof.analysis.Analyses;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ReadStats;
import dev.vprof.diff.CaptureDiff;
import dev.vprof.diff.DiffJson;
import dev.vprof.diff.DiffOptions;
import dev.vprof.diff.DiffResult;
import dev.vprof.names.KernelNames;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Narrowed;
import dev.vprof.report.Report;
import dev.vprof.report.ReportJson;
import dev.vprof.source.CaptureSources;
import dev.vprof.source.InputKind;
import dev.vprof.time.CaptureWindow;
import dev.vprof.trace.TorchTraceOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What each tool does, in the words of the command line it mirrors: each opens its input through
 * {@link CaptureSources} and answers with the JSON that {@code vprof report --json},
 * {@code report --section NAME --json}, {@code vprof diff --json} or SQL over {@code vprof export -o
 * OUT.sqlite} gives, then {@link Bounded} cuts it. docs/mcp.md is the list for the assistant's user.
 */
final class Tools implements AutoCloseable {
    /** How a tool opens its input: the one sniffer and reader, CPU ops kept (for cpu_op_sum). */
    interface Opener {
        CaptureReader open(Path path) throws IOException;
    }

    /** The analyses {@code breakdowns} answers with, as {@code report --section} names them. */
    static final List<String> BREAKDOWNS = List.of(AnalysisText.BREAKDOWN, AnalysisText.PHASES, AnalysisText.RANKS,
            AnalysisText.STRAGGLERS, AnalysisText.LAUNCH_QUEUE);

    /** What {@code open} keeps of each process of the report. */
    private static final List<String> PROCESS_FIELDS = List.of("pid", "ppid", "rank", "command", "kernels", "memcpys",
            "memcpy_bytes", "memsets", "memset_bytes", "markers", "api_calls", "busy_ns_by_device", "source");

    /**
     * The report's {@code top}: every kernel name (and every slow request and phase kernel), so that
     * {@link Bounded} cuts each list with its whole length known and its note ("cut at 10 rows of
     * 240") is true. The report holds every name's figures either way; only the listing grows.
     */
    static final int ALL = Integer.MAX_VALUE;

    private final Opener opener = path -> CaptureSources.open(path,
            new TorchTraceOptions(TorchTraceOptions.DEFAULT_MAX_BYTES, true));
    private final KernelNames names = KernelNames.of(false);
    private final SqlExport sql = new SqlExport();

    /** {@code open}: what the input is and holds, and how it was read. */
    String open(Args a) throws IOException {
        Path path = a.path("path");
        int rows = a.rows();
        InputKind kind = InputKind.of(path);
        ObjectNode report = wholeReport(path);
        ObjectNode answer = Bounded.object();
        answer.put("input", path.toString());
        answer.put("kind", kind.describe());
        for (String f : List.of("complete", "read_health", "warnings", "metadata", "totals", "window", "verdict")) {
            answer.set(f, report.get(f));
        }
        ArrayNode processes = answer.putArray("processes");
        for (JsonNode p : report.path("processes")) {
            ObjectNode kept = processes.addObject();
            for (String f : PROCESS_FIELDS) {
                if (p.has(f)) {
                    kept.set(f, p.get(f));
                }
            }
        }
        answer.put("requests", report.path("requests").size());
        JsonNode steps = report.path("steps");
        answer.put("steps", steps.isObject() ? steps.path("count").asLong() : 0);
        answer.set("top_kernels", report.get("top_kernels"));
        ArrayNode sections = answer.putArray("sections");
        AnalysisText.sections().forEach(sections::add);
        return Bounded.fit(answer, rows);
    }

    /** {@code report_sections}: the named analyses of the whole input. */
    String sections(Args a) throws IOException {
        Path path = a.path("path");
        int rows = a.rows();
        List<String> wanted = a.strings("sections");
        if (wanted.isEmpty()) {
            throw new ToolFailure("report_sections needs sections, one or more of "
                    + String.join(", ", AnalysisText.sections()));
        }
        return analyses(path, wanted, rows);
    }

    /** {@code breakdowns}: idle/compute/communication/memory per rank, step and request phase, and the rest. */
    String breakdowns(Args a) throws IOException {
        Path path = a.path("path");
        return analyses(path, BREAKDOWNS, a.rows());
    }

    private String analyses(Path path, List<String> wanted, int rows) throws IOException {
        for (String name : wanted) {
            if (!AnalysisText.sections().contains(name)) {
                throw new ToolFailure(Text.clip(name) + " is not a section; choose from "
                        + String.join(", ", AnalysisText.sections()));
            }
        }
        ObjectNode answer = Bounded.object();
        answer.put("input", path.toString());
        try (CaptureReader reader = opener.open(path)) {
            ReadStats health = reader.readStats();
            Analyses.Result result = Analyses.run(reader, names);
            ObjectNode sections = answer.putObject("sections");
            for (String name : wanted) {
                sections.set(name, AnalysisJson.render(result, name, rows));
            }
            answer.set("read_health", Bounded.mapper().valueToTree(health.asMap()));
        }
        return Bounded.fit(answer, rows);
    }

    /**
     * {@code top_kernels}: the top kernels by total time, over the input or the GPU work starting in a
     * window or one request's span, as {@code vprof report --window A..B} or {@code --request ID}.
     */
    String topKernels(Args a) throws IOException {
        Path path = a.path("path");
        String window = a.text("window", 64);
        String request = a.text("request", Args.MAX_TEXT);
        int rows = a.rows();
        if (window != null && request != null) {
            throw new ToolFailure("top_kernels takes one of window and request, not both");
        }
        ObjectNode report;
        try (CaptureReader reader = opener.open(path)) {
            ReadStats health = reader.readStats();
            Report shown = CaptureReport.build(reader, ALL, names, List.of());
            if (window != null || request != null) {
                CaptureWindow only;
                try {
                    only = window != null ? Narrowed.toWindow(shown, "window", window)
                            : Narrowed.toRequest(shown, request);
                } catch (IllegalArgumentException e) {
                    throw new ToolFailure(e.getMessage());
                }
                shown = CaptureReport.build(reader, ALL, names, List.of(), only);
            }
            report = tree(ReportJson.render(shown, health));
        }
        ObjectNode answer = Bounded.object();
        answer.put("input", path.toString());
        answer.set("window", report.get("window"));
        answer.put("kernels", report.path("totals").path("kernels").asLong());
        answer.set("top_kernels", report.get("top_kernels"));
        answer.set("read_health", report.get("read_health"));
        return Bounded.fit(answer, rows);
    }

    /** {@code requests}: each request's phases and the GPU time inside them, slowest first, and the latencies. */
    String requests(Args a) throws IOException {
        Path path = a.path("path");
        int rows = a.rows();
        ObjectNode report = wholeReport(path);
        ObjectNode answer = Bounded.object();
        answer.put("input", path.toString());
        if (report.path("requests").isEmpty()) {
            answer.put("note", "the input holds no requests (no llm_request spans); vprof report --spans FILE adds "
                    + "a server's spans to a trace");
        }
        ObjectNode spans = report.path("spans").isObject() ? ((ObjectNode) report.get("spans")).deepCopy() : null;
        if (spans != null) {
            spans.remove("outside_spans");
        }
        answer.set("spans", spans);
        for (String f : List.of("latency", "queue", "slow_phase_kernels", "slowest_requests", "requests",
                "read_health")) {
            answer.set(f, report.get(f));
        }
        return Bounded.fit(answer, rows);
    }

    /** {@code diff}: the diff engine's comparison of two inputs, as {@code vprof diff --json} gives it. */
    String diff(Args a) throws IOException {
        Path base = a.path("base");
        Path next = a.path("new");
        int rows = a.rows();
        ReadStats[] sides = new ReadStats[2];
        DiffResult result = CaptureDiff.run(DiffOptions.of(base, next), (b, n) -> {
            sides[0] = b;
            sides[1] = n;
        });
        ObjectNode answer = tree(DiffJson.render(result, sides[0], sides[1]));
        return Bounded.fit(answer, rows);
    }

    /** {@code sql}: one read-only SELECT over the input's SQLite export. */
    String sql(Args a) throws IOException {
        Path path = a.path("path");
        String query = a.text("query", Args.MAX_QUERY);
        if (query == null) {
            throw new ToolFailure("sql needs the argument query (one SELECT statement; tables: docs/sqlite.md)");
        }
        int rows = a.rows();
        return Bounded.fit(sql.query(path, query, rows, opener), rows);
    }

    /** {@code vprof report --json} of the whole input, every list whole. */
    private ObjectNode wholeReport(Path path) throws IOException {
        try (CaptureReader reader = opener.open(path)) {
            ReadStats health = reader.readStats();
            return tree(ReportJson.render(CaptureReport.build(reader, ALL, names, List.of()), health));
        }
    }

    private static ObjectNode tree(String json) throws IOException {
        return (ObjectNode) Bounded.mapper().readTree(json);
    }

    /** The input schema of a tool taking {@code props} (name to JSON schema), {@code required} of them. */
    static Map<String, Object> schema(Map<String, Object> props, List<String> required) {
        return Map.of("type", "object", "properties", props, "required", required, "additionalProperties", false);
    }

    @Override
    public void close() throws IOException {
        sql.close();
    }
}
