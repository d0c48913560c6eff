/* ring_test.c: the C ring's commit protocol, wrap, padding, full ring and reserve. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"
#include "test.h"

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

TEST(recordsSurviveManyWrapsInOrder)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    struct order_check oc = { 0, 1, 0 };
    uint32_t seq = 0;
    /* Lengths that do not divide the capacity, so wraps need padding. */
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 50; i++, seq++) {
            uint32_t len = 16u + (uint32_t)((seq * 7u) % 200u);
            ASSERT(put(&ring, VPROF_REC_KERNEL, 0, seq, len, VPROF_RING_DATA));
        }
        vprof_ring_read(&ring, check_order, &oc, SIZE_MAX);
    }
    ASSERT(oc.in_order);
    ASSERT_EQ(oc.count, seq);
    ASSERT_EQ(ring.control->records, seq);
    ASSERT_GT(ring.control->tail, 4u * VPROF_RING_MIN); /* it did wrap */
    ASSERT_EQ(ring.control->head, ring.control->tail);
    ASSERT_EQ(ring.control->ring_drops, 0);
    free(region);
}

TEST(recordThatWouldCrossTheEndGoesToOffsetZeroAfterPadding)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    struct order_check oc = { 0, 1, 0 };
    /* Fill to 24 bytes before the end, then drain. */
    uint32_t seq = 0;
    while (ring.capacity - (ring.control->tail & ring.mask) > 24u + 256u) {
        ASSERT(put(&ring, VPROF_REC_MEMCPY, 0, seq++, 256, VPROF_RING_DATA));
        vprof_ring_read(&ring, check_order, &oc, SIZE_MAX);
    }
    uint64_t rest = ring.capacity - (ring.control->tail & ring.mask);
    ASSERT_EQ(rest, 256u);
    ASSERT(put(&ring, VPROF_REC_MEMCPY, 0, seq++, 24, VPROF_RING_DATA));
    rest -= 24u;
    while (rest > 24u) {
        ASSERT(put(&ring, VPROF_REC_MEMCPY, 0, seq++, 16, VPROF_RING_DATA));
        rest -= 16u;
    }
    ASSERT_EQ(rest, 24u);
    vprof_ring_read(&ring, check_order, &oc, SIZE_MAX);
    const uint64_t tail_before = ring.control->tail;
    const uint64_t bytes_before = ring.control->bytes;
    ASSERT(put(&ring, VPROF_REC_MEMCPY, 0, seq++, 40, VPROF_RING_DATA));
    ASSERT_EQ(ring.control->tail, tail_before + 24u + 40u);
    ASSERT_EQ(ring.control->bytes, bytes_before + 24u + 40u);
    const struct vprof_record_header *pad =
        (const struct vprof_record_header *)(ring.bytes + ring.capacity - 24u);
    ASSERT_EQ(pad->type, VPROF_REC_PADDING);
    ASSERT_EQ(pad->length, 24);
    const struct test_record *first = (const struct test_record *)ring.bytes;
    ASSERT_EQ(first->h.length, 40);
    ASSERT_EQ(first->h.type, VPROF_REC_MEMCPY);
    ASSERT_EQ(first->seq, seq - 1);
    /* The reader skips the padding and zeroes both. */
    oc.count = 0;
    ASSERT_EQ(vprof_ring_read(&ring, check_order, &oc, SIZE_MAX), 1);
    ASSERT(oc.in_order);
    ASSERT_EQ(oc.count, 1);
    ASSERT_EQ(pad->length, 0);
    ASSERT_EQ(first->h.length, 0);
    free(region);
}

TEST(readerStopsAtARecordNotYetCommitted)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    struct order_check oc = { 0, 1, 0 };
    struct test_record *open = vprof_ring_claim(&ring, VPROF_REC_KERNEL, sizeof *open,
                                                VPROF_RING_DATA);
    ASSERT(open != NULL);
    ASSERT_LT(open->h.length, 0);
    ASSERT(put(&ring, VPROF_REC_KERNEL, 0, 1, sizeof *open, VPROF_RING_DATA));
    ASSERT_EQ(vprof_ring_read(&ring, check_order, &oc, SIZE_MAX), 0);
    open->seq = 0;
    vprof_ring_commit(&ring, open);
    ASSERT_EQ(vprof_ring_read(&ring, check_order, &oc, SIZE_MAX), 2);
    ASSERT(oc.in_order);
    free(region);
}

/* A producer that died after its claim: what it leaves at head, -len stored or not. */
static void claim_and_die(struct vprof_ring *ring, uint32_t length, int stored_length)
{
    struct vprof_control *c = ring->control;
    const uint64_t tail = c->tail;
    c->tail = tail + length;
    if (stored_length) {
        struct vprof_record_header *h = (struct vprof_record_header *)(ring->bytes + (tail & ring->mask));
        h->length = -(int32_t)length;
        h->type = VPROF_REC_KERNEL;
    }
}

static void unblocks(int stored_length)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    struct order_check oc = { 0, 1, 0 };
    ASSERT(put(&ring, VPROF_REC_KERNEL, 0, 0, sizeof(struct test_record), VPROF_RING_DATA));
    claim_and_die(&ring, 48, stored_length);
    ASSERT(put(&ring, VPROF_REC_KERNEL, 0, 1, sizeof(struct test_record), VPROF_RING_DATA));
    ASSERT(put(&ring, VPROF_REC_KERNEL, 0, 2, sizeof(struct test_record), VPROF_RING_DATA));
    ASSERT_EQ(vprof_ring_read(&ring, check_order, &oc, SIZE_MAX), 1);
    ASSERT_EQ(vprof_ring_read(&ring, check_order, &oc, SIZE_MAX), 0);
    ASSERT_EQ(vprof_ring_unblock(&ring), 48);
    ASSERT_EQ(vprof_ring_read(&ring, check_order, &oc, SIZE_MAX), 2);
    ASSERT(oc.in_order);
    ASSERT_EQ(oc.count, 3);
    ASSERT_EQ(ring.control->head, ring.control->tail);
    ASSERT_EQ(vprof_ring_unblock(&ring), 0);
    for (uint64_t i = 0; i < 16 + 48 + 32; i++)
        ASSERT_EQ(ring.bytes[i], 0);
    free(region);
}

TEST(aClaimWrittenButNeverCommittedIsSkippedByItsLength)
{
    unblocks(1);
}

TEST(aClaimWithNoLengthYetIsSkippedToTheNextHeader)
{
    unblocks(0);
}

TEST(unblockLeavesACommittedOrEmptyHeadAlone)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    ASSERT_EQ(vprof_ring_unblock(&ring), 0);
    ASSERT(put(&ring, VPROF_REC_KERNEL, 0, 0, sizeof(struct test_record), VPROF_RING_DATA));
    ASSERT_EQ(vprof_ring_unblock(&ring), 0);
    free(region);
}

TEST(dropsAreCountedWhenTheRingIsFull)
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
    ASSERT_GT(refused, 0);
    ASSERT_EQ(ring.control->records, written);
    ASSERT_EQ(ring.control->ring_drops, refused);
    ASSERT_EQ(ring.control->ring_drops_kernels, refused_kernels);
    ASSERT_EQ(written + refused, 10000);
    free(region);
}

TEST(dataRecordsLeaveTheControlReserveFree)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    uint32_t seq = 0;
    while (put(&ring, VPROF_REC_KERNEL, 0, seq, 32, VPROF_RING_DATA))
        seq++;
    const uint64_t free_bytes = ring.capacity - (ring.control->tail - ring.control->head);
    ASSERT_GE(free_bytes, VPROF_RING_CONTROL_RESERVE);
    ASSERT_LT(free_bytes, VPROF_RING_CONTROL_RESERVE + 32u);
    free(region);
}

TEST(controlRecordsMayUseTheReserve)
{
    struct vprof_ring ring;
    void *region = new_region(VPROF_RING_MIN, &ring);
    uint32_t seq = 0;
    while (put(&ring, VPROF_REC_KERNEL, 0, seq, 32, VPROF_RING_DATA))
        seq++;
    const uint64_t drops = ring.control->ring_drops;
    struct vprof_rec_range range;
    memset(&range, 0, sizeof range);
    ASSERT(vprof_ring_write(&ring, VPROF_REC_RANGE, &range, sizeof range, VPROF_RING_CONTROL));
    struct vprof_rec_clock_sync sync;
    memset(&sync, 0, sizeof sync);
    ASSERT(vprof_ring_write(&ring, VPROF_REC_CLOCK_SYNC, &sync, sizeof sync, VPROF_RING_CONTROL));
    ASSERT_EQ(ring.control->ring_drops, drops);
    /* Data is still refused, and control records too once the reserve is spent. */
    ASSERT(!put(&ring, VPROF_REC_KERNEL, 0, seq, 32, VPROF_RING_DATA));
    uint32_t control_written = 2;
    while (vprof_ring_write(&ring, VPROF_REC_RANGE, &range, sizeof range, VPROF_RING_CONTROL))
        control_written++;
    ASSERT_GE(control_written, VPROF_RING_CONTROL_RESERVE / vprof_ring_align(sizeof range) - 1u);
    ASSERT_LE(ring.control->tail - ring.control->head, ring.capacity);
    free(region);
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

TEST(concurrentProducersAccountForEveryRecord)
{
    static struct concurrent s;
    memset(&s, 0, sizeof s);
    void *region = new_region(VPROF_RING_MIN, &s.ring);
    pthread_t threads[PRODUCERS];
    struct producer_arg args[PRODUCERS];
    for (uint32_t i = 0; i < PRODUCERS; i++) {
        args[i] = (struct producer_arg){ &s, i };
        ASSERT_EQ(pthread_create(&threads[i], NULL, produce, &args[i]), 0);
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
        ASSERT_EQ(s.read[i], s.accepted[i]);
        read += s.read[i];
        accepted += s.accepted[i];
    }
    ASSERT(!s.out_of_order);
    ASSERT_EQ(read + s.ring.control->ring_drops, (uint64_t)PRODUCERS * PER_PRODUCER);
    ASSERT_EQ(s.ring.control->records, accepted);
    ASSERT_EQ(s.ring.control->head, s.ring.control->tail);
    free(region);
}

TEST_MAIN(
    CASE(recordsSurviveManyWrapsInOrder),
    CASE(recordThatWouldCrossTheEndGoesToOffsetZeroAfterPadding),
    CASE(readerStopsAtARecordNotYetCommitted),
    CASE(aClaimWrittenButNeverCommittedIsSkippedByItsLength),
    CASE(aClaimWithNoLengthYetIsSkippedToTheNextHeader),
    CASE(unblockLeavesACommittedOrEmptyHeadAlone),
    CASE(dropsAreCountedWhenTheRingIsFull),
    CASE(dataRecordsLeaveTheControlReserveFree),
    CASE(controlRecordsMayUseTheReserve),
    CASE(concurrentProducersAccountForEveryRecord),
)
