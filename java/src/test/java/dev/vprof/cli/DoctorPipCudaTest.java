package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * vprof doctor finds libcupti where pip puts it: a real virtual environment whose site-packages
 * holds the CUPTI test double under the file name of NVIDIA's wheels, for CUDA 12
 * (nvidia-cuda-cupti-cu12: nvidia/cuda_cupti/lib/libcupti.so.12) and CUDA 13 (nvidia-cuda-cupti
 * 13.x: nvidia/cu13/lib/libcupti.so.13), asked of that venv's Python or of a running process.
 */
class DoctorPipCudaTest {
    @TempDir
    Path tmp;

    @Test
    void theCuda12WheelInTheServersVenvIsFoundAndNamed() throws Exception {
        assumeNoToolkitOverride();
        Path venv = venv();
        Path lib = install(sitePackages(venv), "nvidia/cuda_cupti/lib/libcupti.so.12");
        String line = cuptiLine(Cli.run("doctor", "--python", venv.resolve("bin/python").toString()));
        assertTrue(line.startsWith("OK") && line.contains(lib.toString())
                && line.contains("pip wheel nvidia-cuda-cupti-cu12, CUDA 12, of " + venv.resolve("bin/python"))
                && line.matches(".*cuptiGetVersion = \\d+.*"), line);
    }

    @Test
    void theCuda13WheelWinsOverACuda12OneAndBothAreNamed() throws Exception {
        assumeNoToolkitOverride();
        Path venv = venv();
        Path site = sitePackages(venv);
        Path cu12 = install(site, "nvidia/cuda_cupti/lib/libcupti.so.12");
        Path cu13 = install(site, "nvidia/cu13/lib/libcupti.so.13");
        String line = cuptiLine(Cli.run("doctor", "--python", venv.resolve("bin/python").toString()));
        assertTrue(line.startsWith("OK"), line);
        int chosen = line.indexOf(cu13.toString());
        int also = line.indexOf("also found");
        assertTrue(chosen >= 0 && line.contains("pip wheel nvidia-cuda-cupti 13.x, CUDA 13, of " + venv.resolve("bin/python")), line);
        assertTrue(also > chosen && line.indexOf(cu12.toString()) > also, line);
    }

    @Test
    void aRunningPythonThatLoadedTheWheelsCuptiIsReadFromItsOwnMaps() throws Exception {
        assumeTrue(python() != null, "no python3 here");
        Path lib = install(tmp.resolve("env/lib/python3/site-packages"), "nvidia/cu13/lib/libcupti.so.13");
        ProcessBuilder pb = new ProcessBuilder(python(), "-c",
                "import ctypes, sys; ctypes.CDLL(sys.argv[1]); print('ready', flush=True); sys.stdin.read()", lib.toString());
        pb.environment().remove("CUDA_HOME");
        pb.environment().remove("VPROF_CUPTI_LIB");
        Process p = pb.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (var in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("ready", in.readLine());
            String line = cuptiLine(Cli.run("doctor", "--pid", Long.toString(p.pid())));
            assertTrue(line.startsWith("OK") && line.contains(lib.toString())
                    && line.contains("already loaded by process " + p.pid() + ", pip wheel nvidia-cuda-cupti 13.x, CUDA 13"), line);
        } finally {
            p.getOutputStream().close();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void aPidThatCannotBeReadIsAFailThatSaysWhy() {
        String line = cuptiLine(Cli.run("doctor", "--pid", "999999999"));
        assertTrue(line.startsWith("FAIL") && line.contains("/proc/999999999/") && line.contains("running"), line);
    }

    @Test
    void aNegativePidIsRefusedWithExitCode2() {
        Cli.Result r = Cli.run("doctor", "--pid", "-4");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--pid -4 is not a process id"), r.err());
    }

    private static void assumeNoToolkitOverride() {
        // These variables come before the pip wheels in the agent's order, as in doctor's.
        assumeTrue(System.getenv("CUDA_HOME") == null && System.getenv("VPROF_CUPTI_LIB") == null,
                "CUDA_HOME or VPROF_CUPTI_LIB is set in this test's environment");
        assumeTrue(python() != null, "no python3 here");
    }

    private static String python() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "python3"))) {
                return Path.of(dir, "python3").toString();
            }
        }
        return null;
    }

    /** A real virtual environment (no pip needed): its Python reports its own site-packages. */
    private Path venv() throws IOException, InterruptedException {
        Path venv = tmp.resolve("venv");
        Process p = new ProcessBuilder(python(), "-m", "venv", "--without-pip", venv.toString())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("venv.log").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, Files.readString(tmp.resolve("venv.log")));
        return venv;
    }

    private static Path sitePackages(Path venv) throws IOException {
        try (Stream<Path> s = Files.list(venv.resolve("lib"))) {
            return s.map(d -> d.resolve("site-packages")).filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    /** The CUPTI test double under a wheel's file name. */
    private static Path install(Path site, String relative) throws IOException {
        Path dst = site.resolve(relative);
        Files.createDirectories(dst.getParent());
        Files.copy(Path.of(System.getProperty("vprof.native.dir"), "libvprof-cuptisim.so"), dst);
        return dst;
    }

    private static String cuptiLine(Cli.Result r) {
        for (String l : r.out().split("\n")) {
            if (l.matches("^(OK|WARN|FAIL)\\s+libcupti\\s.*")) {
                return l;
            }
        }
        throw new AssertionError("no libcupti line in:\n" + r.out() + r.err());
    }
}
