/*
 * simgpu_crew.h: the threads of vprof-simgpu that launch a step's kernels
 * (--threads N). Each thread has a model of its own (its own streams and
 * random durations) and launches its share of the step; the step ends when
 * all have launched. CUDA 13's CUPTI gives each launching thread its own
 * activity buffer, which is what this exercises.
 */
#ifndef VPROF_SIMGPU_CREW_H
#define VPROF_SIMGPU_CREW_H

#include <pthread.h>

#include "sim/simgpu_model.h"
#include "sim/simgpu_options.h"

struct simgpu_crew {
    int n;                        /* launching threads, the caller included */
    struct simgpu_model models[SIMGPU_MAX_THREADS];
    struct simgpu_step_result results[SIMGPU_MAX_THREADS];
    pthread_t helpers[SIMGPU_MAX_THREADS];
    pthread_barrier_t go, done;
    int prefill, decode, exact, quit;
};

/* Models for n threads (call after simcuda_init), with graphs if asked, and
 * n-1 helper threads (exits with a message if one cannot start). Returns 0. */
int simgpu_crew_start(struct simgpu_crew *c, const struct simgpu_options *o, uint64_t seed);
/* One step across all threads; what they launched together. */
struct simgpu_step_result simgpu_crew_step(struct simgpu_crew *c, int prefill, int decode, int exact);
void simgpu_crew_stop(struct simgpu_crew *c);

#endif
