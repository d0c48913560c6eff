/*
 * drain.c: closing a range whose end has been stamped, on the agent's own
 * control thread.
 *
 * cudaProfilerStop does not synchronize and servers (vLLM) stop without a
 * sync, so at the stamp the range's last kernels may still be queued or
 * running. Disabling kernel tracing then, or forcing a flush, loses them or
 * returns them with zero timestamps (docs/cupti-field-facts.md R3). So the kinds stay
 * on and, every tick, the control thread asks CUPTI for the buffers whose
 * records are all complete (cuptiActivityFlushAll(0), which does not force
 * anything) until the range is accounted for:
 *   - every kernel launch the driver callbacks counted in the range has its
 *     record (kept, or rejected as invalid): streams run in order, so the
 *     copies and sets issued before them are done too;
 *   - if graphs were launched, a node kernel of the newest graph launch has
 *     come (its node count is not known to CUPTI's callbacks);
 *   - and one more tick passes, for a copy issued after the last kernel.
 * Then, or at VPROF_DRAIN_MAX_NS after the stamp, it disables the kinds,
 * forces a flush and writes the END (capture.c, vprof_finish_range).
 */
#include "agent/agent.h"

int vprof_drain_satisfied(struct vprof_agent *a)
{
    if (!(a->arm.kinds & VPROF_KIND_KERNEL))
        return 1; /* nothing counted to wait for */
    struct vprof_range_counts n;
    vprof_window_counts(&a->window, &n);
    if (n.plain_kernels_arrived < n.kernel_launches)
        return 0;
    if (n.graph_launches > 0u && n.last_graph_seen == 0u)
        return 0; /* or CUPTI never delivers them: the limit decides, and the END says so */
    return 1;
}

int vprof_drain_step(struct vprof_agent *a, uint64_t now_mono_ns)
{
    if (!a->stopping)
        return 0;
    a->drain_flushes++;
    if (vprof_drain_satisfied(a))
        a->drain_satisfied++;
    else
        a->drain_satisfied = 0;
    const int done = a->drain_satisfied >= 2u;
    const int limit = now_mono_ns - a->stop_mono_ns >= a->drain_max_ns;
    if (!done && !limit)
        return 0;
    if (!done)
        vprof_warn_flag(a, VPROF_WARN_DRAIN_TIMEOUT, NULL); /* the END's counts say what was missing */
    vprof_finish_range(a);
    return 1;
}
