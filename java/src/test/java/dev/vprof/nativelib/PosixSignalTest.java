package dev.vprof.nativelib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;

/**
 * {@link Posix#signalIgnored} reads /proc/self/status; sigaction(2), the kernel's own answer, is
 * the oracle: both must say the same for every standard signal, with one set to SIG_IGN here.
 */
class PosixSignalTest {
    /** SIGWINCH: neither the JVM nor vprof handles it, so ignoring it for a moment harms nothing. */
    private static final int SIGWINCH = 28;

    @Test
    void procStatusAndSigactionAgreeOnEverySignalWithOneIgnored() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle signal = linker.downcallHandle(linker.defaultLookup().findOrThrow("signal"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        MemorySegment previous = (MemorySegment) signal.invokeExact(SIGWINCH, MemorySegment.ofAddress(1)); // SIG_IGN
        try {
            assertNotNull(Posix.ignoredSignalMask(), "/proc/self/status has a SigIgn line on Linux");
            assertTrue(Posix.signalIgnoredBySigaction(SIGWINCH), "the oracle sees SIGWINCH ignored");
            assertTrue(Posix.signalIgnored(SIGWINCH));
            // The standard signals, 1-31; glibc keeps 32 and 33 for its threads and answers EINVAL
            // for them, though the kernel's mask shows them.
            for (int sig = 1; sig <= 31; sig++) {
                assertEquals(Posix.signalIgnoredBySigaction(sig), Posix.signalIgnored(sig), "signal " + sig);
            }
        } finally {
            MemorySegment ignored = (MemorySegment) signal.invokeExact(SIGWINCH, previous);
        }
        assertEquals(Posix.signalIgnoredBySigaction(SIGWINCH), Posix.signalIgnored(SIGWINCH), "after it is put back");
    }
}
