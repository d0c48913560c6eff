package dev.vprof.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.vprof.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class GpuSelftestTest {

    @Test
    void withoutAGpuItSaysSoAndExitsZeroWithoutPretending() {
        // Where a GPU is present this test does not apply (skipped, not passed): the GPU self-test
        // itself is the check there (vprof selftest --gpu).
        assumeTrue(GpuSelftest.whyNoGpu() != null, "a GPU is present: run vprof selftest --gpu");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("selftest", "--gpu");
        assertEquals(0, code, out + "" + err);
        assertTrue(out.toString().contains("no NVIDIA GPU here"), out.toString());
        assertTrue(out.toString().contains("Nothing was tested on a GPU"), out.toString());
    }

    @Test
    void theCudaProgramAndTheTorchWorkloadShipInTheJar() {
        assertTrue(GpuSelftest.class.getResource("/dev/vprof/selftest/selftest.cu") != null);
        assertTrue(GpuSelftest.class.getResource("/dev/vprof/selftest/torch_selftest.py") != null);
    }

    @Test
    void theCudaProgramCompilesWithNvccWhereNvccExists(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path nvcc = Toolchain.nvcc();
        org.junit.jupiter.api.Assumptions.assumeTrue(nvcc != null, "no nvcc on this machine");
        java.nio.file.Path src = dir.resolve("selftest.cu");
        try (var in = GpuSelftest.class.getResourceAsStream("/dev/vprof/selftest/selftest.cu")) {
            java.nio.file.Files.copy(in, src);
        }
        SelfCli.Result r = SelfCli.run(java.util.List.of(nvcc.toString(), "-O2", "-o", dir.resolve("t").toString(),
                src.toString()), java.util.Map.of(), 300, dir);
        assertEquals(0, r.exitCode(), r.stderr());
    }
}
