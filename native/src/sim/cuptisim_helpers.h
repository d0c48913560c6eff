/* cuptisim_helpers.h: the helper threads libcuda starts at cuInit, in the test double. */
#ifndef VPROF_CUPTISIM_HELPERS_H
#define VPROF_CUPTISIM_HELPERS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the helper threads once per process (simcuda_init calls it); a forked child starts
 * its own at its own first simcuda_init, as a CUDA process must initialize CUDA after fork. */
void sim_helpers_start(void);

/* Before the first simcuda_init: start no helper threads (vprof-simgpu --bare), leaving a
 * single-threaded "CUDA" process, the hardest case for late injection. */
__attribute__((visibility("default"))) void simcuda_helpers_disable(void);

#ifdef __cplusplus
}
#endif
#endif
