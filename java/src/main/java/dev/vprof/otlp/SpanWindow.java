package dev.vprof.otlp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Places spans against a capture window [start, end] in epoch ns. A span that overlaps the
 * window is kept whole (its start or end may lie outside: {@code straddling} counts those);
 * a span wholly before or after is left out of the timeline but reported, never dropped
 * silently: the caller prints {@link Result#describe()} and may keep {@link Result#outside()}.
 */
public final class SpanWindow {
    private SpanWindow() {}

    public record Result(List<Span> inside, List<Span> outside, long before, long after, long straddling,
                         long windowStartNs, long windowEndNs) {
        public Result {
            inside = List.copyOf(inside);
            outside = List.copyOf(outside);
        }

        /** One line for the report; empty when every span fell inside the window. */
        public String describe() {
            if (outside.isEmpty() && straddling == 0) {
                return "";
            }
            return String.format(Locale.ROOT,
                    "%d span(s) outside the capture window (%d ended before it, %d started after it) are not on the "
                            + "timeline; %d span(s) cross its edges and are shown whole",
                    outside.size(), before, after, straddling);
        }
    }

    public static Result filter(List<Span> spans, long windowStartNs, long windowEndNs) {
        if (windowEndNs < windowStartNs) {
            throw new IllegalArgumentException("capture window ends (" + windowEndNs + ") before it starts (" + windowStartNs + ")");
        }
        List<Span> inside = new ArrayList<>();
        List<Span> outside = new ArrayList<>();
        long before = 0;
        long after = 0;
        long straddling = 0;
        for (Span s : spans) {
            if (s.endEpochNs() < windowStartNs) {
                before++;
                outside.add(s);
            } else if (s.startEpochNs() > windowEndNs) {
                after++;
                outside.add(s);
            } else {
                if (s.startEpochNs() < windowStartNs || s.endEpochNs() > windowEndNs) {
                    straddling++;
                }
                inside.add(s);
            }
        }
        return new Result(inside, outside, before, after, straddling, windowStartNs, windowEndNs);
    }
}
