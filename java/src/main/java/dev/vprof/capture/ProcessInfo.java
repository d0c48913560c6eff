package dev.vprof.capture;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One target process with an agent, as its shared region describes it. {@code rank},
 * {@code localRank} and {@code worldSize} come from the process's RANK, LOCAL_RANK and
 * WORLD_SIZE environment (the agent reads them when CUDA initializes and at every ARM); null
 * where the variable was not set, or in a file written before format 2.
 *
 * <p>{@code facts} says what a process read from another source is, where it is not an agent's
 * (null for an agent's process): for a PyTorch profiler trace (docs/pytorch-traces.md) the source
 * file, the time precision the trace really has ({@code "ns"} or {@code "us"}), the CUDA and CUPTI
 * versions it names, and the names of its threads ({@link #threadNames}).
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

    /** The fact naming thread TID: {@code threadName.TID}. */
    public static final String THREAD_NAME_FACT = "threadName.";

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

    /** The threads the source named, by thread id (none for an agent's process, which names none). */
    @JsonIgnore
    public Map<Long, String> threadNames() {
        Map<Long, String> names = new TreeMap<>();
        if (facts != null) {
            facts.forEach((k, v) -> {
                if (k.startsWith(THREAD_NAME_FACT)) {
                    try {
                        names.put(Long.parseLong(k.substring(THREAD_NAME_FACT.length())), v);
                    } catch (NumberFormatException e) {
                        // not a thread id: a fact of another kind that happens to share the prefix
                    }
                }
            });
        }
        return names;
    }
}
