/*
 * convert_bench.c: median cost of converting one CUPTI kernel record
 * (Kernel10, as CUDA 13 delivers it) and publishing it to the ring, through
 * the agent's own vprof_convert_kernel: membership by correlation id,
 * timestamp validation, the desc lookup (with its once-per-buffer name
 * check) and the ring. Steady state: 40 kernel names on 4 streams, so names
 * and launch shapes are already interned, as they are after the first step of
 * an inference loop.
 *
 * Each sample times a batch of BATCH conversions with CLOCK_MONOTONIC and
 * divides; each batch starts a new "buffer" (vprof_convert_begin_buffer), so
 * every desc's name is compared again once per batch: more often than with
 * real 4 MiB buffers of ~19,000 records. The ring is drained between batches,
 * outside the timing.
 * Run: make -C native bench   (a few seconds at most)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cupti_abi.h" /* CUPTI as vprof declares it (no CUDA headers needed) */

#include "agent/convert.h"

#define BATCH   1024
#define SAMPLES 2001
#define NAMES   40
#define STREAMS 4

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void discard(const struct vprof_record_header *h, void *arg)
{
    (void)h;
    (void)arg;
}

int main(void)
{
    const uint64_t capacity = VPROF_RING_DEFAULT;
    void *region = aligned_alloc(4096, VPROF_CONTROL_SIZE + capacity);
    memset(region, 0, VPROF_CONTROL_SIZE + capacity);
    ((struct vprof_control *)region)->ring_capacity = capacity;
    static struct vprof_ring ring;
    vprof_ring_init(&ring, region, capacity);
    static struct vprof_capture cap;
    cap.ring = &ring;
    if (vprof_intern_alloc(&cap.intern) != 0)
        return 1;
    /* A range that is draining: ids 1..BATCH are inside, timestamps after its begin. */
    const struct vprof_window_snap window = { .state = VPROF_WINDOW_STOPPING, .begin_corr = 0,
                                              .end_corr = BATCH + 1, .begin_ns = 1600000000000000000ull,
                                              .end_ns = 1700000000000000000ull, .max_device = 64 };

    static char names[NAMES][64];
    for (int i = 0; i < NAMES; i++)
        snprintf(names[i], sizeof names[i], "_ZN7cutlass6KernelINS_4gemm%02dEEEvNT_6ParamsE", i);
    static CUpti_ActivityKernel10 records[BATCH];
    for (int i = 0; i < BATCH; i++) {
        CUpti_ActivityKernel10 *k = &records[i];
        memset(k, 0, sizeof *k);
        k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k->name = names[i % NAMES];
        k->streamId = 7u + (uint32_t)(i % STREAMS);
        k->contextId = 1;
        k->gridX = 132; k->gridY = 1; k->gridZ = 1;
        k->blockX = 128; k->blockY = 1; k->blockZ = 1;
        k->registersPerThread = 168;
        k->staticSharedMemory = 0;
        k->dynamicSharedMemory = 98304;
        k->start = 1700000000000000000ull + (uint64_t)i * 2000u;
        k->end = k->start + 1500u;
        k->correlationId = (uint32_t)i + 1u;
    }

    static double per_record[SAMPLES];
    const uint64_t now = 1700000000000000000ull + 10000000000ull;
    for (int warm = 0; warm < 200; warm++) {
        vprof_convert_begin_buffer(&cap, &window, now, 0);
        for (int i = 0; i < BATCH; i++)
            vprof_convert_kernel(&cap, &records[i]);
        vprof_ring_read(&ring, discard, NULL, SIZE_MAX);
    }
    for (int s = 0; s < SAMPLES; s++) {
        vprof_convert_begin_buffer(&cap, &window, now, 0);
        const uint64_t t0 = now_ns();
        for (int i = 0; i < BATCH; i++)
            vprof_convert_kernel(&cap, &records[i]);
        const uint64_t t1 = now_ns();
        per_record[s] = (double)(t1 - t0) / BATCH;
        vprof_ring_read(&ring, discard, NULL, SIZE_MAX);
    }
    qsort(per_record, SAMPLES, sizeof per_record[0], cmp_double);
    if (cap.kept_kernels != BATCH) {
        fprintf(stderr, "convert_bench: %llu of %d records were kept; the numbers are void\n",
                (unsigned long long)cap.kept_kernels, BATCH);
        return 1;
    }
    if (ring.control->ring_drops != 0) {
        fprintf(stderr, "convert_bench: the ring dropped %llu records; the numbers are void\n",
                (unsigned long long)ring.control->ring_drops);
        return 1;
    }
    printf("convert+publish one Kernel10 record: median %.1f ns, p10 %.1f ns, p90 %.1f ns "
           "(%d samples of %d records)\n",
           per_record[SAMPLES / 2], per_record[SAMPLES / 10], per_record[SAMPLES * 9 / 10],
           SAMPLES, BATCH);
    return 0;
}
