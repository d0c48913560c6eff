package dev.vprof.capture;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

/** The JSON dialect of the capture file's small chunks: snake_case, tolerant of added fields. */
final class CaptureJson {
    private CaptureJson() {}

    /** Thread-safe once configured. Unknown fields are ignored so that records may grow at the end. */
    static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** The COUNTERS chunk payload. */
    record PidCounters(int pid, AgentCounters counters) {}
}
