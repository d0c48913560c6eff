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

static int zeroTimestampKernelIsCountedNotPublished(void)
{
    struct fixture f;
    fixture_init(&f, VPROF_RING_MIN);
    CUpti_ActivityKernel10 k = kernel("k", 1, 0);
    k.end = 0;
    CHECK(vprof_convert_kernel(&f.cap, &k) == -1);
    CHECK(f.cap.zero_ts_kernels == 1);
    CHECK(f.ring.control->records == 0);
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
    CHECK(vprof_pool_prepare(&pool, 0) == 0);
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
    return 1;
}

int main(void)
{
    RUN(kernelIsPublishedAfterItsNameAndLaunchShape);
    RUN(repeatedLaunchShapeSendsOnlyTheKernel);
    RUN(zeroTimestampKernelIsCountedNotPublished);
    RUN(kernelWhoseNameCannotBeSentIsDroppedAndTheNameIsSentLater);
    RUN(fullDescTableStillSendsEveryKernel);
    RUN(longNamesAreCutAtStringMax);
    RUN(resetRestartsIdsAtOne);
    RUN(memcpyMemsetMarkerAndApiRecordsKeepTheirFields);
    RUN(vprofArmAcceptsEveryKey);
    RUN(vprofArmRejectsMalformedTextWithAReason);
    RUN(ringSizeAcceptsSuffixesClampsAndRoundsUp);
    RUN(bufferPoolHandsOutEachBufferOnceAndRunsDry);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
