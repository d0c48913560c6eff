package dev.vprof.export;

import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ThreadSlices;
import dev.vprof.timeline.TimelineProcess;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Which correlation ids of one process appear on both sides, an API call and a GPU op, so that a
 * writer draws a flow only where it has two ends. CUPTI hands out correlation ids from a counter, so
 * a bit set indexed by id stays small; ids beyond {@code int} range (never seen in practice) are
 * assumed present rather than tracked.
 *
 * <p>A CUDA graph launch is one API call whose node kernels all carry its correlation id. So that
 * the launch draws a flow to each of them (not one chain through them), the flows of an id shared
 * by several GPU ops are numbered: the API call starts {@link #gpuOps} flows, and each op ends the
 * next of them ({@link #nextFlowId}).
 */
final class Correlations {
    /** A graph launch with more node kernels than this draws flows to the first ones only. */
    static final int MAX_FLOWS_PER_LAUNCH = 1 << 15;

    private final BitSet api = new BitSet();
    private final BitSet gpu = new BitSet();
    /** Ids held by more than one GPU op: how many. */
    private final Map<Integer, Integer> shared = new HashMap<>();
    /** For each shared id, the flows its ops have ended so far. */
    private final Map<Integer, Integer> ended = new HashMap<>();
    private final boolean any;
    private final long flowIdBase;

    Correlations(TimelineProcess process, int processIndex) {
        // Flow ids are global to a trace: the process index in the high bits keeps processes apart,
        // the flow's number within a graph launch sits above the 32-bit correlation id.
        this.flowIdBase = (long) (processIndex + 1) << 48;
        boolean hasApi = false;
        for (CpuThread t : process.threads()) {
            ThreadSlices calls = t.apiCalls();
            for (int i = 0, n = calls.size(); i < n; i++) {
                mark(api, calls.correlationId(i));
                hasApi = true;
            }
        }
        this.any = hasApi;
        if (hasApi) {
            for (GpuDevice d : process.devices()) {
                for (GpuStream s : d.streams()) {
                    for (int i = 0, n = s.size(); i < n; i++) {
                        long c = s.correlationId(i);
                        if (c > 0 && c <= Integer.MAX_VALUE && gpu.get((int) c)) {
                            shared.merge((int) c, 2, (a, b) -> a + 1);
                        }
                        mark(gpu, c);
                    }
                }
            }
        }
    }

    private static void mark(BitSet set, long corr) {
        if (corr > 0 && corr <= Integer.MAX_VALUE) {
            set.set((int) corr);
        }
    }

    private static boolean has(BitSet set, long corr) {
        return corr > Integer.MAX_VALUE || (corr > 0 && set.get((int) corr));
    }

    /** True when the GPU op with this correlation id was launched by a recorded API call. */
    boolean gpuOpHasLaunch(long corr) {
        return any && has(api, corr);
    }

    /** True when the API call with this correlation id launched a recorded GPU op. */
    boolean apiCallHasGpuOp(long corr) {
        return any && has(gpu, corr);
    }

    /** GPU ops carrying this id: 1 for a kernel launch, the node count for a graph launch. */
    int gpuOps(long corr) {
        if (corr <= 0 || corr > Integer.MAX_VALUE) {
            return 1;
        }
        return Math.min(MAX_FLOWS_PER_LAUNCH, shared.getOrDefault((int) corr, 1));
    }

    /** The id of the {@code n}th flow the API call with this correlation id starts. */
    long flowId(long corr, int n) {
        return flowIdBase | ((long) n << 32) | (corr & 0xffff_ffffL);
    }

    long flowId(long corr) {
        return flowId(corr, 0);
    }

    /** The flow the next GPU op with this id ends; -1 when a graph launch has used up its flows. */
    long nextFlowId(long corr) {
        if (corr <= 0 || corr > Integer.MAX_VALUE || !shared.containsKey((int) corr)) {
            return flowId(corr, 0);
        }
        int n = ended.merge((int) corr, 1, Integer::sum) - 1;
        return n < MAX_FLOWS_PER_LAUNCH ? flowId(corr, n) : -1;
    }
}
