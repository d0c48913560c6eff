package dev.vprof.diff;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.capture.ReadStats;
import dev.vprof.report.OutputJson;

/** {@code vprof diff --json}: the {@link DiffResult} in snake_case, indented; keys in docs/diff-json.md. */
public final class DiffJson {
    private DiffJson() {}

    private static final ObjectMapper MAPPER = OutputJson.MAPPER;

    public static String render(DiffResult r) {
        return OutputJson.render(r, "the diff");
    }

    /**
     * The diff with how each side was read, as {@code read_health: {base, new}} (docs/diff.md);
     * {@code r} null: no verdict was given (a side was read partly), only the read health.
     */
    public static String render(DiffResult r, ReadStats base, ReadStats next) {
        ObjectNode tree = r == null ? MAPPER.createObjectNode().putNull("verdict") : MAPPER.valueToTree(r);
        ObjectNode health = tree.putObject("read_health");
        health.set("base", MAPPER.valueToTree(base.asMap()));
        health.set("new", MAPPER.valueToTree(next.asMap()));
        return OutputJson.render(tree, "the diff");
    }
}
