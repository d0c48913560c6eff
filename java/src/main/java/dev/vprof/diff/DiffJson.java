package dev.vprof.diff;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

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
}
