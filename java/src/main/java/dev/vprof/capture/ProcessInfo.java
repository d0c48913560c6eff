package dev.vprof.capture;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One target process with an agent, as its shared region describes it. {@code rank},
 * {@code localRank} and {@code worldSize} come from the process's RANK, LOCAL_RANK and
 * WORLD_SIZE environment (the agent reads them when CUDA initializes and at every ARM); null
 * where the variable was not set, or in a file written before format 2.
 *
 * <p>{@code facts} says what a process read from another source is, where it is not an agent's
 * (null for an agent's process): for a PyTorch profiler trace (docs/pytorch-traces.md) the source
 * file, the time precision the trace really has ({@code "ns"} or {@code "us"}), the CUDA and CUPTI
 * versions it names.
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
        Integer worldSize,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> facts) {

    @JsonCreator
    public ProcessInfo {
        facts = facts == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    }

    public ProcessInfo(int pid, int ppid, String command, long cuptiVersion, long agentFlags, long ringCapacity,
                       long agentStartEpochNs, Integer rank, Integer localRank, Integer worldSize) {
        this(pid, ppid, command, cuptiVersion, agentFlags, ringCapacity, agentStartEpochNs, rank, localRank,
                worldSize, null);
    }

    public ProcessInfo(int pid, int ppid, String command, long cuptiVersion, long agentFlags, long ringCapacity,
                       long agentStartEpochNs) {
        this(pid, ppid, command, cuptiVersion, agentFlags, ringCapacity, agentStartEpochNs, null, null, null, null);
    }
}
