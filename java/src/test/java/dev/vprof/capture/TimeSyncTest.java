package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** adjtimex through FFM against the same call made by a small C program compiled here (the oracle). */
class TimeSyncTest {
    @Test
    void readsWhatTheKernelSays() throws IOException, InterruptedException {
        TimeSync t = TimeSync.read().orElseThrow();
        String src = "#include <stdio.h>\n#include <sys/timex.h>\nint main(void){struct timex x={0};int r=adjtimex(&x);"
                + "printf(\"%d %d %ld\\n\",r,x.status,x.maxerror);return 0;}\n";
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("timesync");
        java.nio.file.Files.writeString(dir.resolve("t.c"), src);
        Process cc = new ProcessBuilder("gcc", "-o", dir.resolve("t").toString(), dir.resolve("t.c").toString())
                .redirectErrorStream(true).start();
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, new String(cc.getInputStream().readAllBytes()));
        Process p = new ProcessBuilder(dir.resolve("t").toString()).start();
        String[] f = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip().split(" ");
        p.waitFor();
        assertEquals(Integer.parseInt(f[0]), t.state());
        assertEquals(Integer.parseInt(f[1]), t.status());
        // maxerror grows by 500 ppm while unsynchronised and is capped at 16 s: allow for the time between the reads
        assertTrue(Math.abs(Long.parseLong(f[2]) - t.maxErrorUs()) <= 1_000_000, f[2] + " vs " + t.maxErrorUs());
        assertEquals(t.state() != 5 && (t.status() & 0x40) == 0, t.synchronised());
    }
}
