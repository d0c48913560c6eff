package dev.vprof.export;

import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ThreadSlices;
import dev.vprof.timeline.TimelineProcess;
import java.util.BitSet;

/**
 * Which correlation ids of one process appear on both sides, an API call and a GPU op, so that a
 * writer draws a flow only where it has two ends. CUPTI hands out correlation ids from a counter, so
 * a bit set indexed by id stays small; ids beyond {@code int} range (never seen in practice) are
 * assumed present rather than tracked.
 */
final class Correlations {
    private final BitSet api = new BitSet();
    private final BitSet gpu = new BitSet();
    private final boolean any;
    private final long flowIdBase;

    Correlations(TimelineProcess process, int processIndex) {
        // Flow ids are global to a trace: the process index in the high half keeps processes apart.
        this.flowIdBase = (long) (processIndex + 1) << 32;
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
                        mark(gpu, s.correlationId(i));
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

    long flowId(long corr) {
        return flowIdBase | corr;
    }
}
