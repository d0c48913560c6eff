package dev.vprof.export;

import dev.vprof.timeline.LaunchLinks;
import dev.vprof.timeline.TimelineProcess;
import java.util.HashMap;
import java.util.Map;

/**
 * The launch-to-GPU-op flows of one process in one trace: a flow only where an API call and a GPU
 * op share a correlation id ({@link LaunchLinks}, gathered as the timeline was built), with ids
 * unique in the trace.
 *
 * <p>A CUDA graph launch is one API call whose node kernels all carry its correlation id. So that
 * the launch draws a flow to each of them (not one chain through them), the flows of an id shared
 * by several GPU ops are numbered: the API call starts {@link #gpuOps} flows, and each op ends the
 * next of them ({@link #nextFlowId}), in the order the walk hands the ops out.
 */
final class Correlations {
    /** A graph launch with more node kernels than this draws flows to the first ones only. */
    static final int MAX_FLOWS_PER_LAUNCH = 1 << 15;

    private final LaunchLinks links;
    /** For each shared id, the flows its ops have ended so far. */
    private final Map<Integer, Integer> ended = new HashMap<>();
    private final long flowIdBase;

    Correlations(TimelineProcess process, int processIndex) {
        this.links = process.launchLinks();
        // Flow ids are global to a trace: the process index in the high bits keeps processes apart,
        // the flow's number within a graph launch sits above the 32-bit correlation id.
        this.flowIdBase = (long) (processIndex + 1) << 48;
    }

    /** True when the GPU op with this correlation id was launched by a recorded API call. */
    boolean gpuOpHasLaunch(long corr) {
        return links.anyApiCalls() && links.onApiCall(corr);
    }

    /** True when the API call with this correlation id launched a recorded GPU op. */
    boolean apiCallHasGpuOp(long corr) {
        return links.anyApiCalls() && links.onGpuOp(corr);
    }

    /** GPU ops carrying this id: 1 for a kernel launch, the node count for a graph launch. */
    int gpuOps(long corr) {
        return Math.min(MAX_FLOWS_PER_LAUNCH, links.gpuOps(corr));
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
        if (!links.shared(corr)) {
            return flowId(corr, 0);
        }
        int n = ended.merge((int) corr, 1, Integer::sum) - 1;
        return n < MAX_FLOWS_PER_LAUNCH ? flowId(corr, n) : -1;
    }
}
