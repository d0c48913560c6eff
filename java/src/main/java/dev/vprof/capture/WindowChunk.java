package dev.vprof.capture;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The capture window: from the moment the capture file was created to the moment the capture
 * ended, in epoch ns, plus what the capture's feeds counted (scrapes, gaps, spans). Metric
 * samples and spans are placed against it (SpanWindow, triage on the first and last scrape).
 *
 * <p>Where it is stored: the start is known when the file is created, so the METADATA options
 * carry {@value #START_KEY}; the end is only known at the end, so a WINDOW chunk
 * ({@link CaptureFormat#KIND_WINDOW}, JSON) written just before the index carries both keys and
 * the counts. {@link CaptureReader#window()} reads it; the reader also merges its two keys into
 * {@code metadata().options()}, so that the metadata shows the whole window. A file whose writer
 * died has no WINDOW chunk: the window then has the start, with {@link #endEpochNs()} = -1.
 *
 * @param counts the feeds' counters by name (scrapes, gaps, spans_received, ...); may be empty
 */
public record WindowChunk(long startEpochNs, long endEpochNs, Map<String, Long> counts) {
    public static final String START_KEY = "window_start_epoch_ns";
    public static final String END_KEY = "window_end_epoch_ns";
    /** The count of {@code --trigger} POSTs that failed; absent when none did. */
    public static final String TRIGGER_FAILURES_KEY = "trigger_failures";

    public WindowChunk {
        counts = Map.copyOf(counts);
    }

    /** Whether the end is known (the capture finished its file). */
    public boolean hasEnd() {
        return endEpochNs >= 0;
    }

    /** Whether {@code epochNs} lies in [start, end] (an unknown end is open). */
    public boolean contains(long epochNs) {
        return epochNs >= startEpochNs && (!hasEnd() || epochNs <= endEpochNs);
    }

    /** The last WINDOW payload that decodes, if any. */
    static Optional<WindowChunk> last(List<byte[]> payloads) {
        for (int i = payloads.size() - 1; i >= 0; i--) {
            try {
                Map<String, Long> m = CaptureJson.MAPPER.readValue(payloads.get(i),
                        new TypeReference<LinkedHashMap<String, Long>>() { });
                Long start = m.remove(START_KEY);
                Long end = m.remove(END_KEY);
                if (start != null && end != null) {
                    return Optional.of(new WindowChunk(start, end, m));
                }
            } catch (IOException e) {
                // A damaged or foreign chunk: fall back to an earlier one.
            }
        }
        return Optional.empty();
    }

    /** The WINDOW chunk's payload. */
    public byte[] toJson() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put(START_KEY, startEpochNs);
        m.put(END_KEY, endEpochNs);
        m.putAll(counts);
        try {
            return CaptureJson.MAPPER.writeValueAsBytes(m);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The window of a capture: the last intact WINDOW chunk, else the start from the metadata
     * (end -1), else empty (a file written before windows were recorded).
     */
    static Optional<WindowChunk> read(CaptureReader reader) {
        Optional<WindowChunk> last = last(reader.payloads(CaptureFormat.KIND_WINDOW));
        if (last.isPresent()) {
            return last;
        }
        return reader.metadata().map(md -> md.options() == null ? null : md.options().get(START_KEY))
                .flatMap(s -> {
                    try {
                        return Optional.of(new WindowChunk(Long.parseLong(s), -1, Map.of()));
                    } catch (NumberFormatException e) {
                        return Optional.empty();
                    }
                });
    }
}
