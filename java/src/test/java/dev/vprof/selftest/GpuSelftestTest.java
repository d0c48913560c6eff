package dev.vprof.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.vprof.cli.Cli;
import dev.vprof.cli.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GpuSelftestTest {

    @Test
    void withoutAGpuItSaysSoAndExitsZeroWithoutPretending() {
        // Where a GPU is present this test does not apply (skipped, not passed): the GPU self-test
        // itself is the check there (vprof selftest --gpu).
        assumeTrue(GpuSelftest.whyNoGpu() != null, "a GPU is present: run vprof selftest --gpu");
        Cli.Result r = Cli.run("selftest", "--gpu");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("no NVIDIA GPU here"), r.out());
        assertTrue(r.out().contains("Nothing was tested on a GPU"), r.out());
    }

    @Test
    void anUnknownCaseIsAClearErrorBeforeAnythingRuns() {
        Cli.Result r = Cli.run("selftest", "--gpu", "--case", "graph-dromant");
        assertEquals(ExitCode.CANNOT.code(), r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--case graph-dromant: no such case; the cases are graph-dormant,"), r.err());
    }

    @Test
    void theCudaProgramCompilesWithNvccWhereNvccExists(@TempDir Path dir)
            throws Exception {
        Path nvcc = Toolchain.nvcc();
        assumeTrue(nvcc != null, "no nvcc on this machine");
        for (String source : GpuSelftest.SOURCES) {
            try (var in = GpuSelftest.class.getResourceAsStream("/dev/vprof/selftest/" + source)) {
                Files.copy(in, dir.resolve(source));
            }
        }
        // Exactly the command the GPU self-test builds with, warnings shown (none expected).
        List<String> cmd = new ArrayList<>(GpuSelftest.buildCommand(nvcc, dir, dir.resolve("t")));
        cmd.addAll(List.of("-Xcompiler", "-Wall,-Wextra"));
        SelfCli.Result r = SelfCli.run(cmd, Map.of(), 300, dir, "nvcc");
        assertEquals(0, r.exitCode(), r.stderr());
        // Warnings about our sources (nvcc's own, about its default architecture, vary by release).
        assertTrue(r.stderr().lines().noneMatch(l -> l.contains("selftest") && l.contains("warning")), r.stderr());
    }
}
