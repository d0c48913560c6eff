package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The free-space warning: said once, before the disk fills, from the rate the file grows at. */
class DiskWatchTest {
    private static final long S = 1_000_000_000L;
    private static final long MIB = 1L << 20;

    @Test
    void aRateThatWouldFillTheDiskBeforeTheDurationEndsIsWarnedAboutOnce() {
        AtomicLong free = new AtomicLong(1024 * MIB);
        StringWriter text = new StringWriter();
        PrintWriter err = new PrintWriter(text, true);
        // 10 minutes of --duration; 10 MiB/s would need 6000 MiB, 1024 MiB are free
        DiskWatch w = new DiskWatch(Path.of("/data/c.vprof"), free::get, 0, 600 * S);
        w.atStart(err);
        assertEquals("", text.toString(), "1 GiB free is not low at the start");
        w.check(4 * S, 40 * MIB, err);
        assertEquals("", text.toString(), "looked at only every 5 s");
        w.check(5 * S, 50 * MIB, err);
        String line = text.toString().strip();
        assertTrue(line.startsWith("vprof: warning: the capture is written at 10.0 MiB/s and needs about 5.8 GiB more "
                + "until --duration ends, but only 1.0 GiB are free on the file system of /data/c.vprof"), line);
        w.check(10 * S, 100 * MIB, err);
        assertEquals(1, text.toString().lines().count(), "said once");
    }

    @Test
    void aRateTheDiskHoldsIsNotWarnedAbout() {
        StringWriter text = new StringWriter();
        PrintWriter err = new PrintWriter(text, true);
        DiskWatch w = new DiskWatch(Path.of("c.vprof"), () -> 100_000 * MIB, 0, 600 * S);
        w.atStart(err);
        w.check(5 * S, 50 * MIB, err); // 6000 MiB needed, 100 000 free
        // without --duration: a minute at 1 MiB/s is 60 MiB, and 300 MiB are free
        DiskWatch open = new DiskWatch(Path.of("c.vprof"), () -> 300 * MIB, 0, 0);
        open.check(5 * S, 5 * MIB, err);
        assertEquals("", text.toString());
        open.check(10 * S, 5 * MIB + 5 * 10 * MIB, err); // 10 MiB/s: 600 MiB a minute
        assertTrue(text.toString().contains("would fill the disk within a minute, but only 300.0 MiB are free"),
                text.toString());
    }

    @Test
    void littleFreeSpaceAtTheStartIsSaidBeforeAnythingIsWritten() {
        StringWriter text = new StringWriter();
        DiskWatch w = new DiskWatch(Path.of("small/x.vprof"), () -> 2 * MIB, 0, 0);
        w.atStart(new PrintWriter(text, true));
        assertTrue(text.toString().startsWith("vprof: warning: only 2.0 MiB free on the file system of small/x.vprof"),
                text.toString());
    }
}
