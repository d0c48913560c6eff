package dev.vprof.capture;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * The kernel's own account of this host's time sync, read with {@code adjtimex(2)} in read-only
 * mode (no privilege needed): whether NTP or PTP disciplines the clock, and the kernel's
 * estimated and maximum error of CLOCK_REALTIME. The maximum error is what a merge of nodes
 * without collectives states as its uncertainty (docs/multinode.md).
 *
 * @param state adjtimex's return: 0 TIME_OK … 5 TIME_ERROR (clock not synchronised)
 * @param status the STA_* bits
 * @param maxErrorUs the kernel's maximum error, in µs (it grows by 500 ppm while unsynchronised)
 * @param estErrorUs the estimated error, in µs
 */
public record TimeSync(int state, int status, long maxErrorUs, long estErrorUs) {
    /** STA_UNSYNC: the clock is not synchronised. */
    public static final int STA_UNSYNC = 0x0040;
    static final int TIME_ERROR = 5;

    /* struct timex on LP64 Linux (x86-64 and aarch64 alike): modes at 0, maxerror at 24,
     * esterror at 32, status at 40; 208 bytes in all. */
    private static final long SIZE = 208;
    private static final long MAXERROR = 24;
    private static final long ESTERROR = 32;
    private static final long STATUS = 40;

    private static final MethodHandle ADJTIMEX;

    static {
        MethodHandle h = null;
        try {
            Linker linker = Linker.nativeLinker();
            h = linker.defaultLookup().find("adjtimex")
                    .map(a -> linker.downcallHandle(a, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
        } catch (IllegalCallerException | UnsupportedOperationException e) {
            h = null; // no native access: the sync state is then unknown
        }
        ADJTIMEX = h;
    }

    /** Whether the kernel says the clock is synchronised (not TIME_ERROR, no STA_UNSYNC). */
    public boolean synchronised() {
        return state != TIME_ERROR && (status & STA_UNSYNC) == 0;
    }

    /** This host's state now; empty where adjtimex cannot be called. */
    public static Optional<TimeSync> read() {
        if (ADJTIMEX == null) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tx = arena.allocate(SIZE, 8); // zeroed: modes = 0 reads without changing anything
            int rc = (int) ADJTIMEX.invokeExact(tx);
            if (rc < 0) {
                return Optional.empty();
            }
            return Optional.of(new TimeSync(rc, tx.get(ValueLayout.JAVA_INT, STATUS),
                    tx.get(ValueLayout.JAVA_LONG, MAXERROR), tx.get(ValueLayout.JAVA_LONG, ESTERROR)));
        } catch (Throwable t) {
            return Optional.empty();
        }
    }

    /** "synchronised, max error 12 µs" or "not synchronised (max error 16 s)". */
    public String describe() {
        return (synchronised() ? "synchronised, max error " : "not synchronised (max error ") + Units.us(maxErrorUs)
                + (synchronised() ? "" : ")");
    }

    /** Durations as merge's messages show them. */
    public static final class Units {
        private Units() {}

        public static String us(long us) {
            if (us >= 1_000_000) {
                return String.format(Locale.ROOT, "%.3g s", us / 1e6);
            }
            if (us >= 1000) {
                return String.format(Locale.ROOT, "%.3g ms", us / 1e3);
            }
            return us + " µs";
        }

        public static String ns(long ns) {
            double a = Math.abs((double) ns);
            if (a >= 1e9) {
                return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
            }
            if (a >= 1e6) {
                return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
            }
            if (a >= 1e3) {
                return String.format(Locale.ROOT, "%.1f µs", ns / 1e3);
            }
            return ns + " ns";
        }
    }
}
