/*
 * agent_ring_fill.h: a front end that stopped reading, for the agent's tests.
 * Include after test.h.
 */
#ifndef VPROF_TEST_AGENT_RING_FILL_H
#define VPROF_TEST_AGENT_RING_FILL_H

#include "ring.h"

/*
 * Fills the ring's data room exactly, with PADDING records a reader skips:
 * every data record is refused from here on, while control records (RANGE,
 * CLOCK_SYNC, DROPS) still fit in the reserve. The filling itself is never
 * refused, so it adds nothing to the drop counters.
 */
static void fill_data_room(struct vprof_ring *r)
{
    static const uint8_t filler[VPROF_STRING_MAX];
    const uint64_t drops = r->control->ring_drops;
    for (;;) {
        const uint64_t tail = r->control->tail, used = tail - r->control->head;
        ASSERT_LE(used + VPROF_RING_CONTROL_RESERVE, r->capacity);
        uint64_t room = r->capacity - used - VPROF_RING_CONTROL_RESERVE;
        if (room == 0u)
            break;
        const uint64_t to_end = r->capacity - (tail & r->mask); /* no wrap: no padding of the ring's own */
        room = room < to_end ? room : to_end;
        room = room < sizeof filler ? room : sizeof filler;
        ASSERT(vprof_ring_write(r, VPROF_REC_PADDING, filler, (uint32_t)room, VPROF_RING_DATA));
    }
    ASSERT_EQ(r->control->ring_drops, drops);
}

#endif /* VPROF_TEST_AGENT_RING_FILL_H */
