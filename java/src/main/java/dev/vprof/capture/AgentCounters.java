package dev.vprof.capture;

/** The agent's counters (vprof_control), as deltas over one capture. */
public record AgentCounters(
        long records,
        long bytes,
        long ringDrops,
        long ringDropsKernels,
        long cuptiDrops,
        long ranges) {

    public AgentCounters minus(AgentCounters base) {
        return new AgentCounters(records - base.records, bytes - base.bytes,
                ringDrops - base.ringDrops, ringDropsKernels - base.ringDropsKernels,
                cuptiDrops - base.cuptiDrops, ranges - base.ranges);
    }
}
