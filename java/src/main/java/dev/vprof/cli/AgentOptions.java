package dev.vprof.cli;

import dev.vprof.bindings.VprofRing;
import java.util.Locale;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What the agents record and into how much memory: {@code --kinds}, {@code --buffer-size} and
 * {@code --ring-size}, the same options on {@code run}, {@code attach} and {@code watch}, declared
 * and checked once here; {@code launch} takes only the ring's ({@link Ring}).
 */
final class AgentOptions {
    @Option(names = "--kinds", paramLabel = "KINDS", defaultValue = "kernel,memcpy,memset,nvtx",
            description = "Activity to record, comma separated: kernel, memcpy, memset, nvtx, runtime, "
                    + "driver, sync (where the host blocked in cudaStreamSynchronize, cudaDeviceSynchronize, "
                    + "cudaEventSynchronize, cudaStreamWaitEvent). Default: ${DEFAULT-VALUE}.")
    String kinds = "kernel,memcpy,memset,nvtx";

    @Option(names = "--buffer-size", paramLabel = "SIZE",
            description = "CUPTI activity buffer size, 64k to 256m. Default: the agent's.")
    String bufferSize;

    @Mixin
    Ring ring = new Ring();

    /** {@code --ring-size}: the shared ring an agent makes when its process starts. */
    static final class Ring {
        @Option(names = "--ring-size", paramLabel = "SIZE",
                description = "Shared ring per process, a power of two from 64k to 1g (e.g. 256m). "
                        + "Default: 64m. Fixed when the agent starts: attach cannot change it.")
        String ringSize;

        /** The ring size asked for, or 0 when not given. */
        long ringBytes() {
            if (ringSize == null) {
                return 0;
            }
            long b = Units.size("--ring-size", ringSize);
            if (Long.bitCount(b) != 1 || b < VprofRing.RING_MIN || b > VprofRing.RING_MAX) {
                throw new CliException("--ring-size " + ringSize
                        + " must be a power of two between 64k and 1g (e.g. 1m, 64m)");
            }
            return b;
        }
    }

    int kindMask() {
        int mask = 0;
        for (String k : kinds.split(",")) {
            switch (k.trim().toLowerCase(Locale.ROOT)) {
                case "kernel" -> mask |= VprofRing.KIND_KERNEL;
                case "memcpy" -> mask |= VprofRing.KIND_MEMCPY;
                case "memset" -> mask |= VprofRing.KIND_MEMSET;
                case "nvtx" -> mask |= VprofRing.KIND_NVTX;
                case "runtime" -> mask |= VprofRing.KIND_RUNTIME;
                case "driver" -> mask |= VprofRing.KIND_DRIVER;
                // not in the default: CUPTI also records each event and stream query, which a polling
                // loop makes far more often than it launches (native/src/agent/capture.c)
                case "sync" -> mask |= VprofRing.KIND_SYNC;
                case "" -> { }
                default -> throw new CliException("--kinds: '" + k.trim()
                        + "' is not one of kernel, memcpy, memset, nvtx, runtime, driver, sync");
            }
        }
        if (mask == 0) {
            throw new CliException("--kinds names no activity; use for example --kinds=kernel,memcpy");
        }
        return mask;
    }

    int bufferBytes() {
        if (bufferSize == null) {
            return 0;
        }
        long b = Units.size("--buffer-size", bufferSize);
        if (b < 64 * 1024 || b > 256L * 1024 * 1024) {
            throw new CliException("--buffer-size " + bufferSize + " is outside 64k..256m");
        }
        return (int) b;
    }

    long ringBytes() {
        return ring.ringBytes();
    }
}
