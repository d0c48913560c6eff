package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpanWindowTest {

    @Test
    void spansOutsideTheWindowAreReportedNotSilentlyDropped() {
        Span before = TestSpans.span(1, 1, -1, "s", "before", 0, 10, List.of());
        Span straddle = TestSpans.span(1, 2, -1, "s", "straddle", 5, 100, List.of());
        Span inside = TestSpans.span(1, 3, -1, "s", "inside", 30, 10, List.of());
        Span after = TestSpans.span(1, 4, -1, "s", "after", 500, 10, List.of());
        SpanWindow.Result r = SpanWindow.filter(List.of(before, straddle, inside, after),
                TestSpans.T0 + 20, TestSpans.T0 + 200);
        assertEquals(List.of(straddle, inside), r.inside());
        assertEquals(List.of(before, after), r.outside());
        assertEquals(1, r.before());
        assertEquals(1, r.after());
        assertEquals(1, r.straddling());
        assertTrue(r.describe().contains("2 span(s) outside the capture window"), r.describe());
    }

    @Test
    void allInsideSaysNothing() {
        Span inside = TestSpans.span(1, 3, -1, "s", "inside", 30, 10, List.of());
        assertEquals("", SpanWindow.filter(List.of(inside), TestSpans.T0, TestSpans.T0 + 100).describe());
        assertThrows(IllegalArgumentException.class, () -> SpanWindow.filter(List.of(), 10, 5));
    }
}
