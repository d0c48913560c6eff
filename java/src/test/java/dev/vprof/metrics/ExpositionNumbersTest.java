package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Values and timestamps as the two formats spell them; a token that is no number is flagged, not thrown. */
class ExpositionNumbersTest {
    private final ExpositionNumbers numbers = new ExpositionNumbers();

    private double value(String token) {
        // Parsed inside a longer string, as the parser does: only [from, to) counts.
        String line = "x " + token + " y";
        return numbers.parse(line, 2, 2 + token.length());
    }

    @Test
    void floatsReadAsJavaReadsThem() {
        for (String t : new String[] {"0", "-0.0", "1.5", "+3.5", ".5", "5.", "1e-05", "1.7976931348623157e308"}) {
            assertEquals(Double.parseDouble(t), value(t), t);
            assertFalse(numbers.bad, t);
        }
    }

    @Test
    void theSpecialValuesInAnyCaseAndNothingLikeThem() {
        assertEquals(Double.POSITIVE_INFINITY, value("+Inf"));
        assertEquals(Double.POSITIVE_INFINITY, value("inf"));
        assertEquals(Double.POSITIVE_INFINITY, value("Infinity"));
        assertEquals(Double.NEGATIVE_INFINITY, value("-INF"));
        assertTrue(Double.isNaN(value("NaN")));
        assertFalse(numbers.bad, "NaN is a value");
        assertTrue(Double.isNaN(value("nan")));
        assertFalse(numbers.bad);
        for (String t : new String[] {"-NaN", "+NaN", "Info", "In", "-"}) {
            value(t);
            assertTrue(numbers.bad, t);
        }
    }

    @Test
    void whatDoubleParseDoubleWouldTakeButTheFormatsDoNot() {
        for (String t : new String[] {"1d", "1f", "0x1p3", "1_000", "", "1,5", "abc"}) {
            assertTrue(Double.isNaN(value(t)), t);
            assertTrue(numbers.bad, t);
        }
        assertTrue(Double.isNaN(numbers.parse(" 1", 0, 2)));
        assertTrue(numbers.bad, "a blank inside the token");
        value("2");
        assertFalse(numbers.bad, "the flag is reset by the next parse");
    }

    @Test
    void labelNumbersAreNaNWhenTheyAreNone() {
        assertEquals(0.25, numbers.labelNumber("0.25"));
        assertEquals(Double.POSITIVE_INFINITY, numbers.labelNumber("+Inf"));
        assertTrue(Double.isNaN(numbers.labelNumber("quarter")));
        assertTrue(Double.isNaN(numbers.labelNumber("")));
    }

    private static long millis(String t) {
        return ExpositionNumbers.millisToNanos("@" + t + "@", 1, 1 + t.length());
    }

    @Test
    void millisecondTimestampsAreIntegersToNanoseconds() {
        assertEquals(1_500_000_000L, millis("1500"));
        assertEquals(1_727_319_614_563_000_000L, millis("1727319614563"));
        assertEquals(-5_000_000L, millis("-5"));
        assertEquals(7_000_000L, millis("+7"));
        for (String t : new String[] {"1.5", "", "+", "1e3", "12a"}) {
            assertEquals(Sample.NO_TIMESTAMP, millis(t), t);
        }
    }

    @Test
    void millisecondsPastTheNanosecondRangeAreKeptAtItsEnds() {
        // Long.MAX_VALUE ns is 9223372036854.775807 ms: the last whole millisecond fits, the next does not.
        assertEquals(9_223_372_036_854_000_000L, millis("9223372036854"));
        assertEquals(Long.MAX_VALUE, millis("9223372036855"));
        assertEquals(Long.MAX_VALUE, millis("99999999999999999999999"));
        assertEquals(Long.MIN_VALUE + 1, millis("-99999999999999999999999"), "never NO_TIMESTAMP");
    }

    private long seconds(String t) {
        return numbers.secondsToNanos("@" + t + "@", 1, 1 + t.length());
    }

    @Test
    void secondTimestampsAreExactToTheNanosecond() {
        assertEquals(1_500_000_000L, seconds("1.5"));
        assertEquals(1_700_000_000_123_456_789L, seconds("1700000000.123456789"));
        assertEquals(1_000_000_001L, seconds("1.0000000019"), "digits past the ninth are cut, not rounded");
        assertEquals(-500_000_000L, seconds("-0.5"));
        assertEquals(2_000_000_000L, seconds("2"));
        assertEquals(500_000_000L, seconds(".5"));
        assertEquals(1_700_000_000_000_000_000L, seconds("1.7e9"), "the exponent form goes through a double");
    }

    @Test
    void secondTimestampsPastTheRangeAreKeptAtItsEndsAndWordsAreNone() {
        assertEquals(Long.MAX_VALUE, seconds("16725225600"), "year 2500");
        assertEquals(Long.MAX_VALUE, seconds("1e400"));
        assertEquals(Long.MIN_VALUE + 1, seconds("-1e400"));
        for (String t : new String[] {"NaN", "Inf", "+Inf", ".", "", "1.5s", "0x10"}) {
            assertEquals(Sample.NO_TIMESTAMP, seconds(t), t);
        }
    }
}
