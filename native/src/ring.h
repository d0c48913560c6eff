/*
 * ring.h: the agent's side of the shared ring described in include/vprof_ring.h.
 *
 * Producers (any thread: CUPTI's worker, the application inside a flush, the
 * control thread) claim space with a CAS on control->tail, write the record,
 * and commit it by storing its positive length with release. A producer never
 * waits: when the ring has no room the record is dropped and counted in
 * control->ring_drops (and ring_drops_kernels for KERNEL records).
 *
 * The consumer half exists for the C tests; the real consumer is the Java
 * front end, which follows the same protocol.
 */
#ifndef VPROF_SRC_RING_H
#define VPROF_SRC_RING_H

#include <stddef.h>
#include <stdint.h>

#include "vprof_ring.h"

struct vprof_ring {
    struct vprof_control *control;
    uint8_t *bytes;     /* ring_capacity bytes right after the control block */
    uint64_t capacity;  /* a power of two */
    uint64_t mask;
};

/* Whether a record may use the space VPROF_RING_CONTROL_RESERVE keeps free. */
enum vprof_ring_class {
    VPROF_RING_DATA    = 0, /* KERNEL, MEMCPY, STRING, ...: refused inside the reserve */
    VPROF_RING_CONTROL = 1  /* RANGE, CLOCK_SYNC, DROPS: may use the reserve */
};

/* Round a payload length (header included) up to the record alignment. */
static inline uint32_t vprof_ring_align(uint32_t length)
{
    return (length + (VPROF_RECORD_ALIGN - 1u)) & ~(VPROF_RECORD_ALIGN - 1u);
}

/*
 * Binds a ring to a mapped region: control block at region, ring bytes at
 * region + VPROF_CONTROL_SIZE. capacity must be a power of two and at least
 * VPROF_RING_MIN; the caller has already written control->ring_capacity.
 */
void vprof_ring_init(struct vprof_ring *ring, void *region, uint64_t capacity);

/*
 * Claims length bytes (header included; rounded up to 8) for a record of the
 * given type. Returns the record, its header's length set negative and its
 * type written, for the caller to fill and then pass to vprof_ring_commit; or
 * NULL when the ring is full, in which case the drop has been counted.
 * Thread safe, lock free, never blocks. length must be <= VPROF_RECORD_MAX.
 */
void *vprof_ring_claim(struct vprof_ring *ring, uint32_t type, uint32_t length,
                       enum vprof_ring_class cls);

/* Publishes a claimed record (release-store of its positive length) and counts it. */
void vprof_ring_commit(struct vprof_ring *ring, void *record);

/*
 * Claims, copies and commits a record whose header the caller left blank.
 * Returns 1 if published, 0 if dropped (and counted).
 */
int vprof_ring_write(struct vprof_ring *ring, uint32_t type, const void *record,
                     uint32_t length, enum vprof_ring_class cls);

/*
 * Consumer, single thread only. Calls handler for each committed record in
 * order (PADDING records are skipped), zeroes what it read and release-stores
 * the new head. Stops at the first uncommitted record or after max_records.
 * Returns the number of records handed to handler.
 */
typedef void (*vprof_ring_handler)(const struct vprof_record_header *record, void *arg);
size_t vprof_ring_read(struct vprof_ring *ring, vprof_ring_handler handler, void *arg,
                       size_t max_records);

/*
 * Consumer, single thread only, and only once no producer can write any more
 * (the producing process is gone): when the record at head was claimed and
 * never committed, consumes it as padding, as Agrona's
 * ManyToOneRingBuffer.unblock() does: a negative length gives its size; a zero
 * length (claimed, nothing written) spans the zeroed bytes up to the next
 * header written, the ring's end or the tail. Zeroes it and release-stores the
 * new head. Returns the bytes consumed; 0 when head is empty or committed.
 * The front end's RingReader.unblock() is the same rule in Java.
 */
uint64_t vprof_ring_unblock(struct vprof_ring *ring);

#endif /* VPROF_SRC_RING_H */
