package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The live progress line: a rate that holds still (TerminalProgressTest: only on a terminal). */
class ProgressTest {
    private static final long MS = 1_000_000L;

    /**
     * 40,000 records a second reaching the front end as one 20,000-record buffer every 500 ms,
     * redrawn every 500 ms at a phase that does not line up with the buffers: the rate over one
     * redraw alternates between 0 and 80k. Once the window is full the shown rate stays within
     * 15% of 40k.
     */
    @Test
    void theLiveRateHoldsStillWhenRecordsArriveInBursts() {
        Progress p = new Progress(new PrintWriter(new StringWriter()));
        long records = 0;
        long t0 = 1_000_000_000L;
        for (int redraw = 0; redraw < 40; redraw++) {
            long now = t0 + redraw * 500L * MS;
            // Buffers land at 250 ms + k * 500 ms, except that every other one is late by 300 ms.
            long buffers = 0;
            for (long at = 250 * MS; at <= now - t0; at += 500 * MS) {
                boolean late = (at / (500 * MS)) % 2 == 1;
                if (at + (late ? 300 * MS : 0) <= now - t0) {
                    buffers++;
                }
            }
            records = buffers * 20_000;
            double rate = p.rate(records, now);
            if (now - t0 >= Progress.RATE_WINDOW_NS + 500 * MS) {
                assertEquals(40_000, rate, 40_000 * 0.15, "redraw " + redraw + " shows " + rate + " records/s");
            }
        }
    }
}
