/* intern.c: the id tables of intern.h. */
#include "agent/intern.h"

#include <stdlib.h>
#include <string.h>

int vprof_intern_alloc(struct vprof_intern *t)
{
    if (t->strings != NULL)
        return 0;
    t->strings = calloc(VPROF_INTERN_STRINGS, sizeof *t->strings);
    t->descs = calloc(VPROF_INTERN_DESCS, sizeof *t->descs);
    if (t->strings == NULL || t->descs == NULL) {
        vprof_intern_free(t);
        return -1;
    }
    t->next_string_id = 1;
    t->next_desc_id = 1;
    return 0;
}

void vprof_intern_free(struct vprof_intern *t)
{
    free(t->strings);
    free(t->descs);
    t->strings = NULL;
    t->descs = NULL;
}

void vprof_intern_reset(struct vprof_intern *t)
{
    memset(t->strings, 0, VPROF_INTERN_STRINGS * sizeof *t->strings);
    memset(t->descs, 0, VPROF_INTERN_DESCS * sizeof *t->descs);
    t->next_string_id = 1;
    t->next_desc_id = 1;
}

static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

struct vprof_string_slot *vprof_intern_string(struct vprof_intern *t, const char *key,
                                              struct vprof_string_slot *scratch)
{
    const uint32_t mask = VPROF_INTERN_STRINGS - 1u;
    uint32_t i = (uint32_t)mix((uint64_t)(uintptr_t)key) & mask;
    for (uint32_t probe = 0; probe < VPROF_INTERN_PROBES; probe++, i = (i + 1u) & mask) {
        struct vprof_string_slot *s = &t->strings[i];
        if (s->key == key && s->id != 0u)
            return s;
        if (s->id == 0u) {
            s->key = key;
            s->id = t->next_string_id++;
            s->sent = 0;
            return s;
        }
    }
    scratch->key = key;
    scratch->id = t->next_string_id++;
    scratch->sent = 0;
    return scratch;
}

static inline uint64_t hash_desc(const struct vprof_desc_key *k)
{
    uint64_t h = (uint64_t)(uintptr_t)k->name;
    h = mix(h ^ ((uint64_t)k->stream_id << 32 | k->context_id));
    h = mix(h ^ ((uint64_t)k->device_id << 32 | k->graph_id));
    h = mix(h ^ ((uint64_t)k->grid_x << 32 | k->grid_y) ^ ((uint64_t)k->grid_z << 17));
    h = mix(h ^ ((uint64_t)k->block_x << 32 | k->block_y) ^ ((uint64_t)k->block_z << 17));
    return mix(h ^ ((uint64_t)k->shared_memory << 32 | k->registers));
}

struct vprof_desc_slot *vprof_intern_desc(struct vprof_intern *t, const struct vprof_desc_key *key,
                                          struct vprof_desc_slot *scratch)
{
    const uint32_t mask = VPROF_INTERN_DESCS - 1u;
    uint32_t i = (uint32_t)hash_desc(key) & mask;
    for (uint32_t probe = 0; probe < VPROF_INTERN_PROBES; probe++, i = (i + 1u) & mask) {
        struct vprof_desc_slot *s = &t->descs[i];
        if (s->id == 0u) {
            s->key = *key;
            s->id = t->next_desc_id++;
            s->sent = 0;
            return s;
        }
        if (memcmp(&s->key, key, sizeof *key) == 0)
            return s;
    }
    scratch->key = *key;
    scratch->id = t->next_desc_id++;
    scratch->sent = 0;
    return scratch;
}
