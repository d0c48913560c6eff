package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code doctor --pid} names the pid and the CUPTI the process has actually mapped, not a search's guess. */
@Timeout(120)
class DoctorPidTest {
    @TempDir
    Path dir;

    @Test
    void doctorPidNamesThePidAndTheCuptiItMapped() throws Exception {
        E2e e2e = E2e.nativeParts();
        Process target = e2e.startTarget(dir.resolve("t.log"), "--duration", "30s", "--step-us", "2000");
        try {
            E2e.awaitRegion(target.pid());
            // the oracle: the process's own maps
            Optional<String> mapped = Arrays.stream(Files.readString(Path.of("/proc/" + target.pid() + "/maps")).split("\n"))
                    .map(l -> l.indexOf(" /") < 0 ? "" : l.substring(l.indexOf(" /") + 1).strip())
                    .filter(f -> f.contains("cupti")).findFirst();
            assertTrue(mapped.isPresent(), "the target maps the CUPTI test double");
            Cli.Result r = Cli.run("doctor", "--pid", Long.toString(target.pid()));
            assertTrue(r.out().contains("process        pid " + target.pid() + ": "), r.out());
            assertTrue(r.out().contains("libcupti       " + mapped.get() + " (already loaded by process " + target.pid()), r.out());
        } finally {
            E2e.stopTree(target.pid());
        }
    }
}
