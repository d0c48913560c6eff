/*
 * intern.h: per-arming tables that turn CUPTI names and kernel launch shapes
 * into small ids, so each is sent to the ring once (STRING, KERNEL_DESC) and
 * a KERNEL record stays 32 bytes.
 *
 * Fixed-size open-addressing tables, allocated once (at the first ARM) and
 * cleared at every ARM: ids restart at 1 there and nowhere else. A full table
 * never loses a record: the caller gets a fresh, uncached id and sends the
 * STRING or KERNEL_DESC again.
 *
 * Not thread safe: the caller (convert.c) holds the capture's convert lock.
 */
#ifndef VPROF_AGENT_INTERN_H
#define VPROF_AGENT_INTERN_H

#include <stdint.h>

#define VPROF_INTERN_STRINGS 8192u  /* kernel names + NVTX names of one arming */
#define VPROF_INTERN_DESCS   16384u /* kernel x stream x launch shape */
#define VPROF_INTERN_PROBES  32u    /* linear probe limit before "full" */

struct vprof_string_slot {
    const char *key;     /* CUPTI's pointer; CUPTI keeps kernel names for the module's life */
    uint32_t id;
    uint32_t sent;
};

/* What makes two launches share a KERNEL_DESC. */
struct vprof_desc_key {
    const char *name;
    uint32_t device_id, context_id, stream_id, graph_id;
    uint32_t grid_x, grid_y, grid_z;
    uint32_t block_x, block_y, block_z;
    uint32_t shared_memory, registers;
    uint32_t zero;       /* explicit tail padding, always 0, so memcmp compares keys */
};

struct vprof_desc_slot {
    struct vprof_desc_key key;
    uint32_t id;         /* 0 = empty slot */
    uint32_t sent;
};

struct vprof_intern {
    struct vprof_string_slot *strings; /* VPROF_INTERN_STRINGS */
    struct vprof_desc_slot *descs;     /* VPROF_INTERN_DESCS */
    uint32_t next_string_id;
    uint32_t next_desc_id;
};

/* Allocates the tables (not on a hot path). Returns 0 on success, -1 if out of memory. */
int vprof_intern_alloc(struct vprof_intern *t);
void vprof_intern_free(struct vprof_intern *t);
/* Forgets every id; the next ids are 1. */
void vprof_intern_reset(struct vprof_intern *t);

/*
 * The slot for a string, inserted unsent if new. When the table has no room
 * the returned slot is scratch: a fresh id, sent = 0, not remembered.
 */
struct vprof_string_slot *vprof_intern_string(struct vprof_intern *t, const char *key,
                                              struct vprof_string_slot *scratch);

/* The same for a kernel launch shape. */
struct vprof_desc_slot *vprof_intern_desc(struct vprof_intern *t, const struct vprof_desc_key *key,
                                          struct vprof_desc_slot *scratch);

#endif /* VPROF_AGENT_INTERN_H */
