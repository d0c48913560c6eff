/*
 * agent_unit_test.c: the agent's pieces that need no CUPTI: record conversion
 * and interning, the VPROF_ARM and VPROF_RING_SIZE parsers, the buffer pool.
 * Linked with the agent's sources except its entry points (no constructor).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/agent.h"
#include "test.h"
#include "agent_ring_fill.h"

/* ---- a capture over a private ring --------------------------------------- */

struct fixture {
    void *region;
    struct vprof_ring ring;
    struct vprof_capture cap;
};

static void fixture_init(struct fixture *f, uint64_t capacity)
{
    memset(f, 0, sizeof *f);
    f->region = aligned_alloc(4096, VPROF_CONTROL_SIZE + capacity);
    memset(f->region, 0, VPROF_CONTROL_SIZE + capacity);
    ((struct vprof_control *)f->region)->ring_capacity = capacity;
    vprof_ring_init(&f->ring, f->region, capacity);
    f->cap.ring = &f->ring;
    vprof_intern_alloc(&f->cap.intern);
    /* an open range from time 0 that began without a correlation id: everything is in */
    struct vprof_window_snap w = { .state = VPROF_WINDOW_OPEN, .max_device = 64 };
    vprof_convert_begin_buffer(&f->cap, &w, 1u << 30, 0);
}

/* A new CUPTI buffer judged against window w (CUPTI time now far ahead). */
static void next_buffer(struct fixture *f, const struct vprof_window_snap *w)
{
    vprof_convert_begin_buffer(&f->cap, w, 1ull << 62, 0);
}

static void fixture_free(struct fixture *f)
{
    vprof_intern_free(&f->cap.intern);
    free(f->region);
}

#define MAX_SEEN 64
struct seen {
    int n;
    uint32_t type[MAX_SEEN];
    _Alignas(8) uint8_t bytes[MAX_SEEN][256]; /* records, read through their structs */
};

static void collect(const struct vprof_record_header *h, void *arg)
{
    struct seen *s = arg;
    if (s->n < MAX_SEEN) {
        s->type[s->n] = h->type;
        memcpy(s->bytes[s->n], h, h->length < 256 ? (size_t)h->length : 256u);
    }
    s->n++;
}

static void drain(struct fixture *f, struct seen *s)
{
    memset(s, 0, sizeof *s);
    vprof_ring_read(&f->ring, collect, s, SIZE_MAX);
}

static CUpti_ActivityKernel10 kernel(const char *name, uint32_t stream, uint64_t start)
{
    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.name = name;
    k.start = start;
    k.end = start + 1000;
    k.deviceId = 0;
    k.contextId = 1;
    k.streamId = stream;
    k.gridX = 128; k.gridY = 1; k.gridZ = 1;
    k.blockX = 256; k.blockY = 1; k.blockZ = 1;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 2048;
    k.registersPerThread = 64;
    k.correlationId = 77;
    k.graphId = 5;
    return k;
}

TEST(kernelIsPublishedAfterItsNameAndLaunchShape)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    CUpti_ActivityKernel10 k = kernel("ampere_sgemm_128x64", 7, 5000);
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    struct seen s;
    drain(&f, &s);
    ASSERT_EQ(s.n, 3);
    ASSERT_EQ(s.type[0], VPROF_REC_STRING);
    ASSERT_EQ(s.type[1], VPROF_REC_KERNEL_DESC);
    ASSERT_EQ(s.type[2], VPROF_REC_KERNEL);
    const struct vprof_rec_string *str = (const void *)s.bytes[0];
    ASSERT_EQ(str->id, 1);
    ASSERT_EQ(str->len, strlen("ampere_sgemm_128x64"));
    ASSERT_EQ(memcmp(str + 1, "ampere_sgemm_128x64", str->len), 0);
    const struct vprof_rec_kernel_desc *d = (const void *)s.bytes[1];
    ASSERT_EQ(d->id, 1);
    ASSERT_EQ(d->name_id, 1);
    ASSERT_EQ(d->stream_id, 7);
    ASSERT_EQ(d->context_id, 1);
    ASSERT_EQ(d->grid_x, 128);
    ASSERT_EQ(d->block_x, 256);
    ASSERT_EQ(d->shared_memory, 3072);
    ASSERT_EQ(d->registers, 64);
    ASSERT_EQ(d->graph_id, 5);
    const struct vprof_rec_kernel *r = (const void *)s.bytes[2];
    ASSERT_EQ(r->h.length, 32);
    ASSERT_EQ(r->start, 5000);
    ASSERT_EQ(r->end, 6000);
    ASSERT_EQ(r->correlation_id, 77);
    ASSERT_EQ(r->desc_id, 1);
    fixture_free(&f);
}

TEST(repeatedLaunchShapeSendsOnlyTheKernel)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    static const char name[] = "flash_fwd_kernel";
    CUpti_ActivityKernel10 k = kernel(name, 1, 100);
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    k.start = 200; k.end = 300;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    k.streamId = 2; /* another stream: a new shape, the same name */
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    struct seen s;
    drain(&f, &s);
    /* STRING, DESC, KERNEL, KERNEL, DESC (stream 2), KERNEL */
    ASSERT_EQ(s.n, 6);
    ASSERT_EQ(s.type[3], VPROF_REC_KERNEL);
    ASSERT_EQ(s.type[4], VPROF_REC_KERNEL_DESC);
    const struct vprof_rec_kernel_desc *d2 = (const void *)s.bytes[4];
    ASSERT_EQ(d2->id, 2);
    ASSERT_EQ(d2->name_id, 1);
    ASSERT_EQ(d2->stream_id, 2);
    fixture_free(&f);
}

/* Handling under test: timestamp validation (convert.c judge) of kernels, memcpys and memsets. */
TEST(invalidTimestampsAreRejectedByReasonAndNeverPublished)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    struct vprof_window_snap w = { .state = VPROF_WINDOW_OPEN, .begin_corr = 10, .begin_ns = 1000000000ull,
                                   .max_device = 64 };
    vprof_convert_begin_buffer(&f.cap, &w, 2000000000ull, 0);
    static const struct { uint64_t start, end; uint32_t reason; } cases[] = {
        { 0, 0, VPROF_DROPS_ZERO_TS },
        { 0, 1500000000ull, VPROF_DROPS_START_ZERO },
        { 1500000000ull, 0, VPROF_DROPS_END_ZERO },
        { 1500000000ull, 1400000000ull, VPROF_DROPS_END_BEFORE_START },
        { 900000000ull, 1500000000ull, VPROF_DROPS_OUTSIDE_RANGE },   /* starts 100 ms before the range */
        { 1500000000ull, 1500000000ull + 3700000000000ull, VPROF_DROPS_OUTSIDE_RANGE }, /* ends > 1 h after now */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CUpti_ActivityKernel10 k = kernel("k", 1, 0);
        k.correlationId = 11;
        k.graphId = 0;
        k.start = cases[i].start;
        k.end = cases[i].end;
        ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1);
        CUpti_ActivityMemcpy6 mc;
        memset(&mc, 0, sizeof mc);
        mc.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
        mc.correlationId = 12; mc.start = cases[i].start; mc.end = cases[i].end;
        vprof_convert_activity(&f.cap, &mc);
        CUpti_ActivityMemset4 ms;
        memset(&ms, 0, sizeof ms);
        ms.kind = CUPTI_ACTIVITY_KIND_MEMSET;
        ms.correlationId = 13; ms.start = cases[i].start; ms.end = cases[i].end;
        vprof_convert_activity(&f.cap, &ms);
    }
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_ZERO_TS], 1);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_START_ZERO], 1);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_END_ZERO], 1);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_END_BEFORE_START], 1);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_OUTSIDE_RANGE], 2);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_MEMCPY][VPROF_DROPS_END_BEFORE_START], 1);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_MEMSET][VPROF_DROPS_START_ZERO], 1);
    ASSERT_EQ(f.cap.arrived_plain_kernels, 6);
    ASSERT_EQ(f.ring.control->records, 0); /* nothing reached the ring */
    /* a valid one does */
    CUpti_ActivityKernel10 good = kernel("k", 1, 1500000000ull);
    good.correlationId = 11;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &good), 1);
    ASSERT_EQ(f.cap.kept_kernels, 1);
    fixture_free(&f);
}

/* Handling under test: membership by launch order (correlation ids) in convert.c judge. */
TEST(recordsLaunchedOutsideTheRangeAreClippedByCorrelationId)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    struct vprof_window_snap w = { .state = VPROF_WINDOW_STOPPING, .begin_corr = 100, .end_corr = 200,
                                   .begin_ns = 1000, .end_ns = 5000, .max_device = 64 };
    next_buffer(&f, &w);
    CUpti_ActivityKernel10 k = kernel("k", 1, 9000); /* started long after the stop: queued work */
    k.correlationId = 150;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1); /* launched inside: kept whenever it ran */
    k.correlationId = 100;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1); /* the start's own id: not inside */
    k.correlationId = 200;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1); /* the stop's id */
    k.correlationId = 201;
    k.start = 0; k.end = 0; /* launched after the stop and cut off: clipped, not an invalid record */
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_CLIPPED], 3);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_ZERO_TS], 0);
    /* a range the next one cut short: its work arriving now is kept, inside a LATE run naming it */
    struct vprof_window_snap next = { .state = VPROF_WINDOW_OPEN, .begin_corr = 300, .prev_begin_corr = 100,
                                      .prev_end_corr = 200, .prev_index = 4, .capture_id = 9, .begin_ns = 6000,
                                      .max_device = 64 };
    next_buffer(&f, &next);
    struct seen s0;
    drain(&f, &s0);
    k = kernel("k", 1, 5500);
    k.correlationId = 170;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    k.correlationId = 310; /* the new range's */
    k.start = 7000; k.end = 8000;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    vprof_convert_end_buffer(&f.cap);
    ASSERT_EQ(f.cap.kept_late, 1);
    ASSERT_EQ(f.cap.kept_kernels, 1);
    struct seen s;
    drain(&f, &s);
    /* LATE_BEGIN(4), KERNEL 170, LATE_END(4), KERNEL 310 */
    ASSERT_EQ(s.n, 4);
    ASSERT_EQ(s.type[0], VPROF_REC_RANGE);
    ASSERT_EQ(s.type[2], VPROF_REC_RANGE);
    const struct vprof_rec_range *lb = (const void *)s.bytes[0];
    const struct vprof_rec_range *le = (const void *)s.bytes[2];
    ASSERT_EQ(lb->edge, VPROF_RANGE_LATE_BEGIN);
    ASSERT_EQ(lb->index, 4);
    ASSERT_EQ(lb->capture_id, 9);
    ASSERT_EQ(le->edge, VPROF_RANGE_LATE_END);
    ASSERT_EQ(le->index, 4);
    ASSERT_EQ(((const struct vprof_rec_kernel *)s.bytes[1])->correlation_id, 170);
    ASSERT_EQ(((const struct vprof_rec_kernel *)s.bytes[3])->correlation_id, 310);
    /* no range at all */
    struct vprof_window_snap none = { .state = VPROF_WINDOW_NONE, .max_device = 64 };
    next_buffer(&f, &none);
    k.correlationId = 400;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_CLIPPED], 1);
    fixture_free(&f);
}

/* Handling under test: the timestamp fallback where edges have no ids or ids do not grow. */
TEST(withoutUsableIdsTimestampsDecideMembership)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    struct vprof_window_snap w = { .state = VPROF_WINDOW_STOPPING, .ts_membership = 1, .begin_corr = 500,
                                   .end_corr = 400, .begin_ns = 1000000000ull, .end_ns = 2000000000ull,
                                   .max_device = 64 };
    next_buffer(&f, &w);
    CUpti_ActivityKernel10 k = kernel("k", 1, 1500000000ull);
    k.correlationId = 450; /* between the (non-monotonic) ids: ignored, time decides */
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    k.start = 2100000000ull; k.end = k.start + 10;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1); /* started after the end */
    k.start = 500000000ull; k.end = k.start + 10;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1); /* started before the begin */
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_CLIPPED], 2);
    fixture_free(&f);
}

/* Handling under test: graph kernels carry graph id and node id (KERNEL_DESC, one per node). */
TEST(graphKernelsCarryTheirGraphAndNodeIdsInTheirDesc)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    CUpti_ActivityKernel10 k = kernel("node_kernel", 7, 100);
    k.graphId = 42;
    k.graphNodeId = 0x100000001ull;
    k.correlationId = 77; /* the graph launch's id, shared by its nodes */
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    k.graphNodeId = 0x100000002ull; /* the same kernel as another node of the graph */
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    k.start = 500; k.end = 600; /* a replay of the first node: its desc again */
    k.graphNodeId = 0x100000001ull;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    struct seen s;
    drain(&f, &s);
    ASSERT_EQ(s.n, 6); /* STRING, DESC, KERNEL, DESC, KERNEL, KERNEL */
    const struct vprof_rec_kernel_desc *d1 = (const void *)s.bytes[1];
    const struct vprof_rec_kernel_desc *d2 = (const void *)s.bytes[3];
    ASSERT_EQ(d1->h.length, (int32_t)sizeof *d1);
    ASSERT_EQ(d1->graph_id, 42);
    ASSERT_EQ(d1->graph_node_id, 0x100000001ull);
    ASSERT_EQ(d2->graph_id, 42);
    ASSERT_EQ(d2->graph_node_id, 0x100000002ull);
    ASSERT_NE(d2->id, d1->id);
    const struct vprof_rec_kernel *last = (const void *)s.bytes[5];
    ASSERT_EQ(last->desc_id, d1->id);
    ASSERT_EQ(last->correlation_id, 77);
    ASSERT_EQ(f.cap.kept_graph_kernels, 3);
    fixture_free(&f);
}

/* Handling under test: names interned by content (intern.c), not only by CUPTI's pointer (R11). */
TEST(namesAreInternedByContentNotByPointer)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    char a[32], b[32];
    strcpy(a, "triton_poi_fused_add_0");
    strcpy(b, "triton_poi_fused_add_0");
    CUpti_ActivityKernel10 k = kernel(a, 1, 100);
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    k.name = b; /* the same text at another address: the same STRING */
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    /* A module reload puts another kernel's name at address a. */
    strcpy(a, "triton_poi_fused_mul_1");
    struct vprof_window_snap w = { .state = VPROF_WINDOW_OPEN, .max_device = 64 };
    next_buffer(&f, &w);
    k.name = a;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    struct seen s;
    drain(&f, &s);
    /* STRING 1, DESC 1, KERNEL, DESC 2 (pointer b, name 1), KERNEL, STRING 2, DESC 3, KERNEL */
    ASSERT_EQ(s.n, 8);
    ASSERT_EQ(s.type[0], VPROF_REC_STRING);
    ASSERT_EQ(s.type[3], VPROF_REC_KERNEL_DESC);
    ASSERT_EQ(s.type[5], VPROF_REC_STRING);
    const struct vprof_rec_kernel_desc *d2 = (const void *)s.bytes[3];
    ASSERT_EQ(d2->name_id, 1);
    const struct vprof_rec_string *s2 = (const void *)s.bytes[5];
    ASSERT_EQ(s2->id, 2);
    ASSERT_EQ(s2->len, strlen("triton_poi_fused_mul_1"));
    ASSERT_EQ(memcmp(s2 + 1, "triton_poi_fused_mul_1", s2->len), 0);
    const struct vprof_rec_kernel_desc *d3 = (const void *)s.bytes[6];
    ASSERT_EQ(d3->name_id, 2);
    ASSERT_EQ(d3->id, 3);
    const struct vprof_rec_kernel *last = (const void *)s.bytes[7];
    ASSERT_EQ(last->desc_id, 3);
    fixture_free(&f);
}

/* Handling under test: the sanity check of every record under an unverified CUPTI layout. */
TEST(unverifiedLayoutRejectsRecordsThatFailTheSanityCheck)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    struct vprof_window_snap w = { .state = VPROF_WINDOW_OPEN, .check_records = 1, .max_device = 64 };
    next_buffer(&f, &w);
    CUpti_ActivityKernel10 k = kernel("fine", 1, 100);
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    k.name = NULL;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1);
    k.name = "fine";
    k.deviceId = 1000;
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_BAD_RECORD], 2);
    /* the same records under a verified layout: the name check is not made */
    w.check_records = 0;
    next_buffer(&f, &w);
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    fixture_free(&f);
}

/* Handling under test: DEVICE records from CUPTI's device records, once per device. */
TEST(deviceRecordCarriesThePropertiesOncePerDevice)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    CUpti_ActivityDevice5 d;
    memset(&d, 0, sizeof d);
    d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d.id = 1;
    d.name = "NVIDIA H100 80GB HBM3";
    d.numMultiprocessors = 132;
    d.computeCapabilityMajor = 9;
    d.computeCapabilityMinor = 0;
    d.globalMemorySize = 85520809984ull;
    d.numThreadsPerWarp = 32;
    d.maxWarpsPerMultiprocessor = 64;
    d.maxThreadsPerBlock = 1024;
    d.maxRegistersPerBlock = 65536;
    d.maxSharedMemoryPerBlock = 49152;
    d.eccEnabled = 1;
    d.uuid.bytes[0] = 0x5a;
    vprof_convert_activity(&f.cap, &d);
    vprof_convert_activity(&f.cap, &d); /* CUPTI may send it again: once is enough */
    struct seen s;
    drain(&f, &s);
    ASSERT_EQ(s.n, 2);
    ASSERT_EQ(s.type[0], VPROF_REC_STRING);
    ASSERT_EQ(s.type[1], VPROF_REC_DEVICE);
    const struct vprof_rec_device *r = (const void *)s.bytes[1];
    ASSERT_EQ(r->id, 1);
    ASSERT_EQ(r->name_id, 1);
    ASSERT_EQ(r->sm_count, 132);
    ASSERT_EQ(r->compute_major, 9);
    ASSERT_EQ(r->global_memory_bytes, 85520809984ull);
    ASSERT_EQ(r->warp_size, 32);
    ASSERT_EQ(r->max_warps_per_sm, 64);
    ASSERT_EQ(r->max_threads_per_block, 1024);
    ASSERT_EQ(r->flags, VPROF_DEVICE_ECC);
    ASSERT_EQ(r->uuid[0], 0x5a);
    fixture_free(&f);
}

TEST(kernelWhoseNameCannotBeSentIsDroppedAndTheNameIsSentLater)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    /* Fill the ring with data until it refuses. */
    struct vprof_rec_memset filler;
    memset(&filler, 0, sizeof filler);
    while (vprof_ring_write(&f.ring, VPROF_REC_MEMSET, &filler, sizeof filler, VPROF_RING_DATA))
        ;
    const uint64_t drops0 = f.ring.control->ring_drops;
    CUpti_ActivityKernel10 k = kernel("needs_a_string", 1, 10);
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 0);
    ASSERT_EQ(f.ring.control->ring_drops_kernels, 1);
    ASSERT_EQ(f.ring.control->ring_drops, drops0 + 2); /* the STRING and the kernel */
    struct seen s;
    drain(&f, &s);
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    drain(&f, &s);
    ASSERT_EQ(s.n, 3);
    ASSERT_EQ(s.type[0], VPROF_REC_STRING);
    ASSERT_EQ(s.type[1], VPROF_REC_KERNEL_DESC);
    fixture_free(&f);
}

TEST(fullDescTableStillSendsEveryKernel)
{
    struct fixture f;
    fixture_init(&f, 16u * 1024u * 1024u);
    const uint32_t shapes = VPROF_INTERN_DESCS + 1000u;
    for (uint32_t i = 0; i < shapes; i++) {
        CUpti_ActivityKernel10 k = kernel("same_name", i, 1000u + i);
        ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 1);
    }
    ASSERT_EQ(f.ring.control->ring_drops, 0);
    /* one STRING, one KERNEL_DESC and one KERNEL per shape */
    ASSERT_EQ(f.ring.control->records, 1u + 2u * shapes);
    ASSERT_EQ(f.cap.intern.next_desc_id, shapes + 1u);
    fixture_free(&f);
}

TEST(longNamesAreCutAtStringMax)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    char *name = malloc(VPROF_STRING_MAX + 100);
    memset(name, 'x', VPROF_STRING_MAX + 99);
    name[VPROF_STRING_MAX + 99] = '\0';
    ASSERT_EQ(vprof_convert_string(&f.cap, name), 1);
    const struct vprof_rec_string *r = (const void *)f.ring.bytes;
    ASSERT_EQ(r->len, VPROF_STRING_MAX);
    ASSERT_EQ(r->h.length, (int32_t)VPROF_RECORD_MAX);
    ASSERT_EQ(vprof_convert_string(&f.cap, name), 1); /* sent once */
    ASSERT_EQ(f.ring.control->records, 1);
    free(name);
    fixture_free(&f);
}

TEST(resetRestartsIdsAtOne)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    ASSERT_EQ(vprof_convert_string(&f.cap, "a"), 1);
    ASSERT_EQ(vprof_convert_string(&f.cap, "b"), 2);
    vprof_intern_reset(&f.cap.intern);
    static const char c[] = "c";
    ASSERT_EQ(vprof_convert_string(&f.cap, c), 1);
    fixture_free(&f);
}

TEST(memcpyMemsetMarkerAndApiRecordsKeepTheirFields)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    CUpti_ActivityMemcpy6 mc;
    memset(&mc, 0, sizeof mc);
    mc.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    mc.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    mc.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
    mc.bytes = 4096; mc.start = 10; mc.end = 20; mc.streamId = 3; mc.correlationId = 9;
    vprof_convert_activity(&f.cap, &mc);
    CUpti_ActivityMemset4 ms;
    memset(&ms, 0, sizeof ms);
    ms.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    ms.value = 0xab; ms.bytes = 512; ms.start = 30; ms.end = 40;
    vprof_convert_activity(&f.cap, &ms);
    CUpti_ActivityMarker2 mk;
    memset(&mk, 0, sizeof mk);
    mk.kind = CUPTI_ACTIVITY_KIND_MARKER;
    mk.flags = CUPTI_ACTIVITY_FLAG_MARKER_START;
    mk.timestamp = 50; mk.id = 4; mk.name = "step"; mk.domain = NULL;
    mk.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    mk.objectId.pt.threadId = 4242;
    vprof_convert_activity(&f.cap, &mk);
    CUpti_ActivityAPI api;
    memset(&api, 0, sizeof api);
    api.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    api.cbid = 211; api.start = 60; api.end = 70; api.threadId = 4242; api.correlationId = 9;
    vprof_convert_activity(&f.cap, &api);
    struct seen s;
    drain(&f, &s);
    ASSERT_EQ(s.n, 5);
    const struct vprof_rec_memcpy *rc = (const void *)s.bytes[0];
    ASSERT_EQ(s.type[0], VPROF_REC_MEMCPY);
    ASSERT_EQ(rc->bytes, 4096);
    ASSERT_EQ(rc->copy_kind, 1);
    ASSERT_EQ(rc->flags, 1);
    ASSERT_EQ(rc->stream_id, 3);
    ASSERT_EQ(rc->correlation_id, 9);
    ASSERT_EQ(rc->end, 20);
    const struct vprof_rec_memset *rs = (const void *)s.bytes[1];
    ASSERT_EQ(s.type[1], VPROF_REC_MEMSET);
    ASSERT_EQ(rs->value, 0xab);
    ASSERT_EQ(rs->bytes, 512);
    ASSERT_EQ(s.type[2], VPROF_REC_STRING);
    const struct vprof_rec_marker *rm = (const void *)s.bytes[3];
    ASSERT_EQ(s.type[3], VPROF_REC_MARKER);
    ASSERT_EQ(rm->flags, VPROF_MARKER_START);
    ASSERT_EQ(rm->name_id, 1);
    ASSERT_EQ(rm->domain_id, 0);
    ASSERT_EQ(rm->tid, 4242);
    ASSERT_EQ(rm->timestamp, 50);
    ASSERT_EQ(rm->id, 4);
    const struct vprof_rec_api *ra = (const void *)s.bytes[4];
    ASSERT_EQ(s.type[4], VPROF_REC_API);
    ASSERT_EQ(ra->domain, VPROF_API_RUNTIME);
    ASSERT_EQ(ra->cbid, 211);
    ASSERT_EQ(ra->tid, 4242);
    ASSERT_EQ(ra->start, 60);
    fixture_free(&f);
}

/*
 * Handling under test: convert_sync keeps every field of CUPTI's synchronization record (either
 * version: the agent reads their shared prefix) and judges it as a memcpy (CLIPPED by id, invalid
 * times by reason, both counted as SYNC drops).
 */
TEST(syncRecordsKeepTheirFieldsInEitherVersionAndAreJudgedByIdAndTime)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    CUpti_ActivitySynchronization2 s2;
    memset(&s2, 0xee, sizeof s2); /* the appended fields must not matter */
    s2.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    s2.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    s2.start = 100; s2.end = 350; s2.correlationId = 12; s2.contextId = 1; s2.streamId = 13;
    s2.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
    vprof_convert_activity(&f.cap, &s2);
    CUpti_ActivitySynchronization s1;
    memset(&s1, 0, sizeof s1);
    s1.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    s1.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE;
    s1.start = 400; s1.end = 410; s1.correlationId = 13; s1.contextId = 2;
    s1.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE; s1.cudaEventId = 5;
    vprof_convert_activity(&f.cap, &s1);
    s1.start = 500; s1.end = 499; /* end before start: rejected */
    vprof_convert_activity(&f.cap, &s1);
    struct seen s;
    drain(&f, &s);
    ASSERT_EQ(s.n, 2);
    const struct vprof_rec_sync *a = (const void *)s.bytes[0];
    ASSERT_EQ(s.type[0], VPROF_REC_SYNC);
    ASSERT_EQ(a->h.length, 48);
    ASSERT_EQ(a->start, 100);
    ASSERT_EQ(a->end, 350);
    ASSERT_EQ(a->correlation_id, 12);
    ASSERT_EQ(a->type, VPROF_SYNC_STREAM_SYNCHRONIZE);
    ASSERT_EQ(a->context_id, 1);
    ASSERT_EQ(a->stream_id, 13);
    ASSERT_EQ(a->event_id, VPROF_SYNC_NONE);
    ASSERT_EQ(a->pad, 0);
    const struct vprof_rec_sync *b = (const void *)s.bytes[1];
    ASSERT_EQ(s.type[1], VPROF_REC_SYNC);
    ASSERT_EQ(b->type, VPROF_SYNC_EVENT_SYNCHRONIZE);
    ASSERT_EQ(b->start, 400);
    ASSERT_EQ(b->end, 410);
    ASSERT_EQ(b->correlation_id, 13);
    ASSERT_EQ(b->context_id, 2);
    ASSERT_EQ(b->stream_id, VPROF_SYNC_NONE);
    ASSERT_EQ(b->event_id, 5);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_SYNC][VPROF_DROPS_END_BEFORE_START], 1);
    ASSERT_EQ(f.cap.kept_records, 2);
    /* a call made before the range began (by id) is clipped */
    struct vprof_window_snap w = { .state = VPROF_WINDOW_OPEN, .max_device = 64, .begin_corr = 20 };
    next_buffer(&f, &w);
    s1.start = 600; s1.end = 700;
    vprof_convert_activity(&f.cap, &s1);
    ASSERT_EQ(f.cap.rejected[VPROF_TALLY_SYNC][VPROF_DROPS_CLIPPED], 1);
    vprof_convert_end_buffer(&f.cap);
    drain(&f, &s);
    ASSERT_EQ(s.n, 1); /* the DROPS record */
    const struct vprof_rec_drops *d = (const void *)s.bytes[0];
    ASSERT_EQ(s.type[0], VPROF_REC_DROPS);
    ASSERT_EQ(d->record_type, VPROF_REC_SYNC);
    ASSERT_EQ(d->reason, VPROF_DROPS_CLIPPED);
    fixture_free(&f);
}

/*
 * Handling under test: convert.c charges each record the full ring refused to
 * the range it belongs to (the buffer's ring_dropped tallies) or, for the
 * previous range's, to the LATE run whose LATE_END says so; the previous
 * range's rejections go out inside a LATE run; a record with no range open is
 * charged to none. The process counters keep every refusal.
 */
/* Handling under test: convert_api judges membership as for kernels (the API kinds stay on through the drain). */
TEST(apiRecordsOfCallsAfterTheStopAreClippedAndCountedLikeTheirKernels)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    struct seen s;
    drain(&f, &s);
    struct vprof_window_snap w = { .state = VPROF_WINDOW_STOPPING, .begin_corr = 100, .end_corr = 200,
                                   .prev_begin_corr = 10, .prev_end_corr = 20, .prev_index = 3, .capture_id = 9,
                                   .begin_ns = 1000, .end_ns = 9000, .max_device = 64 };
    next_buffer(&f, &w);
    CUpti_ActivityAPI api;
    memset(&api, 0, sizeof api);
    api.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    const uint32_t ids[] = { 150, 250, 15, 90, 199 }; /* in, after the stop, the previous range's, before, in */
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        api.correlationId = ids[i];
        api.start = 5000 + 100 * i;
        api.end = api.start + 50;
        vprof_convert_activity(&f.cap, &api);
    }
    EXPECT_EQ(f.cap.rejected[VPROF_TALLY_API][VPROF_DROPS_CLIPPED], 2);
    vprof_convert_end_buffer(&f.cap);
    drain(&f, &s);
    int in_late = 0, clipped_drops = 0;
    uint32_t kept[8], n = 0, late_id = 0;
    for (int i = 0; i < s.n && i < MAX_SEEN; i++) {
        if (s.type[i] == VPROF_REC_RANGE) {
            in_late = ((const struct vprof_rec_range *)s.bytes[i])->edge == VPROF_RANGE_LATE_BEGIN;
        } else if (s.type[i] == VPROF_REC_API && n < 8) {
            const struct vprof_rec_api *r = (const void *)s.bytes[i];
            kept[n++] = r->correlation_id;
            if (in_late)
                late_id = r->correlation_id;
        } else if (s.type[i] == VPROF_REC_DROPS) {
            const struct vprof_rec_drops *d = (const void *)s.bytes[i];
            if (d->reason == VPROF_DROPS_CLIPPED && d->record_type == VPROF_REC_API)
                clipped_drops += (int)d->count;
        }
    }
    ASSERT_EQ(n, 3);
    EXPECT_EQ(kept[0], 150);
    EXPECT_EQ(kept[1], 15);
    EXPECT_EQ(kept[2], 199);
    EXPECT_EQ(late_id, 15); /* in a LATE run naming the range it was launched in */
    EXPECT_EQ(clipped_drops, 2);

    /* No range: nothing is kept. */
    w.state = VPROF_WINDOW_NONE;
    next_buffer(&f, &w);
    api.correlationId = 300;
    vprof_convert_activity(&f.cap, &api);
    EXPECT_EQ(f.cap.rejected[VPROF_TALLY_API][VPROF_DROPS_CLIPPED], 1);
    fixture_free(&f);
}

TEST(ringDropsAreChargedToTheRangeOrLateRunWhoseRecordsTheyWere)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    struct seen s;
    drain(&f, &s);
    fill_data_room(&f.ring);
    const struct vprof_control *ctl = f.ring.control;
    const uint64_t drops0 = ctl->ring_drops;
    struct vprof_window_snap w = { .state = VPROF_WINDOW_OPEN, .begin_corr = 100, .prev_begin_corr = 10,
                                   .prev_end_corr = 20, .prev_index = 3, .capture_id = 9, .begin_ns = 1000,
                                   .max_device = 64 };
    next_buffer(&f, &w);
    CUpti_ActivityKernel10 k = kernel("k", 1, 5000);
    k.graphId = 0;
    k.correlationId = 15; /* the previous range's */
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 0);
    k.correlationId = 101; /* this range's */
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), 0);
    k.correlationId = 16;
    k.end = k.start - 1; /* the previous range's, invalid */
    ASSERT_EQ(vprof_convert_kernel(&f.cap, &k), -1);
    CUpti_ActivityMemcpy6 mc;
    memset(&mc, 0, sizeof mc);
    mc.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    mc.bytes = 64; mc.start = 6000; mc.end = 6100; mc.correlationId = 102;
    vprof_convert_activity(&f.cap, &mc);
    mc.correlationId = 17;
    vprof_convert_activity(&f.cap, &mc);
    CUpti_ActivityMarker2 mk;
    memset(&mk, 0, sizeof mk);
    mk.kind = CUPTI_ACTIVITY_KIND_MARKER;
    mk.flags = CUPTI_ACTIVITY_FLAG_MARKER_END; /* no name to send: the marker itself is refused */
    mk.timestamp = 6200;
    vprof_convert_activity(&f.cap, &mk);
    CUpti_ActivityAPI api;
    memset(&api, 0, sizeof api);
    api.kind = CUPTI_ACTIVITY_KIND_DRIVER;
    api.start = 6300; api.end = 6400; api.correlationId = 103;
    vprof_convert_activity(&f.cap, &api);
    vprof_convert_end_buffer(&f.cap);
    /* this range's: a kernel, a memcpy, a marker, an API record */
    EXPECT_EQ(f.cap.ring_dropped, 4);
    EXPECT_EQ(f.cap.ring_dropped_kernels, 1);
    EXPECT_EQ(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_END_BEFORE_START], 0);
    EXPECT_EQ(f.cap.late_rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_END_BEFORE_START], 1);
    EXPECT_EQ(f.cap.arrived_plain_kernels, 1); /* arrived, and dropped: not missing */
    /* every refusal in the process counters: 2 kernels with the STRING each needed, memcpys, marker, API */
    EXPECT_EQ(ctl->ring_drops_kernels, 2);
    EXPECT_EQ(ctl->ring_drops - drops0, 8);
    drain(&f, &s);
    uint64_t late_drops = 0, late_kernel_drops = 0;
    int in_late = 0, late_runs = 0, rejections_in_late = 0, rejections_outside = 0;
    for (int i = 0; i < s.n && i < MAX_SEEN; i++) {
        if (s.type[i] == VPROF_REC_RANGE) {
            const struct vprof_rec_range *r = (const void *)s.bytes[i];
            ASSERT_EQ(r->index, 3);
            in_late = r->edge == VPROF_RANGE_LATE_BEGIN;
            if (r->edge == VPROF_RANGE_LATE_END) {
                late_runs++;
                late_drops += r->ring_drops;
                late_kernel_drops += r->ring_drops_kernels;
            }
        } else if (s.type[i] == VPROF_REC_DROPS) {
            const struct vprof_rec_drops *d = (const void *)s.bytes[i];
            if (d->reason == VPROF_DROPS_END_BEFORE_START && in_late)
                rejections_in_late++;
            else if (d->reason == VPROF_DROPS_END_BEFORE_START)
                rejections_outside++;
        }
    }
    EXPECT(!in_late);
    EXPECT_GE(late_runs, 1);
    EXPECT_EQ(late_drops, 2); /* the previous range's kernel and memcpy */
    EXPECT_EQ(late_kernel_drops, 1);
    EXPECT_EQ(rejections_in_late, 1);
    EXPECT_EQ(rejections_outside, 0);
    /* with no range open a refused record is the process's only */
    fill_data_room(&f.ring);
    struct vprof_window_snap none = { .state = VPROF_WINDOW_NONE, .max_device = 64 };
    next_buffer(&f, &none);
    const uint64_t drops1 = ctl->ring_drops;
    vprof_convert_activity(&f.cap, &mk);
    vprof_convert_end_buffer(&f.cap);
    EXPECT_EQ(f.cap.ring_dropped, 0);
    EXPECT_EQ(ctl->ring_drops, drops1 + 1);
    fixture_free(&f);
}

/* ---- parsers -------------------------------------------------------------- */

TEST(vprofArmAcceptsEveryKey)
{
    struct vprof_arming a;
    char why[256] = "";
    ASSERT_EQ(vprof_parse_arm("mode=nvtx,repeat=3,kinds=0x1f,buffer=2m,frontend=1234,capture=7,"
                              "name=decode step,domain=vllm", &a, why, sizeof why), 0);
    ASSERT_EQ(a.mode, VPROF_RANGE_NVTX);
    ASSERT_EQ(a.repeat, 3);
    ASSERT_EQ(a.kinds, 0x1f);
    ASSERT_EQ(a.buffer_size, 2u * 1024u * 1024u);
    ASSERT_EQ(a.frontend_pid, 1234);
    ASSERT_EQ(a.capture_id, 7);
    ASSERT_STREQ(a.name, "decode step");
    ASSERT_STREQ(a.domain, "vllm");
    ASSERT_EQ(vprof_parse_arm("mode=profiler", &a, why, sizeof why), 0);
    ASSERT_EQ(a.mode, VPROF_RANGE_PROFILER);
    ASSERT_EQ(a.kinds, VPROF_KINDS_DEFAULT);
    ASSERT_EQ(a.repeat, 0);
}

TEST(vprofArmRejectsMalformedTextWithAReason)
{
    struct vprof_arming a;
    char why[256];
    static const char *const bad[] = {
        "mode=sometimes", "repeat=-1", "kinds=0", "kinds=1024", "buffer=12q", "frontend=x",
        "colour=red", "mode=none,mode=none", "mode", "mode=nvtx", "", "repeat=99999999999",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        EXPECT_EQ(vprof_parse_arm(bad[i], &a, why, sizeof why), -1);
        EXPECT_CONTAINS(why, "VPROF_ARM");
        if (test_case_has_failed())
            FAIL("accepted or unexplained: '%s' -> '%s'", bad[i], why);
    }
}

TEST(ringSizeAcceptsSuffixesClampsAndRoundsUp)
{
    char why[256] = "";
    ASSERT_EQ(vprof_ring_size_parse("100k", why, sizeof why), 131072u);
    ASSERT_EQ(vprof_ring_size_parse("64m", why, sizeof why), 64u * 1024u * 1024u);
    ASSERT_EQ(vprof_ring_size_parse("1000000", why, sizeof why), 1048576u);
    ASSERT_EQ(vprof_ring_size_parse("5", why, sizeof why), VPROF_RING_MIN);
    ASSERT_EQ(vprof_ring_size_parse("8g", why, sizeof why), VPROF_RING_MAX);
    ASSERT_EQ(vprof_ring_size_parse(NULL, why, sizeof why), VPROF_RING_DEFAULT);
    ASSERT_EQ(why[0], '\0');
    ASSERT_EQ(vprof_ring_size_parse("lots", why, sizeof why), VPROF_RING_DEFAULT);
    ASSERT_CONTAINS(why, "VPROF_RING_SIZE=lots");
}

TEST(bufferPoolHandsOutEachBufferOnceAndRunsDry)
{
    static struct vprof_buffer_pool pool;
    ASSERT_EQ(vprof_pool_prepare(&pool, 0, VPROF_POOL_BUFFERS), 0);
    ASSERT_EQ(pool.size, VPROF_POOL_DEFAULT_SIZE);
    uint8_t *taken[VPROF_POOL_BUFFERS];
    for (uint32_t i = 0; i < VPROF_POOL_BUFFERS; i++) {
        taken[i] = vprof_pool_take(&pool);
        ASSERT(taken[i] != NULL);
        ASSERT_EQ((uintptr_t)taken[i] & 7u, 0);
        for (uint32_t j = 0; j < i; j++)
            ASSERT_NE(taken[j], taken[i]);
    }
    ASSERT(vprof_pool_take(&pool) == NULL);
    int foreign;
    vprof_pool_give(&pool, (uint8_t *)&foreign); /* not ours: ignored */
    ASSERT(vprof_pool_take(&pool) == NULL);
    vprof_pool_give(&pool, taken[3]);
    ASSERT_EQ(vprof_pool_take(&pool), taken[3]);
    ASSERT_EQ(vprof_pool_clamp_size(1), VPROF_POOL_MIN_SIZE);
    ASSERT_EQ(vprof_pool_clamp_size(1u << 30), VPROF_POOL_MAX_SIZE);
    ASSERT_EQ(pool.refusals, 2);
    ASSERT_EQ(pool.emergency, 0);
}

/* Handling under test: the pool never refuses a CUPTI older than API 27 (buffer_pool.c take). */
TEST(bufferPoolNeverRefusesACuptiThatCrashesOnARefusal)
{
    static struct vprof_buffer_pool pool;
    ASSERT_EQ(vprof_pool_prepare(&pool, VPROF_POOL_MIN_SIZE, 2), 0);
    pool.never_refuse = 1;
    uint8_t *a = vprof_pool_take(&pool), *b = vprof_pool_take(&pool), *c = vprof_pool_take(&pool);
    ASSERT(a != NULL);
    ASSERT(b != NULL);
    ASSERT(c != NULL);
    ASSERT_NE(c, a);
    ASSERT_NE(c, b);
    ASSERT_EQ(pool.emergency, 1);
    ASSERT_EQ(pool.refusals, 0);
    ASSERT_EQ(pool.total, 3);
    ASSERT_EQ(vprof_pool_outstanding(&pool), 3);
    vprof_pool_give(&pool, c); /* the emergency buffer stays in the pool */
    ASSERT_EQ(vprof_pool_take(&pool), c);
    ASSERT_EQ(pool.emergency, 1);
}

/* Handling under test: the version gates of cupti_api.h (layout list, refusal, 13.0 GA deadlock). */
TEST(cuptiVersionGatesFollowTheKnownVersions)
{
    ASSERT(vprof_cupti_layout_verified(19));
    ASSERT(vprof_cupti_layout_verified(28));
    ASSERT(vprof_cupti_layout_verified(130000));
    ASSERT(vprof_cupti_layout_verified(130001));
    ASSERT(!vprof_cupti_layout_verified(130200));
    ASSERT(!vprof_cupti_layout_verified(130300));
    ASSERT(!vprof_cupti_layout_verified(130500));
    ASSERT(!vprof_cupti_layout_verified(0));
    ASSERT(vprof_cupti_refusal_crashes(26));
    ASSERT(!vprof_cupti_refusal_crashes(27));
    ASSERT(!vprof_cupti_refusal_crashes(130001));
    ASSERT(vprof_cupti_disable_deadlocks(130000));
    ASSERT(!vprof_cupti_disable_deadlocks(130001));
}

TEST_MAIN(
    CASE(kernelIsPublishedAfterItsNameAndLaunchShape),
    CASE(repeatedLaunchShapeSendsOnlyTheKernel),
    CASE(invalidTimestampsAreRejectedByReasonAndNeverPublished),
    CASE(recordsLaunchedOutsideTheRangeAreClippedByCorrelationId),
    CASE(withoutUsableIdsTimestampsDecideMembership),
    CASE(graphKernelsCarryTheirGraphAndNodeIdsInTheirDesc),
    CASE(namesAreInternedByContentNotByPointer),
    CASE(unverifiedLayoutRejectsRecordsThatFailTheSanityCheck),
    CASE(deviceRecordCarriesThePropertiesOncePerDevice),
    CASE(kernelWhoseNameCannotBeSentIsDroppedAndTheNameIsSentLater),
    CASE(fullDescTableStillSendsEveryKernel),
    CASE(longNamesAreCutAtStringMax),
    CASE(resetRestartsIdsAtOne),
    CASE(memcpyMemsetMarkerAndApiRecordsKeepTheirFields),
    CASE(syncRecordsKeepTheirFieldsInEitherVersionAndAreJudgedByIdAndTime),
    CASE(apiRecordsOfCallsAfterTheStopAreClippedAndCountedLikeTheirKernels),
    CASE(ringDropsAreChargedToTheRangeOrLateRunWhoseRecordsTheyWere),
    CASE(vprofArmAcceptsEveryKey),
    CASE(vprofArmRejectsMalformedTextWithAReason),
    CASE(ringSizeAcceptsSuffixesClampsAndRoundsUp),
    CASE(bufferPoolHandsOutEachBufferOnceAndRunsDry),
    CASE(bufferPoolNeverRefusesACuptiThatCrashesOnARefusal),
    CASE(cuptiVersionGatesFollowTheKnownVersions),
)
