/*
 * intern.h: per-arming tables that turn CUPTI names and kernel launch shapes
 * into small ids, so each is sent to the ring once (STRING, KERNEL_DESC) and
 * a KERNEL record stays 32 bytes.
 *
 * Strings are interned by CONTENT: the table keeps a copy of each name, so
 * two pointers to the same text share an id, and a pointer CUPTI reuses for
 * another text (a module unloaded and another loaded at the same address:
 * Triton, torch.compile; CUPTI fixed stale names only in 13.4 Update 1) gets
 * its own id. A kernel desc is found by CUPTI's name pointer and launch shape
 * (one probe on the hot path); the first time a desc is used in a buffer its
 * name is compared with the stored copy, and a desc whose pointer now holds
 * another name is replaced by a fresh one.
 *
 * Fixed-size open-addressing tables and a byte arena for the copies,
 * allocated once (at the first ARM) and cleared at every ARM: ids restart at 1
 * there and nowhere else. A full table or arena never loses a record: the
 * caller gets a fresh, uncached id and sends the STRING or KERNEL_DESC again.
 *
 * Not thread safe: the caller (convert.c) holds the capture's convert lock.
 */
#ifndef VPROF_AGENT_INTERN_H
#define VPROF_AGENT_INTERN_H

#include <stddef.h>
#include <stdint.h>

#define VPROF_INTERN_STRINGS 8192u        /* kernel names + NVTX names of one arming */
#define VPROF_INTERN_DESCS   65536u       /* kernel x stream x launch shape x graph node */
#define VPROF_INTERN_PROBES  32u          /* linear probe limit before "full" */
#define VPROF_INTERN_ARENA   (4u << 20)   /* bytes of name copies (CUTLASS names run to kilobytes) */

struct vprof_string_slot {
    uint64_t hash;       /* of the content; 0 = empty slot */
    uint32_t offset;     /* of the copy in the arena */
    uint32_t len;
    uint32_t id;
    uint32_t sent;
};

/* What makes two launches share a KERNEL_DESC. */
struct vprof_desc_key {
    const char *name;    /* CUPTI's pointer; its content is checked once per buffer */
    uint64_t graph_node_id;
    uint32_t device_id, context_id, stream_id, graph_id;
    uint32_t grid_x, grid_y, grid_z;
    uint32_t block_x, block_y, block_z;
    uint32_t shared_memory, registers;
    uint32_t zero;       /* explicit tail padding, always 0, so memcmp compares keys */
};

#define VPROF_NAME_UNSTORED 0xffffffffu

struct vprof_desc_slot {
    struct vprof_desc_key key;
    uint32_t id;         /* 0 = empty slot */
    uint32_t sent;
    uint32_t name_id;    /* the STRING the desc was sent with; 0 before it is */
    uint32_t checked;    /* the buffer generation in which the name was last compared */
    uint32_t name_off;   /* the stored copy of that name in the arena, */
    uint32_t name_len;   /* or VPROF_NAME_UNSTORED (nothing to compare with) */
};

struct vprof_intern {
    struct vprof_string_slot *strings; /* VPROF_INTERN_STRINGS */
    struct vprof_desc_slot *descs;     /* VPROF_INTERN_DESCS */
    char *arena;                       /* VPROF_INTERN_ARENA */
    uint32_t arena_used;
    uint32_t next_string_id;
    uint32_t next_desc_id;
    uint32_t generation;               /* bumped per CUPTI buffer: names are re-checked */
};

/* Allocates the tables (not on a hot path). Returns 0 on success, -1 if out of memory. */
int vprof_intern_alloc(struct vprof_intern *t);
void vprof_intern_free(struct vprof_intern *t);
/* Forgets every id; the next ids are 1. */
void vprof_intern_reset(struct vprof_intern *t);

/*
 * The slot for a string's content (len bytes, no NUL needed), inserted unsent
 * if new. When the table or the arena has no room the returned slot is
 * scratch: a fresh id, sent = 0, not remembered.
 */
struct vprof_string_slot *vprof_intern_string(struct vprof_intern *t, const char *s, uint32_t len,
                                              struct vprof_string_slot *scratch);

/* The stored copy of a slot's string (len bytes), or NULL for a scratch slot. */
const char *vprof_intern_text(const struct vprof_intern *t, const struct vprof_string_slot *s);

/* The slot for a kernel launch shape, inserted unsent if new (or scratch when full). */
struct vprof_desc_slot *vprof_intern_desc(struct vprof_intern *t, const struct vprof_desc_key *key,
                                          struct vprof_desc_slot *scratch);

/* Gives a desc whose name changed under its pointer a fresh id, unsent. */
void vprof_intern_desc_renew(struct vprof_intern *t, struct vprof_desc_slot *d);

/* FNV-1a of at most max bytes up to a NUL; *len gets the length. */
uint64_t vprof_intern_hash(const char *s, uint32_t max, uint32_t *len);

#endif /* VPROF_AGENT_INTERN_H */
