package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.demo.DemoDir;
import dev.vprof.demo.DemoException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof demo --dir D}: an earlier demo's files in D are replaced only with --force, and a
 * folder a demo still runs in (its lock held, here by a claim of this JVM, as a running demo --serve
 * holds it; DemoServeTest refuses a second demo beside a real one) is refused even with --force.
 * Both refusals come before anything starts, so the files are the test's own, unchanged.
 */
class DemoFolderTest {
    @Test
    void anEarlierDemosFilesAreReplacedOnlyWithForce(@TempDir Path dir) throws IOException {
        Path page = Files.writeString(dir.resolve("report.html"), "an earlier demo's page");
        Files.createDirectories(dir.resolve("torch_traces")); // empty: nothing of an earlier run in it
        Cli.Result r = Cli.run("demo", "--dir", dir.toString(), "--no-torch-path");
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.err());
        assertEquals("vprof: " + dir + " holds an earlier demo's files (report.html); give --force to replace them, "
                + "or choose another --dir", r.err().strip());
        assertEquals("an earlier demo's page", Files.readString(page));

        assertThrows(DemoException.class, () -> DemoDir.claim(dir, false, false));
        try (DemoDir claimed = DemoDir.claim(dir, false, true)) {
            assertEquals(dir, claimed.dir(), "--force takes the folder");
        }
        try (DemoDir claimed = DemoDir.claim(dir, true, false)) {
            assertEquals(dir, claimed.dir(), "demo --serve writes only its workers' logs: the page is not in its way");
        }
    }

    @Test
    void aFolderADemoStillRunsInIsRefusedEvenWithForce(@TempDir Path dir) throws IOException {
        Path log = Files.writeString(dir.resolve("worker-0.log"), "a running worker's log\n");
        String pid = Long.toString(ProcessHandle.current().pid());
        try (DemoDir _ = DemoDir.claim(dir, true, false)) {
            Cli.Result again = Cli.run("demo", "--dir", dir.toString(), "--force", "--no-torch-path");
            assertEquals(ExitCode.CANNOT.code(), again.code(), again.err());
            assertEquals("vprof: " + dir + " is in use by a running vprof demo (pid " + pid + "), which writes its "
                    + "workers' logs there; stop it, or choose another --dir (--force does not replace the files of a "
                    + "demo that is running)", again.err().strip());
            Cli.Result serve = Cli.run("demo", "--serve", "--dir", dir.toString(), "--force", "--port", "0", "--load", "0");
            assertEquals(ExitCode.CANNOT.code(), serve.code(), serve.err());
            assertTrue(serve.err().contains("is in use by a running vprof demo (pid " + pid + ")"), serve.err());
            assertFalse(ProcessHandle.current().children().anyMatch(
                    h -> h.info().command().orElse("").endsWith("vprof-simgpu")), "a worker was started");
            assertEquals("a running worker's log\n", Files.readString(log));
        }
        try (DemoDir after = DemoDir.claim(dir, false, false)) {
            assertEquals(dir, after.dir(), "the folder is free again once the demo ends");
        }
    }
}
