/*
 * libsimgpu.c: libvprof-simgpu.so, the simulated GPU as a library, for programs that drive it
 * themselves rather than through vprof-simgpu: a CPython process through ctypes, like a vLLM
 * worker whose Python main loop calls into CUDA (native/test/inject_pytarget.py). The
 * simcuda_* driver API (simgpu_driver.h) is reached through this library's dependency on the
 * CUPTI test double (ctypes' CDLL(...).simcuda_init works); this file adds the step loop of
 * vprof-simgpu's --steps schedule. Nothing it reports is a GPU figure.
 */
#include <pthread.h>
#include <stdint.h>

#include "sim/simgpu_driver.h"
#include "sim/simgpu_model.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct simgpu_model model;
static int opened;
static int64_t step_index;
static uint64_t kernels;

/* Initializes "CUDA" (simcuda_init: the injection path, the helper threads) and the model.
 * Returns simcuda_init's result; later calls only return it again. */
SIMCUDA_API int simgpu_open(uint64_t seed, int kernels_per_step, int memcpys_per_step) {
    int rc = simcuda_init();
    pthread_mutex_lock(&lock);
    if (!opened) {
        simgpu_model_init(&model, seed, kernels_per_step > 0 ? kernels_per_step : 40,
                          memcpys_per_step >= 0 ? memcpys_per_step : 2);
        opened = 1;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Runs the next n steps of the --steps schedule (a prefill every 8th step, decode batches of
 * 16 to 63) and returns the number of kernels launched since simgpu_open: exactly
 * kernels_per_step per step, so a caller can check that nothing was lost or added. */
SIMCUDA_API uint64_t simgpu_run_steps(int64_t n) {
    pthread_mutex_lock(&lock);
    for (int64_t i = 0; opened && i < n; i++, step_index++) {
        int prefill = step_index % 8 == 0 ? 512 : 0;
        int decode = 16 + (int)(step_index % 48);
        kernels += simgpu_model_step(&model, prefill, decode, 1).kernels;
    }
    uint64_t k = kernels;
    pthread_mutex_unlock(&lock);
    return k;
}
