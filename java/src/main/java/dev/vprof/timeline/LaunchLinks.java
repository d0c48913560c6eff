package dev.vprof.timeline;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Which CUPTI correlation ids of one process appear on an API call and which on a GPU op, kept as
 * slices are added (stored or only counted), so that a writer can draw a launch-to-op flow only
 * where both ends exist without a pass over the slices. CUPTI hands out correlation ids from a
 * counter, so a bit set indexed by id stays small; ids beyond {@code int} range (never seen in
 * practice) are taken as present rather than tracked.
 *
 * <p>A CUDA graph launch is one API call whose node kernels all carry its correlation id: ids held
 * by more than one GPU op are counted ({@link #gpuOps}).
 */
public final class LaunchLinks {
    private final BitSet api = new BitSet();
    private final BitSet gpu = new BitSet();
    /** Ids held by more than one GPU op: how many. */
    private final Map<Integer, Integer> shared = new HashMap<>();
    private long apiCalls;

    void apiCall(long corr) {
        apiCalls++;
        if (corr > 0 && corr <= Integer.MAX_VALUE) {
            api.set((int) corr);
        }
    }

    void gpuOp(long corr) {
        if (corr > 0 && corr <= Integer.MAX_VALUE) {
            int c = (int) corr;
            if (gpu.get(c)) {
                shared.merge(c, 2, (a, b) -> a + 1);
            } else {
                gpu.set(c);
            }
        }
    }

    /** True when the process has API calls at all (with or without correlation ids). */
    public boolean anyApiCalls() {
        return apiCalls > 0;
    }

    /** True when an API call carries this id. */
    public boolean onApiCall(long corr) {
        return corr > Integer.MAX_VALUE || (corr > 0 && api.get((int) corr));
    }

    /** True when a GPU op carries this id. */
    public boolean onGpuOp(long corr) {
        return corr > Integer.MAX_VALUE || (corr > 0 && gpu.get((int) corr));
    }

    /** GPU ops carrying this id: 1 for a kernel launch (or an id not tracked), the node count for a graph launch. */
    public int gpuOps(long corr) {
        if (corr <= 0 || corr > Integer.MAX_VALUE) {
            return 1;
        }
        return shared.getOrDefault((int) corr, 1);
    }

    /** True when more than one GPU op carries this id (a graph launch). */
    public boolean shared(long corr) {
        return corr > 0 && corr <= Integer.MAX_VALUE && shared.containsKey((int) corr);
    }
}
