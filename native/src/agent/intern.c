/* intern.c: the id tables of intern.h. */
#include "agent/intern.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(struct vprof_desc_key) == 8 + 8 + 14 * 4, "desc keys have no padding for memcmp");

int vprof_intern_alloc(struct vprof_intern *t)
{
    if (t->strings != NULL)
        return 0;
    t->strings = calloc(VPROF_INTERN_STRINGS, sizeof *t->strings);
    t->descs = calloc(VPROF_INTERN_DESCS, sizeof *t->descs);
    t->arena = malloc(VPROF_INTERN_ARENA);
    if (t->strings == NULL || t->descs == NULL || t->arena == NULL) {
        vprof_intern_free(t);
        return -1;
    }
    t->arena_used = 0;
    t->next_string_id = 1;
    t->next_desc_id = 1;
    t->generation = 1;
    return 0;
}

void vprof_intern_free(struct vprof_intern *t)
{
    free(t->strings);
    free(t->descs);
    free(t->arena);
    t->strings = NULL;
    t->descs = NULL;
    t->arena = NULL;
}

void vprof_intern_reset(struct vprof_intern *t)
{
    memset(t->strings, 0, VPROF_INTERN_STRINGS * sizeof *t->strings);
    memset(t->descs, 0, VPROF_INTERN_DESCS * sizeof *t->descs);
    t->arena_used = 0;
    t->next_string_id = 1;
    t->next_desc_id = 1;
    t->generation = 1;
}

static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

uint64_t vprof_intern_hash(const char *s, uint32_t max, uint32_t *len)
{
    uint64_t h = 1469598103934665603ull;
    uint32_t n = 0;
    while (n < max && s[n] != '\0') {
        h = (h ^ (uint8_t)s[n]) * 1099511628211ull;
        n++;
    }
    *len = n;
    return h | 1u; /* never 0: 0 marks an empty slot */
}

static uint64_t hash_bytes(const char *s, uint32_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
    return h | 1u;
}

struct vprof_string_slot *vprof_intern_string(struct vprof_intern *t, const char *s, uint32_t len,
                                              struct vprof_string_slot *scratch)
{
    const uint64_t hash = hash_bytes(s, len);
    const uint32_t mask = VPROF_INTERN_STRINGS - 1u;
    uint32_t i = (uint32_t)mix(hash) & mask;
    for (uint32_t probe = 0; probe < VPROF_INTERN_PROBES; probe++, i = (i + 1u) & mask) {
        struct vprof_string_slot *slot = &t->strings[i];
        if (slot->hash == hash && slot->len == len && memcmp(t->arena + slot->offset, s, len) == 0)
            return slot;
        if (slot->hash == 0u) {
            if (len > VPROF_INTERN_ARENA - t->arena_used)
                break; /* no room for the copy: not remembered */
            memcpy(t->arena + t->arena_used, s, len);
            slot->hash = hash;
            slot->offset = t->arena_used;
            slot->len = len;
            slot->id = t->next_string_id++;
            slot->sent = 0;
            t->arena_used += len;
            return slot;
        }
    }
    memset(scratch, 0, sizeof *scratch);
    scratch->len = len;
    scratch->id = t->next_string_id++;
    return scratch;
}

const char *vprof_intern_text(const struct vprof_intern *t, const struct vprof_string_slot *s)
{
    return s->hash != 0u ? t->arena + s->offset : NULL;
}

static inline uint64_t hash_desc(const struct vprof_desc_key *k)
{
    uint64_t h = (uint64_t)(uintptr_t)k->name;
    h = mix(h ^ ((uint64_t)k->stream_id << 32 | k->context_id));
    h = mix(h ^ ((uint64_t)k->device_id << 32 | k->graph_id) ^ k->graph_node_id);
    h = mix(h ^ ((uint64_t)k->grid_x << 32 | k->grid_y) ^ ((uint64_t)k->grid_z << 17));
    h = mix(h ^ ((uint64_t)k->block_x << 32 | k->block_y) ^ ((uint64_t)k->block_z << 17));
    return mix(h ^ ((uint64_t)k->shared_memory << 32 | k->registers));
}

/* A slot (or scratch) for a launch shape seen now: a fresh id, nothing sent, no name stored. */
static struct vprof_desc_slot *fresh_desc(struct vprof_intern *t, struct vprof_desc_slot *s,
                                          const struct vprof_desc_key *key)
{
    if (key != NULL)
        s->key = *key;
    s->id = t->next_desc_id++;
    s->sent = 0;
    s->name_id = 0;
    s->checked = 0;
    s->name_off = 0;
    s->name_len = VPROF_NAME_UNSTORED;
    return s;
}

struct vprof_desc_slot *vprof_intern_desc(struct vprof_intern *t, const struct vprof_desc_key *key,
                                          struct vprof_desc_slot *scratch)
{
    const uint32_t mask = VPROF_INTERN_DESCS - 1u;
    uint32_t i = (uint32_t)hash_desc(key) & mask;
    for (uint32_t probe = 0; probe < VPROF_INTERN_PROBES; probe++, i = (i + 1u) & mask) {
        struct vprof_desc_slot *s = &t->descs[i];
        if (s->id == 0u)
            return fresh_desc(t, s, key);
        if (memcmp(&s->key, key, sizeof *key) == 0)
            return s;
    }
    return fresh_desc(t, scratch, key);
}

void vprof_intern_desc_renew(struct vprof_intern *t, struct vprof_desc_slot *d)
{
    fresh_desc(t, d, NULL); /* same key, new id: another kernel now lives at that address */
}
