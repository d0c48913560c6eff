package dev.vprof.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one reader of Yama's ptrace_scope: each value the kernel writes, and no file at all. */
class PtraceScopeTest {
    @TempDir
    Path dir;

    private PtraceScope read(String content) throws Exception {
        Path f = dir.resolve("ptrace_scope");
        Files.writeString(f, content);
        return PtraceScope.read(f);
    }

    @Test
    void eachValueTheKernelWritesIsReadAndWorded() throws Exception {
        PtraceScope s0 = read("0\n");
        assertEquals("0", s0.value());
        assertTrue(s0.yama() && s0.classic() && !s0.liftedByCapability());
        assertEquals("0 (classic)", s0.describe());

        PtraceScope s1 = read("1\n");
        assertTrue(!s1.classic() && s1.liftedByCapability());
        assertEquals("1 (restricted to descendants: only a parent may trace its child)", s1.describe());

        PtraceScope s2 = read("2\n");
        assertTrue(!s2.classic() && s2.liftedByCapability());
        assertEquals("2 (admin-only: only CAP_SYS_PTRACE may trace)", s2.describe());

        PtraceScope s3 = read("3\n");
        assertFalse(s3.classic() || s3.liftedByCapability());
        assertEquals("3 (no attach: ptrace is disabled until reboot)", s3.describe());
    }

    @Test
    void aMissingFileIsNoYama() {
        PtraceScope s = PtraceScope.read(dir.resolve("absent"));
        assertEquals(PtraceScope.NO_YAMA, s);
        assertFalse(s.yama());
        assertTrue(s.classic());
        assertEquals("no Yama LSM: no ptrace restriction", s.describe());
    }

    @Test
    void aValueYamaDoesNotDefineIsTreatedAsNoAttach() throws Exception {
        PtraceScope s = read("7");
        assertFalse(s.classic() || s.liftedByCapability());
        assertTrue(s.describe().startsWith("7 ("), s.describe());
    }

    @Test
    void theRemedyNamesTheFileItWrites() {
        assertTrue(PtraceScope.REMEDY.contains("sudo tee /proc/sys/kernel/yama/ptrace_scope"), PtraceScope.REMEDY);
    }
}
