package dev.vprof.diff;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.capture.ReadStats;

/** {@code vprof diff --json}: the {@link DiffResult} in snake_case, indented; keys in docs/diff-json.md. */
public final class DiffJson {
    private DiffJson() {}

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    public static String render(DiffResult r) {
        try {
            return MAPPER.writeValueAsString(r) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the diff could not be written as JSON", e);
        }
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
        try {
            return MAPPER.writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the diff could not be written as JSON", e);
        }
    }
}
