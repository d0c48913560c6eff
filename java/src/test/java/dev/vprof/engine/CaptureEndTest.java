package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The capture's last line says why it ended, and how early when it ended before --duration. */
class CaptureEndTest {
    private static final long S = 1_000_000_000L;

    @Test
    void targetsThatExitBeforeTheDurationAreSaidToHaveEndedItEarly() {
        // attach --duration 1h whose target exited after 385 s
        assertEquals("vprof: the capture ended after 6 min 25 s: every process it captured exited, 53 min 35 s before "
                        + "--duration 1 h would have ended it",
                CaptureEnd.line(null, CaptureEnd.Cause.TARGETS_EXITED, 385 * S, 3600 * S, null));
    }

    @Test
    void eachStopIsNamed() {
        assertEquals("vprof: the capture ended after 10.0 s: --duration 10.0 s reached",
                CaptureEnd.line("duration", CaptureEnd.Cause.TARGETS_EXITED, 10 * S, 10 * S, null));
        assertEquals("vprof: the capture ended after 2.5 s: Ctrl-C (SIGINT)",
                CaptureEnd.line("SIGINT", CaptureEnd.Cause.TARGETS_EXITED, 2500_000_000L, 0, null));
        assertEquals("vprof: the capture ended after 250ms: every capture range was done (--capture-range-end)",
                CaptureEnd.line(null, CaptureEnd.Cause.RANGES_DONE, 250_000_000L, 0, null));
        assertEquals("vprof: the capture ended after 1.0 s: the command exited (killed by signal 9)",
                CaptureEnd.line(null, CaptureEnd.Cause.COMMAND_EXITED, S, 0, 137));
        assertEquals("vprof: the capture ended after 1.0 s: the command exited (status 0)",
                CaptureEnd.line(null, CaptureEnd.Cause.COMMAND_EXITED, S, 0, 0));
    }

    @Test
    void theFeedsPartOfTheProgressLineNamesScrapesGapsAndSpans() {
        CaptureFeeds.Counts c = new CaptureFeeds.Counts(12, 1, 0, 90, 0, 0, 10, 0, 0, 0);
        assertEquals(", 12 scrapes (1 gap), 100 spans", Progress.feedsPart(c));
        assertEquals("", Progress.feedsPart(CaptureFeeds.Counts.NONE));
    }
}
