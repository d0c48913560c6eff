package dev.vprof.mcp;

/**
 * The calls begun and not yet answered. The SDK's stdio transport closes the session as soon as its
 * input ends, which would drop the answers to calls a client sent just before closing stdin
 * ({@code printf ... | vprof mcp}); so the end of the input is held back until no call runs and none
 * has begun or ended for {@link #QUIET_MS} ms (the time a message read before the end takes to reach
 * its handler, with a wide margin).
 */
final class InFlight {
    /** How long the server must be idle after the end of its input before the session closes. */
    static final long QUIET_MS = 300;

    private int running;
    private long lastChangeNs = System.nanoTime();

    synchronized void begin() {
        running++;
        lastChangeNs = System.nanoTime();
    }

    synchronized void end() {
        running--;
        lastChangeNs = System.nanoTime();
        notifyAll();
    }

    /** Waits until every call is answered and none has begun for {@link #QUIET_MS} ms since now. */
    synchronized void drain() throws InterruptedException {
        lastChangeNs = System.nanoTime();
        while (true) {
            long quietMs = (System.nanoTime() - lastChangeNs) / 1_000_000;
            if (running == 0 && quietMs >= QUIET_MS) {
                return;
            }
            wait(running > 0 ? 0 : QUIET_MS - quietMs);
        }
    }
}
