package dev.vprof.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class InjectorExitTest {
    @Test
    void everyExitCodeOfTheInjectorHasItsOwnConstant() {
        for (int code = 0; code <= 11; code++) {
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
                new Want(InjectorExit.NO_SAFE_POINT, "--inject-timeout=20s"),
                new Want(InjectorExit.STUCK, "vprof launch"),
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
    void aSafePointRefusalGivesTheInjectorsReasonOnceAndAnOptionThatExists() {
        String reason = "no thread of process 7 was at a safe point within 5000 ms (40 looks at 1 thread); last seen: "
                + "thread 7 (w): it is executing in malloc (libc.so.6), decided by its call chain of 9 frames";
        String s = InjectorExit.NO_SAFE_POINT.explain(7, "/a/libvprof.so", reason, java.time.Duration.ofSeconds(5));
        assertTrue(s.startsWith(reason + "; nothing was changed in pid 7."), s);
        assertEquals(s.indexOf("safe point"), s.lastIndexOf("safe point"), "the reason is given once: " + s);
        assertTrue(s.contains("--inject-timeout=20s"), s);
        assertTrue(s.contains("vprof launch -- CMD"), s);
        String longer = InjectorExit.NO_SAFE_POINT.explain(7, "/a", reason, java.time.Duration.ofMinutes(1));
        assertTrue(longer.contains("--inject-timeout=4m"), longer);
    }

    @Test
    void aStuckProcessIsNotToldToWaitLonger() {
        String s = InjectorExit.STUCK.explain(7, "/a", "no thread of process 7 was at a safe point within 5000 ms",
                java.time.Duration.ofSeconds(5));
        assertTrue(s.contains("waiting longer will not help"), s);
        assertFalse(s.contains("--inject-timeout"), s);
        assertTrue(s.contains("vprof-inject --pid 7 --explain"), s);
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

    @Test
    void anInjectionSaysWhatShowedTheBorrowedThreadSafe() {
        Injector.Result r = new Injector.Result(0, "injected /a/libvprof.so into 7 (borrowed thread 9, safe by its call "
                + "chain of 12 frames)\n", "");
        assertEquals("borrowed thread 9, safe by its call chain of 12 frames", r.howInjected());
        assertEquals("", new Injector.Result(0, "injected /a into 7\n", "").howInjected());
    }
}
