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
    void anUnknownCaseIsAClearErrorBeforeAnythingRuns() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("selftest", "--gpu", "--case", "graph-dromant");
        assertEquals(2, code, out + "" + err);
        assertTrue(err.toString().contains("--case graph-dromant: no such case; the cases are graph-dormant,"),
                err.toString());
    }

    @Test
    void theCudaProgramCompilesWithNvccWhereNvccExists(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path nvcc = Toolchain.nvcc();
        org.junit.jupiter.api.Assumptions.assumeTrue(nvcc != null, "no nvcc on this machine");
        for (String source : GpuSelftest.SOURCES) {
            try (var in = GpuSelftest.class.getResourceAsStream("/dev/vprof/selftest/" + source)) {
                java.nio.file.Files.copy(in, dir.resolve(source));
            }
        }
        // Exactly the command the GPU self-test builds with, warnings shown (none expected).
        java.util.List<String> cmd = new java.util.ArrayList<>(GpuSelftest.buildCommand(nvcc, dir, dir.resolve("t")));
        cmd.addAll(java.util.List.of("-Xcompiler", "-Wall,-Wextra"));
        SelfCli.Result r = SelfCli.run(cmd, java.util.Map.of(), 300, dir, "nvcc");
        assertEquals(0, r.exitCode(), r.stderr());
        // Warnings about our sources (nvcc's own, about its default architecture, vary by release).
        assertTrue(r.stderr().lines().noneMatch(l -> l.contains("selftest") && l.contains("warning")), r.stderr());
    }
}
