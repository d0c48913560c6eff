/* simgpu_crew.c: see simgpu_crew.h. */
#include "sim/simgpu_crew.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct helper_arg { struct simgpu_crew *crew; int index; };
static struct helper_arg args[SIMGPU_MAX_THREADS];

static void *helper_main(void *p) {
    const struct helper_arg *a = p;
    struct simgpu_crew *c = a->crew;
    for (;;) {
        pthread_barrier_wait(&c->go);
        if (c->quit) return NULL;
        c->results[a->index] = simgpu_model_step(&c->models[a->index], c->prefill, c->decode, c->exact);
        pthread_barrier_wait(&c->done);
    }
}

int simgpu_crew_start(struct simgpu_crew *c, const struct simgpu_options *o, uint64_t seed) {
    memset(c, 0, sizeof *c);
    c->n = o->threads;
    for (int i = 0; i < c->n; i++) {
        /* the step's kernels split as evenly as they go; the copies stay with thread 0 */
        int share = o->kernels_per_step / c->n + (i < o->kernels_per_step % c->n);
        simgpu_model_init(&c->models[i], seed + 0x9e3779b97f4a7c15ull * (uint64_t)i, share, i == 0 ? o->memcpys_per_step : 0);
        c->models[i].slow = o->slow;
        c->models[i].slow_count = o->slow_count;
        if (o->cuda_graph) simgpu_model_capture_graphs(&c->models[i]);
    }
    if (c->n == 1) return 0;
    pthread_barrier_init(&c->go, NULL, (unsigned)c->n);
    pthread_barrier_init(&c->done, NULL, (unsigned)c->n);
    for (int i = 1; i < c->n; i++) {
        args[i].crew = c;
        args[i].index = i;
        if (pthread_create(&c->helpers[i], NULL, helper_main, &args[i]) != 0) {
            /* the barrier counts every thread: the run cannot go on without them */
            fprintf(stderr, "vprof-simgpu: cannot start launching thread %d of %d; lower --threads\n", i + 1, c->n);
            exit(1);
        }
    }
    return 0;
}

struct simgpu_step_result simgpu_crew_step(struct simgpu_crew *c, int prefill, int decode, int exact) {
    if (c->n == 1) return simgpu_model_step(&c->models[0], prefill, decode, exact);
    c->prefill = prefill;
    c->decode = decode;
    c->exact = exact;
    pthread_barrier_wait(&c->go);
    c->results[0] = simgpu_model_step(&c->models[0], prefill, decode, exact);
    pthread_barrier_wait(&c->done);
    struct simgpu_step_result sum = { 0, 0, 0 };
    for (int i = 0; i < c->n; i++) {
        sum.kernels += c->results[i].kernels;
        sum.memcpys += c->results[i].memcpys;
        sum.graph_launches += c->results[i].graph_launches;
    }
    return sum;
}

void simgpu_crew_stop(struct simgpu_crew *c) {
    if (c->n == 1) return;
    c->quit = 1;
    pthread_barrier_wait(&c->go);
    for (int i = 1; i < c->n; i++) pthread_join(c->helpers[i], NULL);
    pthread_barrier_destroy(&c->go);
    pthread_barrier_destroy(&c->done);
}
