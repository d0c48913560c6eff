package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The command line's one size parser and its duration parser: every spelling they accept, and their refusals. */
class UnitsTest {
    @Test
    void sizesAreBinaryMultiplesInEverySpellingEitherOldParserTook() {
        assertEquals(65536, Units.size("--x", "65536"));
        assertEquals(256L << 10, Units.size("--x", "256k"));
        assertEquals(64L << 20, Units.size("--x", "64m"));
        assertEquals(1L << 30, Units.size("--x", "1g"));
        // b and ib suffixes, any case, surrounding spaces
        assertEquals(64L << 20, Units.size("--x", "64MB"));
        assertEquals(64L << 20, Units.size("--x", "64MiB"));
        assertEquals(16L << 10, Units.size("--x", " 16kib "));
        assertEquals(512, Units.size("--x", "512b"));
        // a space between the number and its unit (which --otlp-max-body accepted)
        assertEquals(16L << 20, Units.size("--x", "16 m"));
        assertEquals(16L << 20, Units.size("--x", "16 MiB"));
        assertEquals(16L << 20, Units.size("--x", "16 mb"));
    }

    @Test
    void aSizeThatIsNotOneNamesTheOption() {
        for (String bad : new String[] {"", "m", "0", "-1k", "16x", "1.5m", "16m b", "99999999999g"}) {
            CliException e = assertThrows(CliException.class, () -> Units.size("--ring-size", bad), bad);
            assertTrue(e.getMessage().startsWith("--ring-size '" + bad + "' is not a size"), e.getMessage());
        }
    }

    @Test
    void durationsTakeTheirUnitsAndABareNumberIsSeconds() {
        assertEquals(Duration.ofMillis(500), Units.duration("--d", "500ms"));
        assertEquals(Duration.ofNanos(250_000), Units.duration("--d", "250us"));
        assertEquals(Duration.ofSeconds(10), Units.duration("--d", "10s"));
        assertEquals(Duration.ofMinutes(2), Units.duration("--d", "2m"));
        assertEquals(Duration.ofHours(1), Units.duration("--d", "1h"));
        assertEquals(Duration.ofSeconds(3), Units.duration("--d", "3"));
        assertTrue(assertThrows(CliException.class, () -> Units.duration("--d", "0s")).getMessage().contains("must be positive"));
        assertTrue(assertThrows(CliException.class, () -> Units.duration("--d", "soon")).getMessage().contains("is not a duration"));
    }
}
