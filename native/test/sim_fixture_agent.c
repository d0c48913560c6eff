/*
 * A minimal CUPTI client used as CUDA_INJECTION64_PATH by sim_simgpu_test:
 * it proves that vprof-simgpu injects like libcuda and that the double's
 * records agree with the program's own counts. Not vprof's agent.
 *
 * SIM_FIXTURE_MODE=profiler (default): kernels are recorded between
 *   cuProfilerStart and cuProfilerStop (driver ids, so each call counts once).
 * SIM_FIXTURE_MODE=always: kernels are recorded from initialization on.
 * At exit it prints: "fixture-report: pid=P kernels=N drops=D duration_sum=S".
 */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define BUFFER_SIZE (1u << 20)

static unsigned long long kernels, duration_sum;
static size_t drops;
static CUpti_SubscriberHandle subscriber;

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    *buffer = aligned_alloc(8, BUFFER_SIZE);
    *size = *buffer ? BUFFER_SIZE : 0;
    *max_records = 0;
}

static void CUPTIAPI completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
    (void)ctx; (void)stream; (void)size;
    CUpti_Activity *r = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)r;
            kernels++;
            duration_sum += k->end - k->start;
        }
    }
    size_t d = 0;
    cuptiActivityGetNumDroppedRecords(NULL, 0, &d);
    drops += d;
    free(buffer);
}

static void CUPTIAPI on_callback(void *u, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)u;
    const CUpti_CallbackData *cd = data;
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart && cd->callbackSite == CUPTI_API_EXIT)
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop && cd->callbackSite == CUPTI_API_ENTER) {
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    }
}

static void report(void) {
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    fprintf(stderr, "fixture-report: pid=%d kernels=%llu drops=%zu duration_sum=%llu\n", (int)getpid(), kernels, drops, duration_sum);
}

EXPORT int InitializeInjection(void) {
    const char *mode = getenv("SIM_FIXTURE_MODE");
    if (cuptiSubscribe(&subscriber, on_callback, NULL) != CUPTI_SUCCESS) return 0;
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    cuptiActivityRegisterCallbacks(requested, completed);
    if (mode != NULL && strcmp(mode, "always") == 0) cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    atexit(report);
    fprintf(stderr, "fixture: pid=%d initialized\n", (int)getpid());
    return 1;
}
