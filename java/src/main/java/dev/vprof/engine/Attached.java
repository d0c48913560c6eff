package dev.vprof.engine;

import dev.vprof.capture.AgentCounters;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.discovery.ProcessLiveness;
import dev.vprof.drain.RingReader;
import dev.vprof.region.Region;

/** One process in a capture: its mapped region, the reader of its ring, and where it stands. */
final class Attached {
    final Region region;
    final RingReader reader;
    final AgentCounters baseline;
    final ProcessInfo info;
    /** Whether the process still runs, without reading /proc. */
    final ProcessLiveness liveness;
    /** Read to the end and handed to processEnd; nothing more happens with it. */
    boolean finished;
    /** Attach mode: the agent went back to DORMANT by itself after we armed it. */
    boolean endedByItself;
    /** Its PROCESS chunk was written. */
    boolean announced;
    AgentCounters last;
    /** The agent's latest warning sentence when the process was finished. */
    String lastReason = "";
    /** {@code vprof watch --armed}: the range the duty cycle opened in this agent is open. */
    boolean dutyRangeOpen;
    /** The agent's heartbeat timeout before a continuous capture shortened it; 0 when untouched. */
    long heartbeatTimeoutBefore;

    Attached(Region region, AgentCounters baseline, ProcessInfo info, ProcessLiveness liveness) {
        this.region = region;
        this.liveness = liveness;
        this.reader = new RingReader(region.pid(), region.control(), region.ring());
        this.baseline = baseline;
        this.info = info;
        this.last = baseline;
    }

    int pid() {
        return region.pid();
    }

    AgentCounters delta() {
        return last.minus(baseline);
    }
}
