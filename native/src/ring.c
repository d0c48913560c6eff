/*
 * ring.c: multi-producer, single-consumer byte ring in the shared region.
 *
 * The protocol follows Agrona's ManyToOneRingBuffer (and aeron_mpsc_rb.c):
 *
 *   claim:   CAS tail forward by the aligned record length; when the record
 *            would run past the end of the buffer, the same CAS also claims the
 *            bytes up to the end, which become a PADDING record, and the record
 *            starts at offset 0.
 *   write:   length = -len (so a reader stops here), type, payload.
 *   commit:  length = +len with release.
 *   read:    length with acquire; <= 0 is "not yet"; zero the record; head += len
 *            with release, which is what hands the bytes back to the producers.
 *
 * The consumer zeroes what it read, so a producer that has claimed but not yet
 * stored its negative length leaves a 0 there, which reads as "not yet" too.
 */
#include "ring.h"

#include <string.h>

#define LOAD_ACQ(p)        __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define LOAD_RLX(p)        __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE_REL(p, v)    __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define STORE_RLX(p, v)    __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define ADD_RLX(p, v)      __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

void vprof_ring_init(struct vprof_ring *ring, void *region, uint64_t capacity)
{
    ring->control = (struct vprof_control *)region;
    ring->bytes = (uint8_t *)region + VPROF_CONTROL_SIZE;
    ring->capacity = capacity;
    ring->mask = capacity - 1u;
}

static void count_drop(struct vprof_ring *ring, uint32_t type)
{
    ADD_RLX(&ring->control->ring_drops, 1u);
    if (type == VPROF_REC_KERNEL)
        ADD_RLX(&ring->control->ring_drops_kernels, 1u);
}

void *vprof_ring_claim(struct vprof_ring *ring, uint32_t type, uint32_t length,
                       enum vprof_ring_class cls)
{
    struct vprof_control *c = ring->control;
    const uint64_t aligned = vprof_ring_align(length);
    const uint64_t reserve = cls == VPROF_RING_DATA ? VPROF_RING_CONTROL_RESERVE : 0u;
    uint64_t head = LOAD_ACQ(&c->head);
    uint64_t tail = LOAD_RLX(&c->tail);
    uint64_t index, padding;

    for (;;) {
        index = tail & ring->mask;
        padding = aligned > ring->capacity - index ? ring->capacity - index : 0u;
        const uint64_t needed = padding + aligned;
        /* A stale head only makes the ring look fuller than it is. */
        if (needed + reserve > ring->capacity - (tail - head)) {
            const uint64_t fresh = LOAD_ACQ(&c->head);
            if (fresh == head) {
                count_drop(ring, type);
                return NULL;
            }
            head = fresh;
            continue;
        }
        if (__atomic_compare_exchange_n(&c->tail, &tail, tail + needed, 1,
                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            break;
        /* tail now holds the winner's value; try again from there. */
    }

    if (padding != 0u) {
        struct vprof_record_header *pad = (struct vprof_record_header *)(ring->bytes + index);
        pad->type = VPROF_REC_PADDING;
        STORE_REL(&pad->length, (int32_t)padding);
        ADD_RLX(&c->bytes, padding);
        index = 0u;
    }
    struct vprof_record_header *h = (struct vprof_record_header *)(ring->bytes + index);
    STORE_RLX(&h->length, -(int32_t)aligned);
    h->type = type;
    return h;
}

void vprof_ring_commit(struct vprof_ring *ring, void *record)
{
    struct vprof_record_header *h = record;
    const int32_t length = -LOAD_RLX(&h->length);
    STORE_REL(&h->length, length);
    ADD_RLX(&ring->control->records, 1u);
    ADD_RLX(&ring->control->bytes, (uint64_t)length);
}

int vprof_ring_write(struct vprof_ring *ring, uint32_t type, const void *record,
                     uint32_t length, enum vprof_ring_class cls)
{
    uint8_t *dst = vprof_ring_claim(ring, type, length, cls);
    if (dst == NULL)
        return 0;
    const size_t header = sizeof(struct vprof_record_header);
    memcpy(dst + header, (const uint8_t *)record + header, length - header);
    /* Tail padding up to the alignment was zeroed by the consumer. */
    vprof_ring_commit(ring, dst);
    return 1;
}

size_t vprof_ring_read(struct vprof_ring *ring, vprof_ring_handler handler, void *arg,
                       size_t max_records)
{
    struct vprof_control *c = ring->control;
    const uint64_t head = LOAD_RLX(&c->head);
    uint64_t read = 0;
    size_t records = 0;

    while (records < max_records && read < ring->capacity) {
        struct vprof_record_header *h =
            (struct vprof_record_header *)(ring->bytes + ((head + read) & ring->mask));
        const int32_t length = LOAD_ACQ(&h->length);
        if (length <= 0)
            break;
        if (h->type != VPROF_REC_PADDING) {
            handler(h, arg);
            records++;
        }
        memset(h, 0, (size_t)length);
        read += (uint64_t)length;
    }
    if (read != 0u)
        STORE_REL(&c->head, head + read);
    return records;
}

uint64_t vprof_ring_unblock(struct vprof_ring *ring)
{
    struct vprof_control *c = ring->control;
    const uint64_t head = LOAD_RLX(&c->head);
    const uint64_t tail = LOAD_ACQ(&c->tail);
    const uint64_t pending = tail - head;
    if (pending == 0u || pending > ring->capacity || (head & 7u) != 0u)
        return 0u;
    const uint64_t index = head & ring->mask;
    const uint64_t limit = pending < ring->capacity - index ? pending : ring->capacity - index;
    const int32_t length = LOAD_ACQ((int32_t *)(ring->bytes + index));
    if (length > 0)
        return 0u; /* committed: vprof_ring_read's to read */
    uint64_t span;
    const uint64_t claimed = length < 0 ? (uint64_t)(-(int64_t)length) : 0u;
    if (claimed >= sizeof(struct vprof_record_header) && (claimed & 7u) == 0u && claimed <= limit) {
        span = claimed;
    } else {
        /* Claimed before its length was stored: the consumer zeroed everything
         * up to the next header a producer wrote. */
        span = 8u;
        while (span < limit && LOAD_ACQ((int32_t *)(ring->bytes + index + span)) == 0)
            span += 8u;
    }
    memset(ring->bytes + index, 0, (size_t)span);
    STORE_REL(&c->head, head + span);
    return span;
}
