/*
 * cuptisim_nvtx.c: NVTX as the simulated program calls it, and how it reaches
 * CUPTI.
 *
 * NVTX is a no-op until a tool injects itself, and it looks for one exactly
 * once: at the program's first NVTX call it reads NVTX_INJECTION64_PATH,
 * dlopen()s that library and calls its InitializeInjectionNvtx2 (nvtx3
 * nvtxInit.h, load sequence version 2). No variable, a library that does not
 * load, no such symbol, or an init that returns 0: NVTX stays a no-op for the
 * life of the process, whatever is set later. CUPTI is such a tool: its
 * InitializeInjectionNvtx2 (here, the double's) routes NVTX to CUPTI's NVTX
 * callbacks and MARKER records. So ranges reach CUPTI only if the variable
 * named CUPTI before the first NVTX call, which an agent that sets it at cuInit
 * misses when NVTX is used before CUDA is initialized.
 */
#include "sim/cuptisim_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SIM_MAX_DOMAINS 16
#define SIM_NVTX_DEPTH 64

static pthread_once_t injection_once = PTHREAD_ONCE_INIT;
static _Atomic int routed_to_cupti;

/* NVTX's export tables, which a real injection fills with its handlers. The
 * double's CUPTI needs none: it recognises this NVTX by this function. */
static const void *export_table(uint32_t id) {
    (void)id;
    return NULL;
}

__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table);

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
    if (sim_cfg.version == 130000) { /* NVIDIA/NVTX#125: CUPTI 13.0.0 as the NVTX injection crashes */
        fprintf(stderr, "cuptisim: CUPTI 13.0.0 loaded as the NVTX injection library crashes (NVIDIA/NVTX#125); aborting\n");
        abort();
    }
    if (get_export_table != export_table) return 0; /* not the simulated program's NVTX */
    atomic_store(&routed_to_cupti, 1);
    return 1;
}

static void load_injection_once(void) {
    const char *path = getenv("NVTX_INJECTION64_PATH");
    if (path == NULL || *path == '\0') return;
    void *lib = dlopen(path, RTLD_NOW);
    if (lib == NULL) return; /* NVTX says nothing either */
    NvtxInitializeInjectionNvtxFunc_t init = (NvtxInitializeInjectionNvtxFunc_t)dlsym(lib, "InitializeInjectionNvtx2");
    if (init == NULL || init(export_table) == 0) dlclose(lib);
}

/* Every NVTX call starts here: the first one looks for the injection. */
static int nvtx_on(void) {
    pthread_once(&injection_once, load_injection_once);
    return atomic_load_explicit(&routed_to_cupti, memory_order_relaxed);
}

/* ---- domains, ranges, markers ---- */

/* The handle NVTX gives out for a domain; opaque to clients. */
struct nvtxDomainRegistration_st { const char *name; };
static struct nvtxDomainRegistration_st domains[SIM_MAX_DOMAINS];
static _Atomic int domain_count;
static pthread_mutex_t domain_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint32_t next_marker_id = 1;

/* Per thread, per domain (0 = the default domain): the marker ids of the
 * open ranges, so a pop can name the range it ends. */
static __thread struct { uint32_t ids[SIM_NVTX_DEPTH]; int depth; } nvtx_stacks[SIM_MAX_DOMAINS + 1];

static void nvtx_callback(CUpti_CallbackId cbid, const char *function, const void *params, const void *ret) {
    if (!sim_callback_enabled(CUPTI_CB_DOMAIN_NVTX, cbid)) return;
    CUpti_NvtxData data = { .functionName = function, .functionParams = params, .functionReturnValue = ret };
    sim_callback_invoke(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
}

/* Finds or creates a domain; creation reports nvtxDomainCreateA. */
static int domain_index(const char *name) {
    int n = atomic_load_explicit(&domain_count, memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (strcmp(domains[i].name, name) == 0) return i;
    pthread_mutex_lock(&domain_mu);
    n = atomic_load(&domain_count);
    for (int i = 0; i < n; i++)
        if (strcmp(domains[i].name, name) == 0) { pthread_mutex_unlock(&domain_mu); return i; }
    if (n == SIM_MAX_DOMAINS) { pthread_mutex_unlock(&domain_mu); return -1; }
    domains[n].name = sim_intern(name);
    atomic_store_explicit(&domain_count, n + 1, memory_order_release);
    pthread_mutex_unlock(&domain_mu);
    nvtxDomainCreateA_params p = { .name = domains[n].name };
    nvtxDomainHandle_t handle = &domains[n];
    nvtx_callback(CUPTI_CBID_NVTX_nvtxDomainCreateA, "nvtxDomainCreateA", &p, &handle);
    return n;
}

static void emit_marker(uint32_t flags, uint32_t id, const char *name, const char *domain) {
    if (!sim_kind_on(CUPTI_ACTIVITY_KIND_MARKER)) return;
    CUpti_ActivityMarker2 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = (CUpti_ActivityFlag)flags;
    m.timestamp = sim_now_ns();
    m.id = id;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = (uint32_t)getpid();
    m.objectId.pt.threadId = sim_thread_id();
    m.name = name;     /* NULL for an end marker, as in CUPTI */
    m.domain = domain; /* NULL for the default domain */
    sim_emit(&m, sizeof m, SIM_GLOBAL_DROP_SLOT, 0);
}

static int push_id(int stack, uint32_t id) {
    int depth = nvtx_stacks[stack].depth++;
    if (depth < SIM_NVTX_DEPTH) nvtx_stacks[stack].ids[depth] = id;
    return depth;
}

/* Returns the id of the innermost open range, or 0 if none. */
static uint32_t pop_id(int stack, int *depth_out) {
    if (nvtx_stacks[stack].depth == 0) { *depth_out = -1; return 0; }
    int depth = --nvtx_stacks[stack].depth;
    *depth_out = depth;
    return depth < SIM_NVTX_DEPTH ? nvtx_stacks[stack].ids[depth] : 0;
}

void simcuda_nvtx_push(const char *name) {
    if (!nvtx_on()) return;
    const char *interned = sim_intern(name ? name : "");
    uint32_t id = atomic_fetch_add_explicit(&next_marker_id, 1, memory_order_relaxed);
    int depth = push_id(0, id);
    nvtxRangePushA_params p = { .message = interned };
    nvtx_callback(CUPTI_CBID_NVTX_nvtxRangePushA, "nvtxRangePushA", &p, &depth);
    emit_marker(CUPTI_ACTIVITY_FLAG_MARKER_START, id, interned, NULL);
}

void simcuda_nvtx_pop(void) {
    if (!nvtx_on()) return;
    int depth;
    uint32_t id = pop_id(0, &depth);
    nvtxRangePop_params p = { .dummy = NULL };
    nvtx_callback(CUPTI_CBID_NVTX_nvtxRangePop, "nvtxRangePop", &p, &depth);
    if (id != 0) emit_marker(CUPTI_ACTIVITY_FLAG_MARKER_END, id, NULL, NULL);
}

void simcuda_nvtx_domain_push(const char *domain, const char *name) {
    if (!nvtx_on()) return;
    int d = domain_index(domain ? domain : "");
    if (d < 0) return; /* more domains than the double tracks: ignored, as NVTX does without a tool */
    const char *interned = sim_intern(name ? name : "");
    uint32_t id = atomic_fetch_add_explicit(&next_marker_id, 1, memory_order_relaxed);
    int depth = push_id(d + 1, id);
    nvtxEventAttributes_t attr;
    memset(&attr, 0, sizeof attr);
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = interned;
    nvtxDomainRangePushEx_params p = { .domain = &domains[d], .core = { .eventAttrib = &attr } };
    nvtx_callback(CUPTI_CBID_NVTX_nvtxDomainRangePushEx, "nvtxDomainRangePushEx", &p, &depth);
    emit_marker(CUPTI_ACTIVITY_FLAG_MARKER_START, id, interned, domains[d].name);
}

void simcuda_nvtx_domain_pop(const char *domain) {
    if (!nvtx_on()) return;
    int d = domain_index(domain ? domain : "");
    if (d < 0) return;
    int depth;
    uint32_t id = pop_id(d + 1, &depth);
    nvtxDomainRangePop_params p = { .domain = &domains[d] };
    nvtx_callback(CUPTI_CBID_NVTX_nvtxDomainRangePop, "nvtxDomainRangePop", &p, &depth);
    if (id != 0) emit_marker(CUPTI_ACTIVITY_FLAG_MARKER_END, id, NULL, domains[d].name);
}
