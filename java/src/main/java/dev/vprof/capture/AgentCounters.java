package dev.vprof.capture;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * The agent's counters (vprof_control), as deltas over one capture. The pool counts (format 2)
 * are the CUPTI buffer requests the agent's pool served by allocating on the application thread
 * (a CUPTI older than 12.9 may crash when refused) and those it refused. {@code warningFlags}
 * holds the VPROF_WARN_* bits the agent raised during the capture; a file of format 1 has none.
 */
public record AgentCounters(
        long records,
        long bytes,
        long ringDrops,
        long ringDropsKernels,
        long cuptiDrops,
        long ranges,
        long poolEmergencyBuffers,
        long poolRefusals,
        long warningFlags) {

    @JsonCreator
    public AgentCounters {}

    public AgentCounters(long records, long bytes, long ringDrops, long ringDropsKernels, long cuptiDrops,
                         long ranges) {
        this(records, bytes, ringDrops, ringDropsKernels, cuptiDrops, ranges, 0, 0, 0);
    }

    /** The counters since {@code base}; the warning flags are those raised since then. */
    public AgentCounters minus(AgentCounters base) {
        return new AgentCounters(records - base.records, bytes - base.bytes,
                ringDrops - base.ringDrops, ringDropsKernels - base.ringDropsKernels,
                cuptiDrops - base.cuptiDrops, ranges - base.ranges,
                poolEmergencyBuffers - base.poolEmergencyBuffers, poolRefusals - base.poolRefusals,
                warningFlags & ~base.warningFlags);
    }

    /** Two stays of one process in one capture, added up. */
    public AgentCounters plus(AgentCounters o) {
        return new AgentCounters(records + o.records, bytes + o.bytes, ringDrops + o.ringDrops,
                ringDropsKernels + o.ringDropsKernels, cuptiDrops + o.cuptiDrops, ranges + o.ranges,
                poolEmergencyBuffers + o.poolEmergencyBuffers, poolRefusals + o.poolRefusals,
                warningFlags | o.warningFlags);
    }
}
