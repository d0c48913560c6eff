package dev.vprof.capture;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * One target process with an agent, as its shared region describes it. {@code rank},
 * {@code localRank} and {@code worldSize} come from the process's RANK, LOCAL_RANK and
 * WORLD_SIZE environment (the agent reads them when CUDA initializes and at every ARM); null
 * where the variable was not set, or in a file written before format 2.
 */
public record ProcessInfo(
        int pid,
        int ppid,
        String command,
        long cuptiVersion,
        long agentFlags,
        long ringCapacity,
        long agentStartEpochNs,
        Integer rank,
        Integer localRank,
        Integer worldSize) {

    @JsonCreator
    public ProcessInfo {}

    public ProcessInfo(int pid, int ppid, String command, long cuptiVersion, long agentFlags, long ringCapacity,
                       long agentStartEpochNs) {
        this(pid, ppid, command, cuptiVersion, agentFlags, ringCapacity, agentStartEpochNs, null, null, null);
    }
}
