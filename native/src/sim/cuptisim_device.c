/*
 * cuptisim_device.c: the simulated GPUs: which one this process uses, what a
 * CUPTI_ACTIVITY_KIND_DEVICE record says about each, and their memory as
 * cudaMemGetInfo would see it (where CUPTI's device buffers show).
 *
 * Every device is a simulated H200-class part and says so in its name; the
 * figures are the public specification's, not a measurement.
 */
#include "sim/cuptisim_internal.h"
#include "sim/simgpu_driver.h"

#include <stdio.h>
#include <string.h>

#define H200_MEMORY (141ull * 1000 * 1000 * 1000) /* 141 GB HBM3e */

static _Atomic uint32_t current_device;
static _Atomic int cuda_initialized;
static char names[SIM_MAX_DEVICES][64];

uint32_t sim_device(void) { return atomic_load_explicit(&current_device, memory_order_relaxed); }

int simcuda_set_device(uint32_t device) {
    if (device >= sim_cfg.device_count) return -1;
    atomic_store(&current_device, device);
    return 0;
}

uint32_t simcuda_device_count(void) { return sim_cfg.device_count; }

static void fill_device(CUpti_ActivityDevice5 *d, uint32_t id) {
    memset(d, 0, sizeof *d);
    d->kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d->flags = CUPTI_ACTIVITY_FLAG_DEVICE_CONCURRENT_KERNELS;
    d->globalMemoryBandwidth = 4800000000ull; /* kB/s: 4.8 TB/s */
    d->globalMemorySize = H200_MEMORY;
    d->constantMemorySize = 65536;
    d->l2CacheSize = 50u * 1024 * 1024;
    d->numThreadsPerWarp = 32;
    d->coreClockRate = 1980000; /* kHz */
    d->numMemcpyEngines = 7;
    d->numMultiprocessors = 132;
    d->maxIPC = 4;
    d->maxWarpsPerMultiprocessor = 64;
    d->maxBlocksPerMultiprocessor = 32;
    d->maxSharedMemoryPerMultiprocessor = 233472;
    d->maxRegistersPerMultiprocessor = 65536;
    d->maxRegistersPerBlock = 65536;
    d->maxSharedMemoryPerBlock = 49152;
    d->maxThreadsPerBlock = 1024;
    d->maxBlockDimX = 1024;
    d->maxBlockDimY = 1024;
    d->maxBlockDimZ = 64;
    d->maxGridDimX = 2147483647;
    d->maxGridDimY = 65535;
    d->maxGridDimZ = 65535;
    d->computeCapabilityMajor = 9;
    d->computeCapabilityMinor = 0;
    d->id = id;
    d->eccEnabled = 1;
    for (int i = 0; i < 16; i++) d->uuid.bytes[i] = (char)(0x5a ^ (i * 17) ^ (int)id); /* stable per device */
    snprintf(names[id], sizeof names[id], "NVIDIA H200 (simulated by vprof)");
    d->name = names[id];
    d->isCudaVisible = 1;
    d->numaId = invalidNumaId;
}

/* CUPTI reports every device once the kind is on and CUDA is initialized. */
void sim_device_emit_records(void) {
    if (!sim_kind_on(CUPTI_ACTIVITY_KIND_DEVICE) || !atomic_load(&cuda_initialized)) return;
    for (uint32_t id = 0; id < sim_cfg.device_count; id++) {
        CUpti_ActivityDevice5 d;
        fill_device(&d, id);
        sim_emit(&d, sizeof d, SIM_GLOBAL_DROP_SLOT, 0);
    }
}

void sim_device_cuda_initialized(void) {
    atomic_store(&cuda_initialized, 1);
    sim_device_emit_records();
}

void simcuda_mem_get_info(uint64_t *free_bytes, uint64_t *total_bytes) {
    uint64_t used = sim_device_buffer_bytes();
    if (total_bytes) *total_bytes = H200_MEMORY;
    if (free_bytes) *free_bytes = used < H200_MEMORY ? H200_MEMORY - used : 0;
}
