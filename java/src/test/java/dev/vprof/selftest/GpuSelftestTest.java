package dev.vprof.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class GpuSelftestTest {

    @Test
    void withoutAGpuItSaysSoAndExitsZeroWithoutPretending() {
        String why = GpuSelftest.whyNoGpu();
        if (why == null) {
            // A GPU machine: the full self-test is the check there, not this test.
            return;
        }
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        java.io.PrintStream old = System.out;
        int code;
        try {
            System.setOut(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
            StringWriter err = new StringWriter();
            var cl = Main.commandLine();
            cl.setErr(new PrintWriter(err));
            code = cl.execute("selftest", "--gpu");
        } finally {
            System.setOut(old);
        }
        String out = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        assertTrue(out.contains("no NVIDIA GPU here"), out);
        assertTrue(out.contains("Nothing was tested on a GPU"), out);
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
