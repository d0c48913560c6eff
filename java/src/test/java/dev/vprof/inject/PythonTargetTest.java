package dev.vprof.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The remote_exec decision. The remote_exec call itself is unverified: no Python 3.14 here. */
class PythonTargetTest {
    private static final List<Path> PATH = List.of(Path.of("/usr/local/bin"), Path.of("/usr/bin"));

    private static PythonTarget.Plan plan(String exe, List<String> maps, Set<String> executables) {
        return PythonTarget.plan(Path.of(exe), maps, PATH, p -> executables.contains(p.toString()));
    }

    @Test
    void theVersionComesFromTheExecutableOrAMappedLibpython() {
        assertEquals(Optional.of(new PythonTarget.Version(3, 14, false)),
                PythonTarget.versionOf(Path.of("/usr/bin/python3.14"), List.of()));
        assertEquals(Optional.of(new PythonTarget.Version(3, 14, false)),
                PythonTarget.versionOf(Path.of("/opt/app/server"), List.of("/usr/lib/libpython3.14.so.1.0")));
        assertEquals(Optional.of(new PythonTarget.Version(3, 14, true)),
                PythonTarget.versionOf(Path.of("/usr/bin/python3.14t"), List.of()));
        assertEquals(Optional.of(new PythonTarget.Version(3, 12, false)),
                PythonTarget.versionOf(Path.of("/usr/bin/python3.12"), List.of("/usr/lib/libc.so.6")));
        assertEquals(Optional.empty(),
                PythonTarget.versionOf(Path.of("/usr/bin/vprof-simgpu"), List.of("/usr/lib/libc.so.6")));
    }

    @Test
    void aPythonModuleFolderIsNotTakenForTheInterpreter() {
        assertEquals(Optional.empty(), PythonTarget.versionOf(Path.of("/opt/server"),
                List.of("/usr/lib/python3.14/lib-dynload/_ctypes.cpython-314-x86_64-linux-gnu.so")));
    }

    @Test
    void python314PrefersRemoteExecThroughItsOwnInterpreter() {
        PythonTarget.Plan p = plan("/opt/venv/bin/python3.14", List.of(),
                Set.of("/opt/venv/bin/python3.14", "/usr/bin/python3.14"));
        assertTrue(p.remoteExec());
        assertEquals(Path.of("/opt/venv/bin/python3.14"), p.interpreter());
    }

    @Test
    void anEmbeddedPython314UsesTheInterpreterFoundInThePath() {
        PythonTarget.Plan p = plan("/opt/app/server", List.of("/opt/py/lib/libpython3.14.so.1.0"),
                Set.of("/usr/bin/python3.14"));
        assertTrue(p.remoteExec());
        assertEquals(Path.of("/usr/bin/python3.14"), p.interpreter());
    }

    @Test
    void olderPythonsUsePtrace() {
        PythonTarget.Plan p = plan("/usr/bin/python3.13", List.of(), Set.of("/usr/bin/python3.13", "/usr/bin/python3.14"));
        assertFalse(p.remoteExec());
        assertTrue(p.why().contains("3.13"), p.why());
    }

    @Test
    void withoutAMatchingInterpreterPtraceIsTheFallback() {
        PythonTarget.Plan p = plan("/opt/app/server", List.of("/opt/py/lib/libpython3.15.so"), Set.of("/usr/bin/python3.14"));
        assertFalse(p.remoteExec());
        assertTrue(p.why().contains("python3.15"), p.why());
    }

    @Test
    void aFreeThreadedTargetNeedsAFreeThreadedInterpreter() {
        PythonTarget.Plan p = plan("/opt/app/server", List.of("/opt/py/lib/libpython3.14t.so.1.0"),
                Set.of("/usr/bin/python3.14"));
        assertFalse(p.remoteExec());
        PythonTarget.Plan q = plan("/opt/app/server", List.of("/opt/py/lib/libpython3.14t.so.1.0"),
                Set.of("/usr/bin/python3.14", "/usr/bin/python3.14t"));
        assertEquals(Path.of("/usr/bin/python3.14t"), q.interpreter());
    }

    @Test
    void notAPythonUsesPtrace() {
        assertFalse(plan("/usr/bin/vprof-simgpu", List.of("/usr/lib/libc.so.6"), Set.of("/usr/bin/python3.14")).remoteExec());
    }

    @Test
    void mapsTextYieldsItsFilePaths() {
        String maps = """
                5581c000-5581d000 r--p 00000000 08:01 123 /usr/bin/python3.14
                7f00-7f01 r-xp 00000000 08:01 456 /usr/lib/libpython3.14.so.1.0
                7f02-7f03 rw-p 00000000 00:00 0
                7ffd-7ffe rw-p 00000000 00:00 0 [stack]
                """;
        assertEquals(List.of("/usr/bin/python3.14", "/usr/lib/libpython3.14.so.1.0"), PythonTarget.mappedFiles(maps));
    }

    @Test
    void theRemoteScriptQuotesTheAgentPath() {
        assertEquals("import ctypes\nctypes.CDLL('/a/it\\'s\\\\x/libvprof.so')\n",
                RemoteExec.script(Path.of("/a/it's\\x/libvprof.so")));
        assertEquals("'/\\U000000e9'", RemoteExec.pythonString("/\u00e9"));
    }
}
