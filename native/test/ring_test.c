/* ring_test.c: the C ring's commit protocol, wrap, padding, full ring and reserve. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"

static int passed, failed;

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "  %s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, __func__, #cond); \
    return 0; } } while (0)

#define RUN(test) do { if (test()) { passed++; printf("ok   %s\n", #test); } \
    else { failed++; printf("FAIL %s\n", #test); } } while (0)

struct test_record {
    struct vprof_record_header h;
    uint32_t producer;
    uint32_t seq;
};

static void *new_region(uint64_t capacity, struct vprof_ring *ring)
{
    void *region = aligned_alloc(4096, VPROF_CONTROL_SIZE + capacity);
    memset(region, 0, VPROF_CONTROL_SIZE + capacity);
    ((struct vprof_control *)region)->ring_capacity = capacity;
    vprof_ring_init(ring, region, capacity);
    return region;
}

static int put(struct vprof_ring *ring, uint32_t type, uint32_t producer, uint32_t seq,
               uint32_t length, enum vprof_ring_class cls)
{
    struct test_record *r = vprof_ring_claim(ring, type, length, cls);
    if (r == NULL)
        return 0;
    r->producer = producer;
    r->seq = seq;
    vprof_ring_commit(ring, r);
    return 1;
}

struct order_check {
    uint32_t next_seq;
    int in_order;
    uint64_t count;
};

static void check_order(const struct vprof_record_header *h, void *arg)
{
    struct order_check *oc = arg;
    const struct test_record *r = (const struct test_record *)h;
    if (r->seq != oc->next_seq)
        oc->in_order = 0;
    oc->next_seq = r->seq + 1;
    oc->count++;
}

static int recordsSurviveManyWrapsInOrder(void)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    struct order_check oc = { 0, 1, 0 };
    uint32_t seq = 0;
    /* Lengths that do not divide the capacity, so wraps need padding. */
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 50; i++, seq++) {
            uint32_t len = 16u + (uint32_t)((seq * 7u) % 200u);
            CHECK(put(&ring, VPROF_REC_KERNEL, 0, seq, len, VPROF_RING_DATA));
        }
        vprof_ring_read(&ring, check_order, &oc, SIZE_MAX);
    }
    CHECK(oc.in_order);
    CHECK(oc.count == seq);
    CHECK(ring.control->records == seq);
    CHECK(ring.control->tail > 4u * VPROF_RING_MIN); /* it did wrap */
    CHECK(ring.control->head == ring.control->tail);
    CHECK(ring.control->ring_drops == 0);
    free(region);
    return 1;
}

static int recordThatWouldCrossTheEndGoesToOffsetZeroAfterPadding(void)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    struct order_check oc = { 0, 1, 0 };
    /* Fill to 24 bytes before the end, then drain. */
    uint32_t seq = 0;
    while (ring.capacity - (ring.control->tail & ring.mask) > 24u + 256u) {
        CHECK(put(&ring, VPROF_REC_MEMCPY, 0, seq++, 256, VPROF_RING_DATA));
        vprof_ring_read(&ring, check_order, &oc, SIZE_MAX);
    }
    uint64_t rest = ring.capacity - (ring.control->tail & ring.mask);
    CHECK(rest == 256u);
    CHECK(put(&ring, VPROF_REC_MEMCPY, 0, seq++, 24, VPROF_RING_DATA));
    rest -= 24u;
    while (rest > 24u) {
        CHECK(put(&ring, VPROF_REC_MEMCPY, 0, seq++, 16, VPROF_RING_DATA));
        rest -= 16u;
    }
    CHECK(rest == 24u);
    vprof_ring_read(&ring, check_order, &oc, SIZE_MAX);
    const uint64_t tail_before = ring.control->tail;
    const uint64_t bytes_before = ring.control->bytes;
    CHECK(put(&ring, VPROF_REC_MEMCPY, 0, seq++, 40, VPROF_RING_DATA));
    CHECK(ring.control->tail == tail_before + 24u + 40u);
    CHECK(ring.control->bytes == bytes_before + 24u + 40u);
    const struct vprof_record_header *pad =
        (const struct vprof_record_header *)(ring.bytes + ring.capacity - 24u);
    CHECK(pad->type == VPROF_REC_PADDING && pad->length == 24);
    const struct test_record *first = (const struct test_record *)ring.bytes;
    CHECK(first->h.length == 40 && first->h.type == VPROF_REC_MEMCPY && first->seq == seq - 1);
    /* The reader skips the padding and zeroes both. */
    oc.count = 0;
    CHECK(vprof_ring_read(&ring, check_order, &oc, SIZE_MAX) == 1);
    CHECK(oc.in_order && oc.count == 1);
    CHECK(pad->length == 0 && first->h.length == 0);
    free(region);
    return 1;
}

static int readerStopsAtARecordNotYetCommitted(void)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    struct order_check oc = { 0, 1, 0 };
    struct test_record *open = vprof_ring_claim(&ring, VPROF_REC_KERNEL, sizeof *open,
                                                VPROF_RING_DATA);
    CHECK(open != NULL && open->h.length < 0);
    CHECK(put(&ring, VPROF_REC_KERNEL, 0, 1, sizeof *open, VPROF_RING_DATA));
    CHECK(vprof_ring_read(&ring, check_order, &oc, SIZE_MAX) == 0);
    open->seq = 0;
    vprof_ring_commit(&ring, open);
    CHECK(vprof_ring_read(&ring, check_order, &oc, SIZE_MAX) == 2);
    CHECK(oc.in_order);
    free(region);
    return 1;
}

static int dropsAreCountedWhenTheRingIsFull(void)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    uint64_t written = 0, refused = 0, refused_kernels = 0;
    for (uint32_t i = 0; i < 10000; i++) {
        uint32_t type = i % 3 == 0 ? VPROF_REC_MEMSET : VPROF_REC_KERNEL;
        if (put(&ring, type, 0, i, 32, VPROF_RING_DATA)) {
            written++;
        } else {
            refused++;
            if (type == VPROF_REC_KERNEL)
                refused_kernels++;
        }
    }
    CHECK(refused > 0);
    CHECK(ring.control->records == written);
    CHECK(ring.control->ring_drops == refused);
    CHECK(ring.control->ring_drops_kernels == refused_kernels);
    CHECK(written + refused == 10000);
    free(region);
    return 1;
}

static int dataRecordsLeaveTheControlReserveFree(void)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    uint32_t seq = 0;
    while (put(&ring, VPROF_REC_KERNEL, 0, seq, 32, VPROF_RING_DATA))
        seq++;
    const uint64_t free_bytes = ring.capacity - (ring.control->tail - ring.control->head);
    CHECK(free_bytes >= VPROF_RING_CONTROL_RESERVE);
    CHECK(free_bytes < VPROF_RING_CONTROL_RESERVE + 32u);
    free(region);
    return 1;
}

static int controlRecordsMayUseTheReserve(void)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    uint32_t seq = 0;
    while (put(&ring, VPROF_REC_KERNEL, 0, seq, 32, VPROF_RING_DATA))
        seq++;
    const uint64_t drops = ring.control->ring_drops;
    struct vprof_rec_range range;
    memset(&range, 0, sizeof range);
    CHECK(vprof_ring_write(&ring, VPROF_REC_RANGE, &range, sizeof range, VPROF_RING_CONTROL));
    struct vprof_rec_clock_sync sync;
    memset(&sync, 0, sizeof sync);
    CHECK(vprof_ring_write(&ring, VPROF_REC_CLOCK_SYNC, &sync, sizeof sync, VPROF_RING_CONTROL));
    CHECK(ring.control->ring_drops == drops);
    /* Data is still refused, and control records too once the reserve is spent. */
    CHECK(!put(&ring, VPROF_REC_KERNEL, 0, seq, 32, VPROF_RING_DATA));
    uint32_t control_written = 2;
    while (vprof_ring_write(&ring, VPROF_REC_RANGE, &range, sizeof range, VPROF_RING_CONTROL))
        control_written++;
    CHECK(control_written >= VPROF_RING_CONTROL_RESERVE / vprof_ring_align(sizeof range) - 1u);
    CHECK(ring.control->tail - ring.control->head <= ring.capacity);
    free(region);
    return 1;
}

/* ---- concurrent producers ------------------------------------------------ */

enum { PRODUCERS = 4, PER_PRODUCER = 200000 };

struct concurrent {
    struct vprof_ring ring;
    uint64_t accepted[PRODUCERS];
    int producers_done;
    uint32_t next_seq[PRODUCERS];
    uint64_t read[PRODUCERS];
    int out_of_order;
};

struct producer_arg {
    struct concurrent *shared;
    uint32_t id;
};

static void *produce(void *p)
{
    struct producer_arg *a = p;
    for (uint32_t i = 0; i < PER_PRODUCER; i++) {
        uint32_t len = 16u + (i % 5u) * 8u;
        if (put(&a->shared->ring, VPROF_REC_KERNEL, a->id, i, len, VPROF_RING_DATA))
            a->shared->accepted[a->id]++;
    }
    __atomic_fetch_add(&a->shared->producers_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void count_concurrent(const struct vprof_record_header *h, void *arg)
{
    struct concurrent *s = arg;
    const struct test_record *r = (const struct test_record *)h;
    if (r->producer >= PRODUCERS || r->seq < s->next_seq[r->producer]) {
        s->out_of_order = 1;
        return;
    }
    s->next_seq[r->producer] = r->seq + 1;
    s->read[r->producer]++;
}

static int concurrentProducersAccountForEveryRecord(void)
{
    static struct concurrent s;
    memset(&s, 0, sizeof s);
    void *region = new_region(VPROF_RING_MIN, &s.ring);
    pthread_t threads[PRODUCERS];
    struct producer_arg args[PRODUCERS];
    for (uint32_t i = 0; i < PRODUCERS; i++) {
        args[i] = (struct producer_arg){ &s, i };
        CHECK(pthread_create(&threads[i], NULL, produce, &args[i]) == 0);
    }
    /* Drain while they write; a final drain after they are done. */
    while (__atomic_load_n(&s.producers_done, __ATOMIC_ACQUIRE) < PRODUCERS)
        vprof_ring_read(&s.ring, count_concurrent, &s, 4096);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(threads[i], NULL);
    while (vprof_ring_read(&s.ring, count_concurrent, &s, SIZE_MAX) != 0)
        ;
    uint64_t read = 0, accepted = 0;
    for (int i = 0; i < PRODUCERS; i++) {
        CHECK(s.read[i] == s.accepted[i]);
        read += s.read[i];
        accepted += s.accepted[i];
    }
    CHECK(!s.out_of_order);
    CHECK(read + s.ring.control->ring_drops == (uint64_t)PRODUCERS * PER_PRODUCER);
    CHECK(s.ring.control->records == accepted);
    CHECK(s.ring.control->head == s.ring.control->tail);
    free(region);
    return 1;
}

int main(void)
{
    RUN(recordsSurviveManyWrapsInOrder);
    RUN(recordThatWouldCrossTheEndGoesToOffsetZeroAfterPadding);
    RUN(readerStopsAtARecordNotYetCommitted);
    RUN(dropsAreCountedWhenTheRingIsFull);
    RUN(dataRecordsLeaveTheControlReserveFree);
    RUN(controlRecordsMayUseTheReserve);
    RUN(concurrentProducersAccountForEveryRecord);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
