package dev.vprof.engine;

import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.capture.AgentCounters;
import dev.vprof.region.Region;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The agent's cumulative counters read from its region's control block. The record is the file
 * format's ({@code capture}), the block is the region's: the engine, which imports both, joins
 * them, so that neither of those two packages needs the other.
 */
public final class RegionCounters {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private RegionCounters() {}

    /** The counters now; each is read with acquire, as the agent updates them concurrently. */
    public static AgentCounters read(Region region) {
        MemorySegment control = region.control();
        return new AgentCounters(
                (long) LONG.getAcquire(control, Control.RECORDS),
                (long) LONG.getAcquire(control, Control.BYTES),
                (long) LONG.getAcquire(control, Control.RING_DROPS),
                (long) LONG.getAcquire(control, Control.RING_DROPS_KERNELS),
                (long) LONG.getAcquire(control, Control.CUPTI_DROPS),
                (long) LONG.getAcquire(control, Control.RANGES),
                (long) LONG.getAcquire(control, Control.POOL_EMERGENCY_BUFFERS),
                (long) LONG.getAcquire(control, Control.POOL_REFUSALS),
                region.warningFlags());
    }
}
