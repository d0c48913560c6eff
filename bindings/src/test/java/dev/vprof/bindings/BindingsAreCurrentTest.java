package dev.vprof.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Regenerates the bindings from the C header and fails if the committed file differs. */
class BindingsAreCurrentTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    @Test
    void committedBindingsMatchTheHeader() throws IOException, InterruptedException {
        Path script = ROOT.resolve("jextract/generate.sh");
        Process p = new ProcessBuilder("bash", script.toString(), "--stdout")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String generated = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "generator timed out");
        assertEquals(0, p.exitValue(), "generator failed");
        String committed = Files.readString(
                ROOT.resolve("bindings/src/main/java/dev/vprof/bindings/VprofRing.java"));
        assertEquals(committed, generated,
                "bindings are stale: run jextract/generate.sh and commit the result");
    }

    @Test
    void layoutsHaveTheSizeTheCompilerReports() {
        assertEquals(VprofRing.Control.SIZE, VprofRing.Control.LAYOUT.byteSize());
        assertEquals(VprofRing.CONTROL_SIZE, VprofRing.Control.SIZE);
        assertEquals(VprofRing.KernelRecord.SIZE, VprofRing.KernelRecord.LAYOUT.byteSize());
        assertEquals(32, VprofRing.KernelRecord.SIZE, "a kernel record is 32 bytes on the ring");
        assertEquals(VprofRing.RangeRecord.SIZE, VprofRing.RangeRecord.LAYOUT.byteSize());
    }
}
