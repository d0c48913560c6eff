package dev.vprof.inject;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InjectionReadinessTest {
    private static final String ROOT = "Name:\tjava\nCapEff:\t000001ffffffffff\nSeccomp:\t0\n";
    private static final String USER = "Name:\tjava\nCapEff:\t0000000000000000\nSeccomp:\t0\n";
    private static final String DOCKER = "Name:\tjava\nCapEff:\t00000000a80425fb\nSeccomp:\t2\n";

    @Test
    void capSysPtraceIsBit19OfCapEff() {
        assertTrue(InjectionReadiness.hasCapSysPtrace(ROOT));
        assertFalse(InjectionReadiness.hasCapSysPtrace(USER));
        assertFalse(InjectionReadiness.hasCapSysPtrace(DOCKER)); // Docker's default set lacks it
        assertTrue(InjectionReadiness.hasCapSysPtrace("CapEff:\t0000000000080000\n"));
    }

    @Test
    void withoutYamaTheSameUserCanInject() {
        var v = InjectionReadiness.assess(PtraceScope.NO_YAMA, USER, true);
        assertTrue(v.possible());
        assertTrue(v.blockers().isEmpty());
        assertTrue(v.summary().contains("only processes of your own user"), v.summary());
    }

    @Test
    void yamaScope1WithoutTheCapabilityBlocksWithTheSysctlRemedy() {
        var v = InjectionReadiness.assess(new PtraceScope("1\n"), USER, true);
        assertFalse(v.possible());
        assertTrue(v.blockers().getFirst().contains("ptrace_scope"), v.blockers().toString());
        assertTrue(v.blockers().getFirst().contains("sudo"), v.blockers().toString());
    }

    @Test
    void yamaScope1WithTheCapabilityIsFine() {
        assertTrue(InjectionReadiness.assess(new PtraceScope("1"), ROOT, true).possible());
        assertTrue(InjectionReadiness.assess(new PtraceScope("2"), ROOT, true).possible());
    }

    @Test
    void yamaScope3BlocksEvenRoot() {
        var v = InjectionReadiness.assess(new PtraceScope("3"), ROOT, true);
        assertFalse(v.possible());
        assertTrue(v.blockers().getFirst().contains("vprof launch"), v.blockers().toString());
    }

    @Test
    void aSeccompFilterIsAWarningWithTheContainerRemedy() {
        var v = InjectionReadiness.assess(new PtraceScope("0"), DOCKER, true);
        assertTrue(v.possible());
        assertTrue(v.blockers().getFirst().contains("--cap-add=SYS_PTRACE"), v.blockers().toString());
    }

    @Test
    void aMissingInjectorBlocks() {
        var v = InjectionReadiness.assess(PtraceScope.NO_YAMA, ROOT, false);
        assertFalse(v.possible());
        assertTrue(v.blockers().getFirst().contains("vprof-inject"), v.blockers().toString());
    }
}
