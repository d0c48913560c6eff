package dev.vprof.engine;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/** The variables that put vprof's agent into a CUDA process the front end starts. */
public final class AgentEnvironment {
    /** The variable that names the launch: {@code PID@START_MS} of the vprof that started the process. */
    public static final String LAUNCH_VARIABLE = "VPROF_LAUNCH";

    private static final String LAUNCH_ID = ProcessHandle.current().pid() + "@" + ProcessHandle.current().info()
            .startInstant().map(Instant::toEpochMilli).orElse(System.currentTimeMillis());

    private AgentEnvironment() {}

    /**
     * The driver loads {@code agent} as its injection library, and NVTX as its own. {@code arm} (a VPROF_ARM value)
     * arms it from the first kernel; null leaves it dormant until an attach. A ring size of 0
     * keeps the agent's default. Variables inherited from our own environment are overridden
     * or removed, so that they cannot arm or size the agent behind the user's back.
     */
    public static void apply(Map<String, String> env, Path agent, long ringBytes, String arm) {
        env.put("CUDA_INJECTION64_PATH", agent.toString());
        // NVTX used before CUDA initializes (a module-level nvtx range, a tokenizer thread) reaches
        // only the library NVTX_INJECTION64_PATH names when NVTX first runs; the agent's own
        // setting at cuInit comes too late for it (docs/cupti-field-facts.md R12). The agent is that
        // library: it loads the libcupti it will use itself and hands NVTX to it. A value the user
        // set is kept.
        env.putIfAbsent("NVTX_INJECTION64_PATH", agent.toString());
        // Which launch the agent belongs to, so that an attach whose tree holds agents of other
        // launches (attach --pid 1) can name them and ask first (cli.Launches).
        env.put(LAUNCH_VARIABLE, LAUNCH_ID);
        if (arm != null) {
            env.put("VPROF_ARM", arm);
        } else {
            env.remove("VPROF_ARM");
        }
        if (ringBytes != 0) {
            env.put("VPROF_RING_SIZE", Long.toString(ringBytes));
        } else {
            env.remove("VPROF_RING_SIZE");
        }
    }
}
