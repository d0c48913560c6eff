package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What vprof watch and vprof dump refuse before anything starts: one sentence each, exit 2. */
class WatchOptionsTest {
    private static void refused(String expect, String... args) {
        Cli.Result r = Cli.run(args);
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.err());
        assertTrue(r.err().contains(expect), "'" + expect + "' in: " + r.err());
        assertEquals(1, r.err().strip().lines().count(), "one sentence: " + r.err());
    }

    @Test
    void badConditionsAndOptionsAreOneSentence(@TempDir Path dir) {
        String self = Long.toString(ProcessHandle.current().pid());
        String d = dir.resolve("w").toString();
        refused("does not parse", "watch", "--pid", self, "--dir", d, "--metrics", "localhost:1", "--when", "ttft high");
        refused("unknown metric 'gpu_temperature'", "watch", "--pid", self, "--dir", d, "--metrics", "localhost:1",
                "--when", "gpu_temperature > 80");
        refused("500ms or 0.5s", "watch", "--pid", self, "--dir", d, "--metrics", "localhost:1", "--when", "ttft_p99 > 500");
        refused("add --metrics URL", "watch", "--pid", self, "--dir", d, "--when", "num_requests_waiting > 20");
        refused("--armed 0%", "watch", "--pid", self, "--dir", d, "--armed", "0%");
        refused("longer than --keep", "watch", "--pid", self, "--dir", d, "--keep", "10s", "--before", "20s");
        refused("--pid PID, or --launch -- CMD", "watch");
        refused("no process 2147483646", "watch", "--pid", "2147483646", "--dir", d);
        refused("no running vprof watch records pid", "dump", self);
    }

    @Test
    void theHelpListsTheExitCodesAndRunnableExamples() {
        for (String cmd : List.of("watch", "dump")) {
            Cli.Result r = Cli.run(cmd, "--help");
            assertEquals(0, r.code());
            assertTrue(r.out().contains("Exit codes:") && r.out().contains("Examples:"), r.out());
        }
    }
}
