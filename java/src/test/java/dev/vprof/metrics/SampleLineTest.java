package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A sample line into name, labels, value, timestamp and exemplar, before any family is known. */
class SampleLineTest {
    private ExpositionCursor cursor;

    private SampleLine.Parsed parse(String line, boolean openMetrics) {
        cursor = new ExpositionCursor(line);
        cursor.nextLine();
        cursor.skipBlanks();
        return new SampleLine(cursor, new ExpositionNumbers(), openMetrics).parse();
    }

    private String onlyError() {
        assertEquals(1, cursor.errors.size(), cursor.errors.toString());
        return cursor.errors.getFirst().message();
    }

    @Test
    void aFullLineInEachFormat() {
        SampleLine.Parsed text = parse("  http_requests_total{code=\"200\",method=\"get\"}  1027 1395066363000", false);
        assertEquals(List.of(), cursor.errors);
        assertEquals(new SampleLine.Parsed("http_requests_total", Labels.of("method", "get", "code", "200"), 1027,
                1_395_066_363_000_000_000L, null), text);

        SampleLine.Parsed om = parse("foo_total{a=\"b\"} 17.5 1520879607.789 # {trace_id=\"KOO5S4vxi0o\"} 0.67 1520879602.5",
                true);
        assertEquals(List.of(), cursor.errors);
        assertEquals(1_520_879_607_789_000_000L, om.timestampNs(), "OpenMetrics timestamps are seconds");
        assertEquals(new Exemplar(Labels.of("trace_id", "KOO5S4vxi0o"), 0.67, 1_520_879_602_500_000_000L), om.exemplar());
        assertEquals(17.5, om.value());
    }

    @Test
    void aNameMayStandQuotedInsideTheBraces() {
        SampleLine.Parsed p = parse("{\"my.metric\", \"a b\"=\"1\"} 2", false);
        assertEquals(List.of(), cursor.errors);
        assertEquals("my.metric", p.name());
        assertEquals(Labels.of("a b", "1"), p.labels());
        assertNull(parse("m{\"other\"} 1", false));
        assertTrue(onlyError().contains("metric name given twice"));
        assertNull(parse("{a=\"1\"} 1", false));
        assertEquals("sample has no metric name", onlyError());
    }

    @Test
    void labelValuesUndoTheirEscapesAndTheFormatsDifferOnTheRest() {
        SampleLine.Parsed p = parse("m{path=\"C:\\\\x\",say=\"\\\"hi\\\"\",note=\"a\\nb\"} 1", false);
        assertEquals(Labels.of("path", "C:\\x", "say", "\"hi\"", "note", "a\nb"), p.labels());
        assertNull(parse("m{a=\"x\\ty\"} 1", false), "Prometheus text refuses other escapes");
        assertTrue(onlyError().startsWith("invalid escape '\\t'"));
        assertEquals("x\\ty", parse("m{a=\"x\\ty\"} 1", true).labels().get("a"),
                "OpenMetrics keeps them as written");
    }

    /** Each case's line, {@code c[0]}, is refused as Prometheus text with exactly the error {@code c[1]}. */
    private void assertRefused(String[][] cases) {
        for (String[] c : cases) {
            assertNull(parse(c[0], false), c[0]);
            assertEquals(c[1], onlyError(), c[0]);
        }
    }

    @Test
    void eachBrokenLabelSetGetsItsOwnError() {
        String[][] cases = {
            {"m{a=\"1\" 1", "expected ',' or '}' after the value of label a"},
            {"m{a=\"1", "label value is not closed with '\"'"},
            {"m{a=\"1\\", "label value is not closed with '\"'"},
            {"m{a", "expected '=' after label name a"},
            {"m{a=1} 1", "value of label a must be in double quotes"},
            {"m{1a=\"1\"} 1", "invalid label name starting at '1' (names match [a-zA-Z_][a-zA-Z0-9_]*)"},
            {"m{a=\"1\",a=\"2\"} 1", "a label name appears twice in one label set"},
            {"m{a=\"1\",", "label set is not closed with '}'"},
        };
        assertRefused(cases);
        assertEquals(Labels.of("a", "1"), parse("m{ a = \"1\" , } 1", false).labels(), "a trailing comma is fine");
        assertEquals(Labels.EMPTY, parse("m{} 1", false).labels());
    }

    @Test
    void valuesAndTimestampsThatDoNotReadAreErrors() {
        String[][] cases = {
            {"m", "no value after m"},
            {"m{a=\"1\"}", "no value after m"},
            {"m 1d", "invalid value '1d' for m (a float, NaN, +Inf or -Inf)"},
            {"m$ 1", "unexpected character '$' in metric name m"},
            {"m 1 2 3", "unexpected text after the value of m"},
            {"m 1 12.5", "invalid timestamp '12.5' for m (Prometheus text timestamps are integer milliseconds since the epoch)"},
            {"7up 1", "expected a metric name, found '7'"},
        };
        assertRefused(cases);
        assertNull(parse("m 1 soon", true));
        assertTrue(onlyError().contains("OpenMetrics timestamps are seconds"));
        assertEquals(Sample.NO_TIMESTAMP, parse("m -Inf", false).timestampNs());
    }

    @Test
    void aBrokenExemplarIsAnErrorButTheSampleIsKept() {
        String[][] cases = {
            {"c_total 1 #{a=\"b\"} 1", "expected ' # {labels} value' for an exemplar"},
            {"c_total 1 # a 1", "exemplar must start with a label set in braces"},
            {"c_total 1 # {a=\"b\"}", "exemplar {a=\"b\"} has no value"},
            {"c_total 1 # {a=\"b\"} x", "invalid exemplar value 'x'"},
            {"c_total 1 # {a=\"b\"} 1 later", "invalid exemplar timestamp 'later' (seconds since the epoch)"},
        };
        for (String[] c : cases) {
            SampleLine.Parsed p = parse(c[0], true);
            assertEquals(c[1], onlyError(), c[0]);
            assertNotNull(p, c[0]);
            assertEquals(1.0, p.value(), c[0]);
            assertNull(p.exemplar(), c[0]);
        }
    }

    @Test
    void anExemplarsLabelsAreAtMost128Characters() {
        String atLimit = "t".repeat(SampleLine.MAX_EXEMPLAR_LABEL_CHARS - 1);
        assertNotNull(parse("c_total 1 # {a=\"" + atLimit + "\"} 1", true).exemplar(), "1 + 127 characters");
        assertEquals(List.of(), cursor.errors);
        SampleLine.Parsed over = parse("c_total 1 # {a=\"" + atLimit + "t\"} 1", true);
        assertEquals("exemplar label set is 129 characters; OpenMetrics allows 128", onlyError());
        assertNull(over.exemplar());
    }
}
