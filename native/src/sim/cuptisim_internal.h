/*
 * cuptisim_internal.h: state shared by the files of the CUPTI test double.
 *
 * cuptisim_api.c       subscription, callbacks, version, result strings
 * cuptisim_activity.c  activity kinds, buffers, the worker thread, drops, flush
 * cuptisim_driver.c    simcuda_*: the simulated GPU (streams, clocks, launches)
 *
 * The cupti headers are included with default visibility so that the
 * definitions of their functions are exported although the Makefile builds
 * with -fvisibility=hidden; everything declared here stays hidden.
 */
#ifndef VPROF_CUPTISIM_INTERNAL_H
#define VPROF_CUPTISIM_INTERNAL_H

#pragma GCC visibility push(default)
#include <cupti.h>
#include <generated_nvtx_meta.h>
#pragma GCC visibility pop

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Callback ids per domain that the enable table can hold. */
#define SIM_CBID_MAX 1024
_Static_assert(CUPTI_RUNTIME_TRACE_CBID_SIZE <= SIM_CBID_MAX, "runtime cbids fit");
_Static_assert(CUPTI_DRIVER_TRACE_CBID_SIZE <= SIM_CBID_MAX, "driver cbids fit");

/* Streams: slot 0 is the legacy default stream (CUPTI streamId 7); created
 * streams have handles 13, 14, ... and slots 1, 2, ... The last slot counts
 * drops of records that belong to no stream (markers, API records). */
#define SIM_MAX_STREAMS 63
#define SIM_DEFAULT_STREAM_CUPTI_ID 7u
#define SIM_FIRST_STREAM_HANDLE 13u
#define SIM_GLOBAL_DROP_SLOT SIM_MAX_STREAMS
#define SIM_DEVICE_ID 0u
#define SIM_CONTEXT_ID 1u

/* ---- cuptisim_api.c ---- */

/* Which (domain, cbid) callbacks the subscriber enabled; all zero while there is none. Every
 * API entry and exit checks it, so the check is one inline load, whether or not anyone is
 * subscribed: a subscriber that enabled only other ids costs a launch nothing more. */
extern _Atomic uint8_t sim_cb_enabled[CUPTI_CB_DOMAIN_SIZE][SIM_CBID_MAX];

static inline int sim_callback_enabled(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    return atomic_load_explicit(&sim_cb_enabled[domain][cbid], memory_order_relaxed) != 0;
}
/* Calls the subscriber on the calling thread (if still subscribed/enabled). */
void sim_callback_invoke(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data);
/* The thread id CUPTI records carry, per cuptiSetThreadIdType. */
uint32_t sim_thread_id(void);
uint64_t sim_now_ns(void); /* CLOCK_REALTIME in ns, like cuptiGetTimestamp */

/* ---- cuptisim_activity.c ---- */

/* One relaxed byte per activity kind; read on every launch. */
extern _Atomic uint8_t sim_kind_enabled[CUPTI_ACTIVITY_KIND_COUNT];
static inline int sim_kind_on(CUpti_ActivityKind kind) {
    return atomic_load_explicit(&sim_kind_enabled[kind], memory_order_relaxed) != 0;
}
/* Copies one record (its first field is its kind) into the current activity
 * buffer, asking the client for a buffer on this thread when needed. With no
 * buffer the record is dropped and counted in `drop_slot`. */
void sim_emit(const void *record, size_t size, unsigned drop_slot);
/* Stops the worker thread (joins it unless called on it) and forgets the
 * registered buffer callbacks' thread; records still buffered stay there. */
void sim_activity_stop_worker(void);
/* Delivers every buffer the double holds, records or not (finalize). */
void sim_activity_give_back_buffers(void);
/* Resets the activity state: all kinds off, callbacks forgotten. */
void sim_activity_reset(void);

/* ---- cuptisim_driver.c ---- */
CUcontext sim_context(void);
/* Interns a string for the life of the process (names in records must stay
 * valid after their buffer is handed over). */
const char *sim_intern(const char *s);

#endif
