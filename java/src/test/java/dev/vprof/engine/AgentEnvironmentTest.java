package dev.vprof.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentEnvironmentTest {
    private static final Path AGENT = Path.of("/opt/vprof/libvprof.so");

    /** R12: NVTX used before CUDA initializes reaches only the library named before it runs: the agent. */
    @Test
    void runAndLaunchNameTheAgentAsNvtxsInjectionLibrary() {
        Map<String, String> env = new HashMap<>();
        AgentEnvironment.apply(env, AGENT, 0, "mode=profiler");
        assertEquals(AGENT.toString(), env.get("CUDA_INJECTION64_PATH"));
        assertEquals(AGENT.toString(), env.get("NVTX_INJECTION64_PATH"));
        assertEquals("mode=profiler", env.get("VPROF_ARM"));
        assertFalse(env.containsKey("VPROF_RING_SIZE"));
    }

    @Test
    void anNvtxInjectionTheUserChoseIsKept() {
        Map<String, String> env = new HashMap<>(Map.of("NVTX_INJECTION64_PATH", "/usr/local/cuda/lib64/libcupti.so.13",
                "VPROF_ARM", "mode=none"));
        AgentEnvironment.apply(env, AGENT, 1 << 20, null);
        assertEquals("/usr/local/cuda/lib64/libcupti.so.13", env.get("NVTX_INJECTION64_PATH"));
        assertFalse(env.containsKey("VPROF_ARM"), "an inherited VPROF_ARM cannot arm the agent behind the user's back");
        assertEquals("1048576", env.get("VPROF_RING_SIZE"));
    }
}
