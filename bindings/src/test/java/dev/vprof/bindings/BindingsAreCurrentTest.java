package dev.vprof.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Regenerates the bindings from the C header and fails if the committed file differs. */
class BindingsAreCurrentTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    @Test
    void committedBindingsMatchTheHeader() throws IOException, InterruptedException {
        assertCurrent("VprofRing.java");
    }

    @Test
    void committedCallbackIdNamesMatchTheCuptiLists() throws IOException, InterruptedException {
        assertCurrent("CuptiCallbackIds.java", "cupti");
        assertEquals("cudaLaunchKernel", CuptiCallbackIds.runtimeName(211));
        assertEquals("cuMemAlloc_v2", CuptiCallbackIds.driverName(243), "the driver's _v2 is the call's own name");
        assertEquals(null, CuptiCallbackIds.runtimeName(523), "SIZE names no call");
    }

    private static void assertCurrent(String file, String... mode) throws IOException, InterruptedException {
        Path script = ROOT.resolve("jextract/generate.sh");
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString(), "--stdout"));
        cmd.addAll(List.of(mode));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String generated = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "generator timed out");
        assertEquals(0, p.exitValue(), "generator failed");
        String committed = Files.readString(ROOT.resolve("bindings/src/main/java/dev/vprof/bindings/" + file));
        assertEquals(committed, generated, file + " is stale: run jextract/generate.sh and commit the result");
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
