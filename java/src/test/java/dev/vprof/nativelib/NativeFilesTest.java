package dev.vprof.nativelib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NativeFilesTest {
    /** ELF e_machine of each platform folder: EM_X86_64 and EM_AARCH64. */
    private static final Map<String, Integer> MACHINE = Map.of("linux-x86_64", 62, "linux-aarch64", 183);
    private static final String[] SHIPPED = {NativeFiles.AGENT, NativeFiles.CUPTI_SIM, NativeFiles.CUPTI_SIM_SONAME,
        NativeFiles.SIMGPU, NativeFiles.INJECT};

    @Test
    void osArchNamesMapToTheirPlatformFolder() {
        assertEquals("linux-x86_64", NativeFiles.platform("amd64"));
        assertEquals("linux-x86_64", NativeFiles.platform("x86_64"));
        assertEquals("linux-aarch64", NativeFiles.platform("aarch64"));
        assertNull(NativeFiles.platform("ppc64le"));
    }

    @Test
    void theHostsPlatformFolderHoldsEveryFileBuiltForThisMachine() throws IOException {
        String host = NativeFiles.platform(System.getProperty("os.arch"));
        assertNotNull(host, "this test runs on x86-64 or aarch64");
        for (String name : SHIPPED) {
            assertEquals(MACHINE.get(host), elfMachine(host, name), host + "/" + name);
        }
    }

    /** With the cross compiler installed (CI installs it), the build carries the other architecture too. */
    @Test
    void theOtherArchitectureIsCarriedWhenItsCrossCompilerIsInstalled() throws IOException {
        String host = NativeFiles.platform(System.getProperty("os.arch"));
        String other = host.equals("linux-x86_64") ? "linux-aarch64" : "linux-x86_64";
        String compiler = other.equals("linux-aarch64") ? "aarch64-linux-gnu-gcc" : "x86_64-linux-gnu-gcc";
        boolean haveCompiler = false;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            haveCompiler |= !dir.isEmpty() && Files.isExecutable(Path.of(dir, compiler));
        }
        if (!haveCompiler) {
            assertNull(NativeFiles.class.getResource("/dev/vprof/native/" + other + "/" + NativeFiles.AGENT),
                    "without " + compiler + " no stale " + other + " files may ship");
            return;
        }
        for (String name : SHIPPED) {
            assertEquals(MACHINE.get(other), elfMachine(other, name), other + "/" + name);
        }
    }

    private static Integer elfMachine(String platform, String name) throws IOException {
        try (InputStream in = NativeFiles.class.getResourceAsStream("/dev/vprof/native/" + platform + "/" + name)) {
            if (in == null) {
                return null;
            }
            byte[] head = in.readNBytes(20);
            assertTrue(head.length == 20 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F',
                    platform + "/" + name + " is an ELF file");
            return (head[18] & 0xff) | (head[19] & 0xff) << 8;
        }
    }
}
