/*
 * cuptisim_graph.c: CUDA graphs in the simulated GPU: stream capture,
 * instantiation, launch (see simgpu_driver.h for what CUPTI reports).
 *
 * What the field reports, and the double does:
 *  - a graph launch gives one CONCURRENT_KERNEL / MEMCPY / MEMSET record per
 *    node, all with the launch's correlation id, and no API callback per node
 *    (wolfpld/tracy#1318, #1330);
 *  - graphId is the executable graph's (PyTorch remaps ids after
 *    instantiation, pytorch/pytorch#179615), node ids are the executable
 *    graph's nodes';
 *  - CUPTI_ACTIVITY_KIND_GRAPH_TRACE replaces the node records with one
 *    record per launch (tracy#1330);
 *  - whether nodes of a graph instantiated while the kernel kind was off are
 *    delivered depends on more than CUPTI's documentation says:
 *    tokenspeed#1348 (CUDA 13.0) saw 0 kernels for the life of the process
 *    when a profiler session had ended before the graphs were captured, and
 *    933,304 kernels when no profiler had run before; parcagpu#23 enabled
 *    the kind before capture and saw them. VPROF_SIM_GRAPH_NODES:
 *      after-warmup-lost (default): lost when instantiated with the kind off
 *                                   after a session had ended, as tokenspeed saw;
 *      delivered: always;  lost: whenever the kind was off at instantiation.
 */
#include "sim/cuptisim_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sim_graph {
    pthread_mutex_t mu; /* appends from launching threads */
    struct sim_work *nodes;
    uint32_t count, cap;
    uint32_t id;
    unsigned slot; /* the capturing stream */
};

struct simcuda_graph_st { struct sim_graph g; };

struct simcuda_graph_exec_st {
    struct sim_work *nodes; /* with this executable graph's ids */
    uint32_t count;
    uint32_t id;
    int nodes_lost;         /* CUPTI will never report its nodes */
};

/* Graph ids and node ids, as CUPTI numbers them: unique in the process. */
static _Atomic uint32_t next_graph_id = 1;
static _Atomic uint64_t next_node_id = 1;

void sim_graph_add(struct sim_graph *g, const struct sim_work *w) {
    pthread_mutex_lock(&g->mu);
    if (g->count == g->cap) {
        uint32_t cap = g->cap ? g->cap * 2 : 64;
        struct sim_work *n = realloc(g->nodes, cap * sizeof *n);
        if (n == NULL) { /* the capture fails as CUDA's would: this node is missing */
            pthread_mutex_unlock(&g->mu);
            fprintf(stderr, "simcuda: out of memory capturing a graph; node dropped\n");
            return;
        }
        g->nodes = n;
        g->cap = cap;
    }
    struct sim_work *node = &g->nodes[g->count++];
    *node = *w;
    if (node->type == SIM_WORK_KERNEL) node->name = sim_intern(w->name ? w->name : "<unnamed>");
    node->node_id = atomic_fetch_add(&next_node_id, 1);
    pthread_mutex_unlock(&g->mu);
}

int simcuda_graph_begin_capture(simcuda_stream stream) {
    unsigned slot = sim_stream_slot(stream);
    struct sim_api_frame api[2];
    sim_api_pair_enter(api, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000, "cudaStreamBeginCapture",
                       CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, "cuStreamBeginCapture_v2", NULL,
                       sim_new_correlation());
    struct simcuda_graph_st *graph = calloc(1, sizeof *graph);
    int rc = -1;
    if (graph != NULL) {
        pthread_mutex_init(&graph->g.mu, NULL);
        graph->g.id = atomic_fetch_add(&next_graph_id, 1);
        graph->g.slot = slot;
        if (sim_stream_set_capture(slot, NULL, &graph->g)) rc = 0;
        else free(graph);
    }
    api[0].result = api[1].result = rc == 0 ? 0 : 900; /* cudaErrorStreamCaptureUnsupported-like */
    sim_api_pair_exit(api);
    return rc;
}

simcuda_graph simcuda_graph_end_capture(simcuda_stream stream) {
    unsigned slot = sim_stream_slot(stream);
    struct sim_api_frame api[2];
    sim_api_pair_enter(api, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000, "cudaStreamEndCapture",
                       CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, "cuStreamEndCapture", NULL, sim_new_correlation());
    struct sim_graph *g = sim_stream_capture(slot);
    if (g != NULL && !sim_stream_set_capture(slot, g, NULL)) g = NULL;
    sim_api_pair_exit(api);
    return (simcuda_graph)g; /* struct simcuda_graph_st starts with its sim_graph */
}

simcuda_graph_exec simcuda_graph_instantiate(simcuda_graph graph) {
    if (graph == NULL) return NULL;
    struct sim_api_frame api[2];
    sim_api_pair_enter(api, CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000, "cudaGraphInstantiate",
                       CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", NULL,
                       sim_new_correlation());
    struct sim_graph *g = &graph->g;
    struct simcuda_graph_exec_st *e = calloc(1, sizeof *e);
    if (e != NULL) {
        pthread_mutex_lock(&g->mu);
        e->nodes = malloc((g->count ? g->count : 1) * sizeof *e->nodes);
        if (e->nodes == NULL) {
            free(e);
            e = NULL;
        } else {
            e->count = g->count;
            e->id = atomic_fetch_add(&next_graph_id, 1);
            for (uint32_t i = 0; i < g->count; i++) {
                e->nodes[i] = g->nodes[i];
                e->nodes[i].graph_id = e->id;
                e->nodes[i].node_id = atomic_fetch_add(&next_node_id, 1);
            }
            int kind_on = sim_kernel_kind() != CUPTI_ACTIVITY_KIND_INVALID;
            e->nodes_lost = !kind_on && (sim_cfg.graph_nodes == SIM_GRAPH_LOST ||
                                         (sim_cfg.graph_nodes == SIM_GRAPH_AFTER_WARMUP_LOST &&
                                          atomic_load(&sim_kernel_session_ended)));
        }
        pthread_mutex_unlock(&g->mu);
    }
    sim_api_pair_exit(api);
    return e;
}

void simcuda_graph_launch(simcuda_graph_exec e, simcuda_stream stream) {
    if (e == NULL) return;
    unsigned slot = sim_stream_slot(stream);
    uint32_t corr = sim_new_correlation();
    struct sim_api_frame api[2];
    sim_api_pair_enter(api, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, "cudaGraphLaunch",
                       CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, "cuGraphLaunch", NULL, corr);
    if (sim_launch_checks(slot) != NULL) {
        fprintf(stderr, "simcuda: launching a graph into a capturing stream is not simulated; launch ignored\n");
        sim_api_pair_exit(api);
        return;
    }
    int trace = sim_kind_on(CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
    uint64_t first = 0, last = 0;
    for (uint32_t i = 0; i < e->count; i++) {
        const struct sim_work *w = &e->nodes[i];
        uint64_t start, end;
        sim_schedule(slot, w->duration, &start, &end);
        if (i == 0) first = start;
        last = end;
        if (trace || e->nodes_lost) continue;
        switch (w->type) {
        case SIM_WORK_KERNEL: {
            CUpti_ActivityKind kind = sim_kernel_kind();
            if (kind != CUPTI_ACTIVITY_KIND_INVALID) sim_emit_kernel(kind, w, slot, start, end, corr);
            break;
        }
        case SIM_WORK_MEMCPY:
            if (sim_kind_on(CUPTI_ACTIVITY_KIND_MEMCPY)) sim_emit_memcpy(w, slot, start, end, corr);
            break;
        default:
            if (sim_kind_on(CUPTI_ACTIVITY_KIND_MEMSET)) sim_emit_memset(w, slot, start, end, corr);
            break;
        }
    }
    if (trace && e->count > 0) {
        CUpti_ActivityGraphTrace2 r;
        memset(&r, 0, sizeof r);
        r.kind = CUPTI_ACTIVITY_KIND_GRAPH_TRACE;
        r.correlationId = corr;
        r.start = first;
        r.end = last;
        r.deviceId = r.endDeviceId = sim_device();
        r.graphId = e->id;
        r.contextId = r.endContextId = SIM_CONTEXT_ID;
        r.streamId = sim_cupti_stream_id(slot);
        sim_emit(&r, sizeof r, slot, sim_due(last));
    }
    sim_api_pair_exit(api);
}

uint32_t simcuda_graph_exec_id(simcuda_graph_exec e) { return e ? e->id : 0; }
uint32_t simcuda_graph_node_count(simcuda_graph_exec e) { return e ? e->count : 0; }

void simcuda_graph_destroy(simcuda_graph graph) {
    if (graph == NULL) return;
    free(graph->g.nodes);
    pthread_mutex_destroy(&graph->g.mu);
    free(graph);
}

void simcuda_graph_exec_destroy(simcuda_graph_exec e) {
    if (e == NULL) return;
    free(e->nodes);
    free(e);
}
