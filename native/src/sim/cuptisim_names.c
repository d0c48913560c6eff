/*
 * cuptisim_names.c: the strings CUPTI records point to.
 *
 * Interned strings live for the process, as CUPTI keeps a kernel's name for
 * the life of its module. Kernel names can instead live in "module" slots
 * (VPROF_SIM_NAME_REUSE_EVERY=N): every N kernel launches the module is
 * unloaded and reloaded at the same address with its kernels in another
 * order, so one `const char *` holds one kernel's name before and another's
 * after, and a record delivered late reads the name now at its address. CUPTI
 * fixed stale names after module reloads only in 13.4 Update 1 (forums post
 * 383026); Triton and torch.compile reload modules.
 */
#include "sim/cuptisim_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct intern_entry { uint64_t hash; const char *str; };
static pthread_mutex_t intern_mu = PTHREAD_MUTEX_INITIALIZER;
static struct intern_entry *intern_tab;
static size_t intern_cap, intern_len;
/* The interned copies by address (the same count, twice the room): a caller that
 * passes back a pointer the double interned (simcuda_intern_name, as a real
 * launch passes a function handle, not a name) is found without reading the
 * name, and without the lock. Interned copies are never freed, so an address in
 * here is always its own string; a set outgrown is left in place (not freed)
 * for readers that still probe it, which costs less than twice the last set. */
struct own_set { size_t cap; _Atomic(const char *) slot[]; };
static _Atomic(struct own_set *) own_set;

uint64_t sim_hash(const char *s) { /* FNV-1a */
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

static size_t own_slot(const char *p, size_t cap) {
    return (size_t)(((uintptr_t)p >> 3) * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

static void own_add(struct own_set *set, const char *p) { /* under intern_mu */
    size_t k = own_slot(p, set->cap);
    while (atomic_load_explicit(&set->slot[k], memory_order_relaxed) != NULL) k = (k + 1) & (set->cap - 1);
    atomic_store_explicit(&set->slot[k], p, memory_order_release);
}

static int intern_grow(void) { /* under intern_mu */
    size_t cap = intern_cap ? intern_cap * 2 : 1024;
    struct intern_entry *tab = calloc(cap, sizeof *tab);
    struct own_set *own = calloc(1, sizeof *own + cap * sizeof own->slot[0]);
    if (tab == NULL || own == NULL) {
        free(tab);
        free(own);
        return -1;
    }
    own->cap = cap;
    for (size_t i = 0; i < intern_cap; i++) {
        if (intern_tab[i].str == NULL) continue;
        size_t j = intern_tab[i].hash & (cap - 1);
        while (tab[j].str != NULL) j = (j + 1) & (cap - 1);
        tab[j] = intern_tab[i];
        own_add(own, intern_tab[i].str);
    }
    free(intern_tab);
    intern_tab = tab;
    intern_cap = cap;
    atomic_store_explicit(&own_set, own, memory_order_release);
    return 0;
}

/* Whether `s` is one of the interned copies; any thread, no lock. */
static int is_own(const char *s) {
    struct own_set *set = atomic_load_explicit(&own_set, memory_order_acquire);
    if (set == NULL) return 0;
    const char *p;
    for (size_t k = own_slot(s, set->cap); (p = atomic_load_explicit(&set->slot[k], memory_order_acquire)) != NULL;
         k = (k + 1) & (set->cap - 1))
        if (p == s) return 1;
    return 0;
}

/* sim_hash(s), read from the 8 bytes before an interned copy instead of from the name. */
uint64_t sim_name_hash(const char *s) {
    if (!is_own(s)) return sim_hash(s);
    uint64_t h;
    memcpy(&h, s - sizeof h, sizeof h);
    return h;
}

const char *simcuda_intern_name(const char *name) { return sim_intern(name); }

const char *sim_intern(const char *s) {
    if (s == NULL) return NULL;
    if (is_own(s)) return s;
    uint64_t h = sim_hash(s);
    const char *out = "<out of memory>";
    pthread_mutex_lock(&intern_mu);
    if ((intern_len + 1) * 2 > intern_cap && intern_grow() != 0) goto done;
    size_t j = h & (intern_cap - 1);
    while (intern_tab[j].str != NULL) {
        if (intern_tab[j].hash == h && strcmp(intern_tab[j].str, s) == 0) {
            out = intern_tab[j].str;
            goto done;
        }
        j = (j + 1) & (intern_cap - 1);
    }
    size_t len = strlen(s);
    char *block = malloc(sizeof h + len + 1); /* the hash, then the string */
    if (block == NULL) goto done;
    memcpy(block, &h, sizeof h);
    char *copy = block + sizeof h;
    memcpy(copy, s, len + 1);
    intern_tab[j].hash = h;
    intern_tab[j].str = copy;
    intern_len++;
    own_add(atomic_load_explicit(&own_set, memory_order_relaxed), copy);
    out = copy;
done:
    pthread_mutex_unlock(&intern_mu);
    return out;
}

/* ---- module slots: a kernel name's address, reused by the next load ---- */

#define SLOT_BYTES 4096  /* longer names are cut here (a module would hold them whole) */
#define MAX_SLOTS 4096

static pthread_mutex_t module_mu = PTHREAD_MUTEX_INITIALIZER;
static char *slot_text[MAX_SLOTS];        /* fixed addresses, allocated once each */
static const char *slot_name[MAX_SLOTS];  /* the interned name a slot holds now */
static size_t slots;
static uint64_t launches_since_reload;

/* Unload and reload: slot i now holds what slot i+1 held. */
static void reload_module(void) { /* under module_mu */
    if (slots < 2) return;
    const char *first = slot_name[0];
    for (size_t i = 0; i + 1 < slots; i++) slot_name[i] = slot_name[i + 1];
    slot_name[slots - 1] = first;
    for (size_t i = 0; i < slots; i++) {
        strncpy(slot_text[i], slot_name[i], SLOT_BYTES - 1);
        slot_text[i][SLOT_BYTES - 1] = '\0';
    }
}

const char *sim_kernel_name(const char *s) {
    const char *interned = sim_intern(s);
    if (sim_cfg.name_reuse_every == 0) return interned;
    const char *out = interned;
    pthread_mutex_lock(&module_mu);
    if (++launches_since_reload > sim_cfg.name_reuse_every) {
        reload_module();
        launches_since_reload = 1;
    }
    size_t i;
    for (i = 0; i < slots; i++)
        if (slot_name[i] == interned) break;
    if (i == slots && slots < MAX_SLOTS && (slot_text[i] = malloc(SLOT_BYTES)) != NULL) {
        slot_name[i] = interned;
        strncpy(slot_text[i], interned, SLOT_BYTES - 1);
        slot_text[i][SLOT_BYTES - 1] = '\0';
        slots++;
    }
    if (i < slots) out = slot_text[i];
    pthread_mutex_unlock(&module_mu);
    return out;
}
