package dev.vprof.capture;

/** One target process with an agent, as its shared region describes it. */
public record ProcessInfo(
        int pid,
        int ppid,
        String command,
        long cuptiVersion,
        long agentFlags,
        long ringCapacity,
        long agentStartEpochNs) {}
