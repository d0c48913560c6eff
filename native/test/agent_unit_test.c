/*
 * agent_unit_test.c: the agent's pieces that need no CUPTI: record conversion
 * and interning, the VPROF_ARM and VPROF_RING_SIZE parsers, the buffer pool.
 * Linked with the agent's sources except its entry points (no constructor).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/agent.h"

static int passed, failed;

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "  %s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, __func__, #cond); \
    return 0; } } while (0)
#define RUN(test) do { if (test()) { passed++; printf("ok   %s\n", #test); } \
    else { failed++; printf("FAIL %s\n", #test); } } while (0)

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
    uint8_t bytes[MAX_SEEN][256];
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

static int kernelIsPublishedAfterItsNameAndLaunchShape(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    CUpti_ActivityKernel10 k = kernel("ampere_sgemm_128x64", 7, 5000);
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    struct seen s;
    drain(&f, &s);
    CHECK(s.n == 3);
    CHECK(s.type[0] == VPROF_REC_STRING && s.type[1] == VPROF_REC_KERNEL_DESC &&
          s.type[2] == VPROF_REC_KERNEL);
    const struct vprof_rec_string *str = (const void *)s.bytes[0];
    CHECK(str->id == 1 && str->len == strlen("ampere_sgemm_128x64"));
    CHECK(memcmp(str + 1, "ampere_sgemm_128x64", str->len) == 0);
    const struct vprof_rec_kernel_desc *d = (const void *)s.bytes[1];
    CHECK(d->id == 1 && d->name_id == 1 && d->stream_id == 7 && d->context_id == 1);
    CHECK(d->grid_x == 128 && d->block_x == 256 && d->shared_memory == 3072 && d->registers == 64);
    CHECK(d->graph_id == 5);
    const struct vprof_rec_kernel *r = (const void *)s.bytes[2];
    CHECK(r->h.length == 32);
    CHECK(r->start == 5000 && r->end == 6000 && r->correlation_id == 77 && r->desc_id == 1);
    fixture_free(&f);
    return 1;
}

static int repeatedLaunchShapeSendsOnlyTheKernel(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    static const char name[] = "flash_fwd_kernel";
    CUpti_ActivityKernel10 k = kernel(name, 1, 100);
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    k.start = 200; k.end = 300;
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    k.streamId = 2; /* another stream: a new shape, the same name */
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    struct seen s;
    drain(&f, &s);
    /* STRING, DESC, KERNEL, KERNEL, DESC (stream 2), KERNEL */
    CHECK(s.n == 6);
    CHECK(s.type[3] == VPROF_REC_KERNEL && s.type[4] == VPROF_REC_KERNEL_DESC);
    const struct vprof_rec_kernel_desc *d2 = (const void *)s.bytes[4];
    CHECK(d2->id == 2 && d2->name_id == 1 && d2->stream_id == 2);
    fixture_free(&f);
    return 1;
}

/* Handling under test: timestamp validation (convert.c judge) of kernels, memcpys and memsets. */
static int invalidTimestampsAreRejectedByReasonAndNeverPublished(void)
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
        CHECK(vprof_convert_kernel(&f.cap, &k) == -1);
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
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_ZERO_TS] == 1);
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_START_ZERO] == 1);
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_END_ZERO] == 1);
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_END_BEFORE_START] == 1);
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_OUTSIDE_RANGE] == 2);
    CHECK(f.cap.rejected[VPROF_TALLY_MEMCPY][VPROF_DROPS_END_BEFORE_START] == 1);
    CHECK(f.cap.rejected[VPROF_TALLY_MEMSET][VPROF_DROPS_START_ZERO] == 1);
    CHECK(f.cap.arrived_plain_kernels == 6);
    CHECK(f.ring.control->records == 0); /* nothing reached the ring */
    /* a valid one does */
    CUpti_ActivityKernel10 good = kernel("k", 1, 1500000000ull);
    good.correlationId = 11;
    CHECK(vprof_convert_kernel(&f.cap, &good) == 1);
    CHECK(f.cap.kept_kernels == 1);
    fixture_free(&f);
    return 1;
}

/* Handling under test: membership by launch order (correlation ids) in convert.c judge. */
static int recordsLaunchedOutsideTheRangeAreClippedByCorrelationId(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    struct vprof_window_snap w = { .state = VPROF_WINDOW_STOPPING, .begin_corr = 100, .end_corr = 200,
                                   .begin_ns = 1000, .end_ns = 5000, .max_device = 64 };
    next_buffer(&f, &w);
    CUpti_ActivityKernel10 k = kernel("k", 1, 9000); /* started long after the stop: queued work */
    k.correlationId = 150;
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1); /* launched inside: kept whenever it ran */
    k.correlationId = 100;
    CHECK(vprof_convert_kernel(&f.cap, &k) == -1); /* the start's own id: not inside */
    k.correlationId = 200;
    CHECK(vprof_convert_kernel(&f.cap, &k) == -1); /* the stop's id */
    k.correlationId = 201;
    k.start = 0; k.end = 0; /* launched after the stop and cut off: clipped, not an invalid record */
    CHECK(vprof_convert_kernel(&f.cap, &k) == -1);
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_CLIPPED] == 3);
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_ZERO_TS] == 0);
    /* a range the next one cut short: its work arriving now is kept, inside a LATE run naming it */
    struct vprof_window_snap next = { .state = VPROF_WINDOW_OPEN, .begin_corr = 300, .prev_begin_corr = 100,
                                      .prev_end_corr = 200, .prev_index = 4, .capture_id = 9, .begin_ns = 6000,
                                      .max_device = 64 };
    next_buffer(&f, &next);
    struct seen s0;
    drain(&f, &s0);
    k = kernel("k", 1, 5500);
    k.correlationId = 170;
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    k.correlationId = 310; /* the new range's */
    k.start = 7000; k.end = 8000;
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    vprof_convert_end_buffer(&f.cap);
    CHECK(f.cap.kept_late == 1 && f.cap.kept_kernels == 1);
    struct seen s;
    drain(&f, &s);
    /* LATE_BEGIN(4), KERNEL 170, LATE_END(4), KERNEL 310 */
    CHECK(s.n == 4 && s.type[0] == VPROF_REC_RANGE && s.type[2] == VPROF_REC_RANGE);
    const struct vprof_rec_range *lb = (const void *)s.bytes[0];
    const struct vprof_rec_range *le = (const void *)s.bytes[2];
    CHECK(lb->edge == VPROF_RANGE_LATE_BEGIN && lb->index == 4 && lb->capture_id == 9);
    CHECK(le->edge == VPROF_RANGE_LATE_END && le->index == 4);
    CHECK(((const struct vprof_rec_kernel *)s.bytes[1])->correlation_id == 170);
    CHECK(((const struct vprof_rec_kernel *)s.bytes[3])->correlation_id == 310);
    /* no range at all */
    struct vprof_window_snap none = { .state = VPROF_WINDOW_NONE, .max_device = 64 };
    next_buffer(&f, &none);
    k.correlationId = 400;
    CHECK(vprof_convert_kernel(&f.cap, &k) == -1);
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_CLIPPED] == 1);
    fixture_free(&f);
    return 1;
}

/* Handling under test: the timestamp fallback where edges have no ids or ids do not grow. */
static int withoutUsableIdsTimestampsDecideMembership(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    struct vprof_window_snap w = { .state = VPROF_WINDOW_STOPPING, .ts_membership = 1, .begin_corr = 500,
                                   .end_corr = 400, .begin_ns = 1000000000ull, .end_ns = 2000000000ull,
                                   .max_device = 64 };
    next_buffer(&f, &w);
    CUpti_ActivityKernel10 k = kernel("k", 1, 1500000000ull);
    k.correlationId = 450; /* between the (non-monotonic) ids: ignored, time decides */
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    k.start = 2100000000ull; k.end = k.start + 10;
    CHECK(vprof_convert_kernel(&f.cap, &k) == -1); /* started after the end */
    k.start = 500000000ull; k.end = k.start + 10;
    CHECK(vprof_convert_kernel(&f.cap, &k) == -1); /* started before the begin */
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_CLIPPED] == 2);
    fixture_free(&f);
    return 1;
}

/* Handling under test: graph kernels carry graph id and node id (KERNEL_DESC, one per node). */
static int graphKernelsCarryTheirGraphAndNodeIdsInTheirDesc(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    CUpti_ActivityKernel10 k = kernel("node_kernel", 7, 100);
    k.graphId = 42;
    k.graphNodeId = 0x100000001ull;
    k.correlationId = 77; /* the graph launch's id, shared by its nodes */
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    k.graphNodeId = 0x100000002ull; /* the same kernel as another node of the graph */
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    k.start = 500; k.end = 600; /* a replay of the first node: its desc again */
    k.graphNodeId = 0x100000001ull;
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    struct seen s;
    drain(&f, &s);
    CHECK(s.n == 6); /* STRING, DESC, KERNEL, DESC, KERNEL, KERNEL */
    const struct vprof_rec_kernel_desc *d1 = (const void *)s.bytes[1];
    const struct vprof_rec_kernel_desc *d2 = (const void *)s.bytes[3];
    CHECK(d1->h.length == (int32_t)sizeof *d1);
    CHECK(d1->graph_id == 42 && d1->graph_node_id == 0x100000001ull);
    CHECK(d2->graph_id == 42 && d2->graph_node_id == 0x100000002ull && d2->id != d1->id);
    const struct vprof_rec_kernel *last = (const void *)s.bytes[5];
    CHECK(last->desc_id == d1->id && last->correlation_id == 77);
    CHECK(f.cap.kept_graph_kernels == 3);
    fixture_free(&f);
    return 1;
}

/* Handling under test: names interned by content (intern.c), not only by CUPTI's pointer (R11). */
static int namesAreInternedByContentNotByPointer(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    char a[32], b[32];
    strcpy(a, "triton_poi_fused_add_0");
    strcpy(b, "triton_poi_fused_add_0");
    CUpti_ActivityKernel10 k = kernel(a, 1, 100);
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    k.name = b; /* the same text at another address: the same STRING */
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    /* A module reload puts another kernel's name at address a. */
    strcpy(a, "triton_poi_fused_mul_1");
    struct vprof_window_snap w = { .state = VPROF_WINDOW_OPEN, .max_device = 64 };
    next_buffer(&f, &w);
    k.name = a;
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    struct seen s;
    drain(&f, &s);
    /* STRING 1, DESC 1, KERNEL, DESC 2 (pointer b, name 1), KERNEL, STRING 2, DESC 3, KERNEL */
    CHECK(s.n == 8);
    CHECK(s.type[0] == VPROF_REC_STRING && s.type[3] == VPROF_REC_KERNEL_DESC && s.type[5] == VPROF_REC_STRING);
    const struct vprof_rec_kernel_desc *d2 = (const void *)s.bytes[3];
    CHECK(d2->name_id == 1);
    const struct vprof_rec_string *s2 = (const void *)s.bytes[5];
    CHECK(s2->id == 2 && s2->len == strlen("triton_poi_fused_mul_1") &&
          memcmp(s2 + 1, "triton_poi_fused_mul_1", s2->len) == 0);
    const struct vprof_rec_kernel_desc *d3 = (const void *)s.bytes[6];
    CHECK(d3->name_id == 2 && d3->id == 3);
    const struct vprof_rec_kernel *last = (const void *)s.bytes[7];
    CHECK(last->desc_id == 3);
    fixture_free(&f);
    return 1;
}

/* Handling under test: the sanity check of every record under an unverified CUPTI layout. */
static int unverifiedLayoutRejectsRecordsThatFailTheSanityCheck(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    struct vprof_window_snap w = { .state = VPROF_WINDOW_OPEN, .check_records = 1, .max_device = 64 };
    next_buffer(&f, &w);
    CUpti_ActivityKernel10 k = kernel("fine", 1, 100);
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    k.name = NULL;
    CHECK(vprof_convert_kernel(&f.cap, &k) == -1);
    k.name = "fine";
    k.deviceId = 1000;
    CHECK(vprof_convert_kernel(&f.cap, &k) == -1);
    CHECK(f.cap.rejected[VPROF_TALLY_KERNEL][VPROF_DROPS_BAD_RECORD] == 2);
    /* the same records under a verified layout: the name check is not made */
    w.check_records = 0;
    next_buffer(&f, &w);
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    fixture_free(&f);
    return 1;
}

/* Handling under test: DEVICE records from CUPTI's device records, once per device (issue 11). */
static int deviceRecordCarriesThePropertiesOncePerDevice(void)
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
    CHECK(s.n == 2 && s.type[0] == VPROF_REC_STRING && s.type[1] == VPROF_REC_DEVICE);
    const struct vprof_rec_device *r = (const void *)s.bytes[1];
    CHECK(r->id == 1 && r->name_id == 1 && r->sm_count == 132 && r->compute_major == 9 &&
          r->global_memory_bytes == 85520809984ull && r->warp_size == 32 && r->max_warps_per_sm == 64 &&
          r->max_threads_per_block == 1024 && r->flags == VPROF_DEVICE_ECC && r->uuid[0] == 0x5a);
    fixture_free(&f);
    return 1;
}

static int kernelWhoseNameCannotBeSentIsDroppedAndTheNameIsSentLater(void)
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
    CHECK(vprof_convert_kernel(&f.cap, &k) == 0);
    CHECK(f.ring.control->ring_drops_kernels == 1);
    CHECK(f.ring.control->ring_drops == drops0 + 2); /* the STRING and the kernel */
    struct seen s;
    drain(&f, &s);
    CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    drain(&f, &s);
    CHECK(s.n == 3 && s.type[0] == VPROF_REC_STRING && s.type[1] == VPROF_REC_KERNEL_DESC);
    fixture_free(&f);
    return 1;
}

static int fullDescTableStillSendsEveryKernel(void)
{
    struct fixture f;
    fixture_init(&f, 16u * 1024u * 1024u);
    const uint32_t shapes = VPROF_INTERN_DESCS + 1000u;
    for (uint32_t i = 0; i < shapes; i++) {
        CUpti_ActivityKernel10 k = kernel("same_name", i, 1000u + i);
        CHECK(vprof_convert_kernel(&f.cap, &k) == 1);
    }
    CHECK(f.ring.control->ring_drops == 0);
    /* one STRING, one KERNEL_DESC and one KERNEL per shape */
    CHECK(f.ring.control->records == 1u + 2u * shapes);
    CHECK(f.cap.intern.next_desc_id == shapes + 1u);
    fixture_free(&f);
    return 1;
}

static int longNamesAreCutAtStringMax(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    char *name = malloc(VPROF_STRING_MAX + 100);
    memset(name, 'x', VPROF_STRING_MAX + 99);
    name[VPROF_STRING_MAX + 99] = '\0';
    CHECK(vprof_convert_string(&f.cap, name) == 1);
    const struct vprof_rec_string *r = (const void *)f.ring.bytes;
    CHECK(r->len == VPROF_STRING_MAX && r->h.length == (int32_t)VPROF_RECORD_MAX);
    CHECK(vprof_convert_string(&f.cap, name) == 1); /* sent once */
    CHECK(f.ring.control->records == 1);
    free(name);
    fixture_free(&f);
    return 1;
}

static int resetRestartsIdsAtOne(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    CHECK(vprof_convert_string(&f.cap, "a") == 1);
    CHECK(vprof_convert_string(&f.cap, "b") == 2);
    vprof_intern_reset(&f.cap.intern);
    static const char c[] = "c";
    CHECK(vprof_convert_string(&f.cap, c) == 1);
    fixture_free(&f);
    return 1;
}

static int memcpyMemsetMarkerAndApiRecordsKeepTheirFields(void)
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
    CHECK(s.n == 5);
    const struct vprof_rec_memcpy *rc = (const void *)s.bytes[0];
    CHECK(s.type[0] == VPROF_REC_MEMCPY && rc->bytes == 4096 && rc->copy_kind == 1 &&
          rc->flags == 1 && rc->stream_id == 3 && rc->correlation_id == 9 && rc->end == 20);
    const struct vprof_rec_memset *rs = (const void *)s.bytes[1];
    CHECK(s.type[1] == VPROF_REC_MEMSET && rs->value == 0xab && rs->bytes == 512);
    CHECK(s.type[2] == VPROF_REC_STRING);
    const struct vprof_rec_marker *rm = (const void *)s.bytes[3];
    CHECK(s.type[3] == VPROF_REC_MARKER && rm->flags == VPROF_MARKER_START && rm->name_id == 1 &&
          rm->domain_id == 0 && rm->tid == 4242 && rm->timestamp == 50 && rm->id == 4);
    const struct vprof_rec_api *ra = (const void *)s.bytes[4];
    CHECK(s.type[4] == VPROF_REC_API && ra->domain == VPROF_API_RUNTIME && ra->cbid == 211 &&
          ra->tid == 4242 && ra->start == 60);
    fixture_free(&f);
    return 1;
}

/* ---- parsers -------------------------------------------------------------- */

static int vprofArmAcceptsEveryKey(void)
{
    struct vprof_arming a;
    char why[256] = "";
    CHECK(vprof_parse_arm("mode=nvtx,repeat=3,kinds=0x1f,buffer=2m,frontend=1234,capture=7,"
                          "name=decode step,domain=vllm", &a, why, sizeof why) == 0);
    CHECK(a.mode == VPROF_RANGE_NVTX && a.repeat == 3 && a.kinds == 0x1f);
    CHECK(a.buffer_size == 2u * 1024u * 1024u && a.frontend_pid == 1234 && a.capture_id == 7);
    CHECK(strcmp(a.name, "decode step") == 0 && strcmp(a.domain, "vllm") == 0);
    CHECK(vprof_parse_arm("mode=profiler", &a, why, sizeof why) == 0);
    CHECK(a.mode == VPROF_RANGE_PROFILER && a.kinds == VPROF_KINDS_DEFAULT && a.repeat == 0);
    return 1;
}

static int vprofArmRejectsMalformedTextWithAReason(void)
{
    struct vprof_arming a;
    char why[256];
    static const char *const bad[] = {
        "mode=sometimes", "repeat=-1", "kinds=0", "kinds=1024", "buffer=12q", "frontend=x",
        "colour=red", "mode=none,mode=none", "mode", "mode=nvtx", "", "repeat=99999999999",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        if (vprof_parse_arm(bad[i], &a, why, sizeof why) != -1 || strstr(why, "VPROF_ARM") == NULL) {
            fprintf(stderr, "  accepted or unexplained: '%s' -> '%s'\n", bad[i], why);
            return 0;
        }
    }
    return 1;
}

static int ringSizeAcceptsSuffixesClampsAndRoundsUp(void)
{
    char why[256] = "";
    CHECK(vprof_ring_size_parse("100k", why, sizeof why) == 131072u);
    CHECK(vprof_ring_size_parse("64m", why, sizeof why) == 64u * 1024u * 1024u);
    CHECK(vprof_ring_size_parse("1000000", why, sizeof why) == 1048576u);
    CHECK(vprof_ring_size_parse("5", why, sizeof why) == VPROF_RING_MIN);
    CHECK(vprof_ring_size_parse("8g", why, sizeof why) == VPROF_RING_MAX);
    CHECK(vprof_ring_size_parse(NULL, why, sizeof why) == VPROF_RING_DEFAULT);
    CHECK(why[0] == '\0');
    CHECK(vprof_ring_size_parse("lots", why, sizeof why) == VPROF_RING_DEFAULT);
    CHECK(strstr(why, "VPROF_RING_SIZE=lots") != NULL);
    return 1;
}

static int bufferPoolHandsOutEachBufferOnceAndRunsDry(void)
{
    static struct vprof_buffer_pool pool;
    CHECK(vprof_pool_prepare(&pool, 0, VPROF_POOL_BUFFERS) == 0);
    CHECK(pool.size == VPROF_POOL_DEFAULT_SIZE);
    uint8_t *taken[VPROF_POOL_BUFFERS];
    for (uint32_t i = 0; i < VPROF_POOL_BUFFERS; i++) {
        taken[i] = vprof_pool_take(&pool);
        CHECK(taken[i] != NULL && ((uintptr_t)taken[i] & 7u) == 0);
        for (uint32_t j = 0; j < i; j++)
            CHECK(taken[j] != taken[i]);
    }
    CHECK(vprof_pool_take(&pool) == NULL);
    int foreign;
    vprof_pool_give(&pool, (uint8_t *)&foreign); /* not ours: ignored */
    CHECK(vprof_pool_take(&pool) == NULL);
    vprof_pool_give(&pool, taken[3]);
    CHECK(vprof_pool_take(&pool) == taken[3]);
    CHECK(vprof_pool_clamp_size(1) == VPROF_POOL_MIN_SIZE);
    CHECK(vprof_pool_clamp_size(1u << 30) == VPROF_POOL_MAX_SIZE);
    CHECK(pool.refusals == 2 && pool.emergency == 0);
    return 1;
}

/* Handling under test: the pool never refuses a CUPTI older than API 27 (buffer_pool.c take). */
static int bufferPoolNeverRefusesACuptiThatCrashesOnARefusal(void)
{
    static struct vprof_buffer_pool pool;
    CHECK(vprof_pool_prepare(&pool, VPROF_POOL_MIN_SIZE, 2) == 0);
    pool.never_refuse = 1;
    uint8_t *a = vprof_pool_take(&pool), *b = vprof_pool_take(&pool), *c = vprof_pool_take(&pool);
    CHECK(a != NULL && b != NULL && c != NULL && c != a && c != b);
    CHECK(pool.emergency == 1 && pool.refusals == 0 && pool.total == 3);
    CHECK(vprof_pool_outstanding(&pool) == 3);
    vprof_pool_give(&pool, c); /* the emergency buffer stays in the pool */
    CHECK(vprof_pool_take(&pool) == c && pool.emergency == 1);
    return 1;
}

/* Handling under test: the version gates of cupti_api.h (layout list, refusal, 13.0 GA deadlock). */
static int cuptiVersionGatesFollowTheKnownVersions(void)
{
    CHECK(vprof_cupti_layout_verified(19) && vprof_cupti_layout_verified(28));
    CHECK(vprof_cupti_layout_verified(130000) && vprof_cupti_layout_verified(130001));
    CHECK(!vprof_cupti_layout_verified(130200) && !vprof_cupti_layout_verified(130300) &&
          !vprof_cupti_layout_verified(130500) && !vprof_cupti_layout_verified(0));
    CHECK(vprof_cupti_refusal_crashes(26) && !vprof_cupti_refusal_crashes(27) &&
          !vprof_cupti_refusal_crashes(130001));
    CHECK(vprof_cupti_disable_deadlocks(130000) && !vprof_cupti_disable_deadlocks(130001));
    return 1;
}

int main(void)
{
    RUN(kernelIsPublishedAfterItsNameAndLaunchShape);
    RUN(repeatedLaunchShapeSendsOnlyTheKernel);
    RUN(invalidTimestampsAreRejectedByReasonAndNeverPublished);
    RUN(recordsLaunchedOutsideTheRangeAreClippedByCorrelationId);
    RUN(withoutUsableIdsTimestampsDecideMembership);
    RUN(graphKernelsCarryTheirGraphAndNodeIdsInTheirDesc);
    RUN(namesAreInternedByContentNotByPointer);
    RUN(unverifiedLayoutRejectsRecordsThatFailTheSanityCheck);
    RUN(deviceRecordCarriesThePropertiesOncePerDevice);
    RUN(kernelWhoseNameCannotBeSentIsDroppedAndTheNameIsSentLater);
    RUN(fullDescTableStillSendsEveryKernel);
    RUN(longNamesAreCutAtStringMax);
    RUN(resetRestartsIdsAtOne);
    RUN(memcpyMemsetMarkerAndApiRecordsKeepTheirFields);
    RUN(vprofArmAcceptsEveryKey);
    RUN(vprofArmRejectsMalformedTextWithAReason);
    RUN(ringSizeAcceptsSuffixesClampsAndRoundsUp);
    RUN(bufferPoolHandsOutEachBufferOnceAndRunsDry);
    RUN(bufferPoolNeverRefusesACuptiThatCrashesOnARefusal);
    RUN(cuptiVersionGatesFollowTheKnownVersions);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
