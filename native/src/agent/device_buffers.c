/*
 * device_buffers.c: the size and number of CUPTI's device buffers, where the
 * user asks (R4, docs/cupti-field-facts.md §2).
 *
 * CUPTI keeps each GPU record's timestamps in device buffers: 3.2 MB each, at
 * most 250 per context by default. Long graph captures were seen to pin them
 * until about 1 GiB of GPU memory was gone, and a small pool to turn
 * timestamps invalid once it was spent. Neither default suits every server,
 * so the person profiling chooses:
 *
 *   VPROF_CUPTI_DEVICE_BUFFER_SIZE=SIZE        bytes per buffer (8m, 3200000)
 *   VPROF_CUPTI_DEVICE_BUFFER_POOL_LIMIT=N     buffers per context
 *
 * CUPTI applies them to contexts created after they are set, so they are set
 * as CUPTI is loaded (InitializeInjection, during cuInit, before any context).
 * Read only there: getenv is not safe on a callback path. A value that does
 * not parse or that CUPTI refuses leaves CUPTI's default, and says so.
 */
#include "agent/agent.h"

#include <stdio.h>
#include <stdlib.h>

static void set_one(struct vprof_agent *a, const char *name, CUpti_ActivityAttribute attr,
                    int is_bytes)
{
    const char *text = getenv(name);
    if (text == NULL || text[0] == '\0')
        return;
    char why[VPROF_REASON_MAX];
    uint64_t v = 0;
    if (vprof_parse_size(text, is_bytes, &v) != 0 || v == 0u || v > SIZE_MAX) {
        snprintf(why, sizeof why, "%s=%.40s is not %s; CUPTI's default is kept", name, text,
                 is_bytes ? "a size such as 8m or 3200000" : "a whole number of buffers above 0");
        vprof_warn(a, why);
        return;
    }
    size_t value = (size_t)v, size = sizeof value;
    const CUptiResult r = a->cupti.ActivitySetAttribute != NULL
                              ? a->cupti.ActivitySetAttribute(attr, &size, &value)
                              : CUPTI_ERROR_NOT_SUPPORTED;
    if (r != CUPTI_SUCCESS) {
        char call[80];
        snprintf(call, sizeof call, "cuptiActivitySetAttribute(%s)", name);
        char failed[VPROF_REASON_MAX - 32];
        vprof_cupti_describe(&a->cupti, call, r, failed, sizeof failed);
        snprintf(why, sizeof why, "%s; CUPTI's default is kept", failed);
        vprof_warn(a, why);
        return;
    }
    if (!a->injection_called) {
        snprintf(why, sizeof why,
                 "%s applies only to CUDA contexts created from now on: CUPTI was not loaded by "
                 "CUDA's initialization (CUDA_INJECTION64_PATH, which `vprof run` and `launch` set)",
                 name);
        vprof_warn(a, why);
    }
}

void vprof_set_device_buffers(struct vprof_agent *a)
{
    set_one(a, "VPROF_CUPTI_DEVICE_BUFFER_SIZE", CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, 1);
    set_one(a, "VPROF_CUPTI_DEVICE_BUFFER_POOL_LIMIT", CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, 0);
}
