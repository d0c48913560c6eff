package dev.vprof.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.capture.ReadStats;

/** `vprof report --json`: the {@link Report} in snake_case, indented. */
public final class ReportJson {
    private ReportJson() {}

    public static String render(Report report) {
        return OutputJson.render(report, "the report");
    }

    /** The report with its source's read health as {@code read_health} (docs/report-json.md). */
    public static String render(Report report, ReadStats health) {
        ObjectNode tree = OutputJson.MAPPER.valueToTree(report);
        tree.set("read_health", OutputJson.MAPPER.valueToTree(health.asMap()));
        return OutputJson.render(tree, "the report");
    }
}
