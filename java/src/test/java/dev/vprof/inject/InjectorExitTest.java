package dev.vprof.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class InjectorExitTest {
    @Test
    void everyExitCodeOfTheInjectorHasItsOwnConstant() {
        for (int code = 0; code <= 10; code++) {
            assertEquals(code, InjectorExit.of(code).code());
        }
    }

    @Test
    void unknownExitCodesAreOther() {
        assertEquals(InjectorExit.OTHER, InjectorExit.of(137));
        assertEquals(InjectorExit.OTHER, InjectorExit.of(-1));
    }

    @Test
    void eachRefusalNamesThePidAndItsRemedy() {
        record Want(InjectorExit exit, String remedy) {}
        for (Want w : List.of(
                new Want(InjectorExit.NO_PROCESS, "ps -p 42"),
                new Want(InjectorExit.PERMISSION, "CAP_SYS_PTRACE"),
                new Want(InjectorExit.YAMA, "ptrace_scope"),
                new Want(InjectorExit.SECCOMP, "--cap-add=SYS_PTRACE"),
                new Want(InjectorExit.ALREADY_TRACED, "detach that tool"),
                new Want(InjectorExit.DLOPEN_FAILED, "/opt/libvprof.so"),
                new Want(InjectorExit.NO_SAFE_POINT, "retry"),
                new Want(InjectorExit.USAGE, "vprof bug"))) {
            String s = w.exit().explain(42, "/opt/libvprof.so", "");
            assertTrue(s.contains("42"), s);
            assertTrue(s.contains(w.remedy()), w.exit() + ": " + s);
        }
    }

    @Test
    void theInjectorsDetailIsKeptWhereOnlyItKnowsIt() {
        String s = InjectorExit.DLOPEN_FAILED.explain(7, "/a/libvprof.so", "dlopen failed: invalid ELF header");
        assertTrue(s.endsWith("(dlopen failed: invalid ELF header)"), s);
        String t = InjectorExit.ALREADY_TRACED.explain(7, "/a", "process 7 is already traced by process 99");
        assertTrue(t.contains("process 99"), t);
    }

    @Test
    void anUnexplainedFailurePointsAtTheVerboseInjector() {
        String s = InjectorExit.OTHER.explain(7, "/a/libvprof.so", " ");
        assertTrue(s.contains("--verbose"), s);
    }

    @Test
    void theInjectorsStderrLosesItsPrefix() {
        Injector.Result r = new Injector.Result(7, "", "vprof-inject: first\nvprof-inject: second\n");
        assertEquals("first; second", r.detail());
        assertEquals(InjectorExit.ALREADY_TRACED, r.exit());
    }
}
