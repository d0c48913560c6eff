package dev.vprof.capture;

import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A node's identity and clock evidence, as the capture engine records it: at the start in the
 * METADATA options (keys {@code node.*}), at the end in the WINDOW chunk's counts (keys
 * {@code node_end_*}). Hostname, boot id and machine id say which host and which boot the
 * captures came from (two captures with one boot id share one CLOCK_MONOTONIC); a
 * CLOCK_REALTIME/CLOCK_MONOTONIC/CLOCK_BOOTTIME triple at each end says how the wall clock moved
 * against the monotonic one during the capture (an NTP step shows) and where the host's boot lies
 * on its wall clock (what a Perfetto trace's BOOTTIME needs); {@code adjtimex} says whether the
 * kernel considers the wall clock synchronised and within what error. The CUPTI/realtime pairs
 * are the agent's CLOCK_SYNC records; GPU UUIDs and models are its DEVICE records; ranks are in
 * PROCESS (RANK, LOCAL_RANK, WORLD_SIZE). The launcher variables of the front end's environment
 * place the node in a run and name the run ({@link #RUN_IDENTITY}).
 */
public final class NodeEvidence {
    private NodeEvidence() {}

    public static final String HOSTNAME = "node.hostname";
    public static final String BOOT_ID = "node.boot_id";
    public static final String MACHINE_ID = "node.machine_id";
    public static final String START_REALTIME = CaptureMetadata.START_REALTIME;
    public static final String START_MONOTONIC = "node.start_monotonic_ns";
    public static final String START_BOOTTIME = CaptureMetadata.START_BOOTTIME;
    public static final String SYNC = "node.time_synchronised";
    public static final String SYNC_STATE = "node.time_state";
    public static final String MAX_ERROR = "node.time_max_error_us";
    public static final String EST_ERROR = "node.time_est_error_us";
    public static final String RANK_ENV = "node.env.";

    public static final String END_REALTIME = "node_end_realtime_ns";
    public static final String END_MONOTONIC = "node_end_monotonic_ns";
    public static final String END_BOOTTIME = "node_end_boottime_ns";
    public static final String END_SYNC = "node_end_time_synchronised";
    public static final String END_MAX_ERROR = "node_end_time_max_error_us";
    public static final String END_EST_ERROR = "node_end_time_est_error_us";

    /**
     * The variables that name the run a node's capture belongs to, where the front end's
     * environment has them: {@code VPROF_RUN_ID} (set by whoever starts the front ends), torchrun's
     * rendezvous id, Slurm's job, the rendezvous endpoint of torch.distributed and of vLLM's data
     * parallelism, and the world size. Two captures whose values differ for one of these come from
     * different runs (docs/multinode.md).
     */
    public static final List<String> RUN_IDENTITY = List.of("VPROF_RUN_ID", "TORCHELASTIC_RUN_ID", "SLURM_JOB_ID",
            "MASTER_ADDR", "MASTER_PORT", "VLLM_DP_MASTER_IP", "VLLM_DP_MASTER_PORT", "WORLD_SIZE", "VLLM_DP_SIZE");

    /** The launcher variables that place this front end's node in a run (torchrun, vLLM data parallel). */
    private static final List<String> RANK_VARIABLES = List.of("NODE_RANK", "GROUP_RANK", "LOCAL_WORLD_SIZE",
            "VLLM_DP_RANK", "VLLM_DP_RANK_LOCAL");

    /** What the METADATA options gain when a capture starts. */
    public static Map<String, String> atStart() {
        Map<String, String> m = new LinkedHashMap<>();
        read("/proc/sys/kernel/hostname").ifPresent(v -> m.put(HOSTNAME, v));
        read("/proc/sys/kernel/random/boot_id").ifPresent(v -> m.put(BOOT_ID, v));
        read("/etc/machine-id").ifPresent(v -> m.put(MACHINE_ID, v));
        long[] pair = clockPair();
        m.put(START_REALTIME, Long.toString(pair[0]));
        m.put(START_MONOTONIC, Long.toString(pair[1]));
        m.put(START_BOOTTIME, Long.toString(pair[2]));
        TimeSync.read().ifPresent(t -> {
            m.put(SYNC, Boolean.toString(t.synchronised()));
            m.put(SYNC_STATE, Integer.toString(t.state()));
            m.put(MAX_ERROR, Long.toString(t.maxErrorUs()));
            m.put(EST_ERROR, Long.toString(t.estErrorUs()));
        });
        for (String v : RANK_VARIABLES) {
            environment(v).ifPresent(value -> m.put(RANK_ENV + v, value));
        }
        for (String v : RUN_IDENTITY) {
            environment(v).ifPresent(value -> m.put(RANK_ENV + v, value));
        }
        return m;
    }

    private static Optional<String> environment(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String v = value.strip();
        return Optional.of(v.length() > 256 ? v.substring(0, 256) : v); // an identity, not a payload
    }


    /** What the WINDOW chunk's counts gain when a capture ends. */
    public static Map<String, Long> atEnd() {
        Map<String, Long> m = new LinkedHashMap<>();
        long[] pair = clockPair();
        m.put(END_REALTIME, pair[0]);
        m.put(END_MONOTONIC, pair[1]);
        m.put(END_BOOTTIME, pair[2]);
        TimeSync.read().ifPresent(t -> {
            m.put(END_SYNC, t.synchronised() ? 1L : 0L);
            m.put(END_MAX_ERROR, t.maxErrorUs());
            m.put(END_EST_ERROR, t.estErrorUs());
        });
        return m;
    }

    /**
     * CLOCK_REALTIME, CLOCK_MONOTONIC and CLOCK_BOOTTIME at one instant: the realtime read is the
     * midpoint of two taken around the other two.
     */
    static long[] clockPair() {
        long a = Posix.realtimeNanos();
        long mono = Posix.monotonicNanos();
        long boot = Posix.boottimeNanos();
        long b = Posix.realtimeNanos();
        return new long[] {a + (b - a) / 2, mono, boot};
    }

    private static Optional<String> read(String file) {
        try {
            String s = Files.readString(Path.of(file)).strip();
            return s.isEmpty() ? Optional.empty() : Optional.of(s);
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }
}
