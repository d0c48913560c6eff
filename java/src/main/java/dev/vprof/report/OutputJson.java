package dev.vprof.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The JSON dialect of the commands' {@code --json} output (report, diff): snake_case keys, indented. */
public final class OutputJson {
    private OutputJson() {}

    /** Thread-safe once configured. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    /** {@code value} (a record or a tree) as one JSON document with a final newline; {@code what} names it in the error. */
    public static String render(Object value, String what) {
        try {
            return MAPPER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(what + " could not be written as JSON", e);
        }
    }
}
