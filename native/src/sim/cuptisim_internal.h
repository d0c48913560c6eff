/*
 * cuptisim_internal.h: state shared by the files of the CUPTI test double.
 *
 * cuptisim_config.c    the VPROF_SIM_* switches, read in one place
 * cuptisim_api.c       version, subscription, callbacks, timestamps, finalize
 * cuptisim_activity.c  activity kinds, attributes, drops, record walking
 * cuptisim_buffers.c   activity buffers (per thread or global), completion, flush, the worker
 * cuptisim_driver.c    simcuda_*: the simulated GPU (streams, clocks, launches)
 * cuptisim_graph.c     stream capture, instantiation and launch of CUDA graphs
 * cuptisim_names.c     interned strings and module reloads that reuse a name's address
 * cuptisim_nvtx.c      NVTX and its one-time injection load
 * cuptisim_device.c    the simulated devices and their DEVICE records
 *
 * vprof's CUPTI declarations are included with default visibility so that the
 * definitions of their functions are exported although the Makefile builds
 * with -fvisibility=hidden; everything declared here stays hidden.
 */
#ifndef VPROF_CUPTISIM_INTERNAL_H
#define VPROF_CUPTISIM_INTERNAL_H

#pragma GCC visibility push(default)
#include "cupti_abi.h"
#pragma GCC visibility pop

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/simgpu_driver.h"

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
#define SIM_CONTEXT_ID 1u
#define SIM_MAX_DEVICES 64u

/* ---- cuptisim_config.c ---- */

enum { SIM_COMPLETION_ASYNC, SIM_COMPLETION_AT_LAUNCH };
enum { SIM_INFLIGHT_LOST, SIM_INFLIGHT_ZERO, SIM_INFLIGHT_KEPT };
enum { SIM_GRAPH_AFTER_WARMUP_LOST, SIM_GRAPH_DELIVERED, SIM_GRAPH_LOST };
enum { SIM_AUTO, SIM_OFF, SIM_ON };
enum { SIM_LEAK_GRAPH, SIM_LEAK_NONE };
/* Shapes of invalid timestamps, in the order of the summary's counts. */
enum { SIM_INVALID_END_BEFORE_START, SIM_INVALID_START_ZERO, SIM_INVALID_END_ZERO, SIM_INVALID_BOTH_ZERO,
       SIM_INVALID_KINDS };

struct sim_config {
    uint32_t version;           /* what cuptiGetVersion reports */
    int completion;             /* when GPU work's records are complete */
    int disabled_in_flight;     /* records of work in flight when its kind is disabled */
    int graph_nodes;            /* nodes of graphs instantiated while the kernel kind was off */
    double invalid_rate;        /* fraction of GPU records delivered with invalid timestamps */
    unsigned invalid_kinds;     /* bit per SIM_INVALID_* shape */
    uint64_t seed;
    int crash_on_null_buffer;
    int disable_deadlock;
    uint64_t deadlock_ms;
    uint64_t post_capture_cost_ns;
    uint64_t name_reuse_every;  /* kernel launches between module reloads; 0 = never */
    uint32_t device_count;
    int device_buffer_leak;
};
extern struct sim_config sim_cfg;
void sim_config_read(void);
int sim_version_crashes_on_null_buffer(void);
int sim_version_deadlocks_on_disable(void);
int sim_version_per_thread_buffers_default(void);

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
/* Nonzero while this thread runs a runtime or driver API callback of the subscriber. */
int sim_in_api_callback(void);
/* The thread id CUPTI records carry, per cuptiSetThreadIdType. */
uint32_t sim_thread_id(void);
uint64_t sim_now_ns(void); /* CLOCK_REALTIME in ns: the double's clock, GPU and host alike */
/* The client's clock (cuptiActivityRegisterTimestampCallback) minus the double's, now; 0 without one. */
int64_t sim_client_clock_offset(void);
/* Bumped at every timestamp callback registration: a buffer holds records of one clock. */
extern _Atomic uint32_t sim_clock_epoch;

/* ---- cuptisim_activity.c ---- */

/* One relaxed byte per activity kind; read on every launch. */
extern _Atomic uint8_t sim_kind_enabled[CUPTI_ACTIVITY_KIND_COUNT];
static inline int sim_kind_on(CUpti_ActivityKind kind) {
    return atomic_load_explicit(&sim_kind_enabled[kind], memory_order_relaxed) != 0;
}
/* Nonzero once CONCURRENT_KERNEL (or KERNEL) was enabled and disabled again: a profiling
 * session has ended in this process (cleared by nothing, as in tokenspeed#1348). */
extern _Atomic int sim_kernel_session_ended;
/* What every launch must check, in one word so that the usual launch pays one
 * load: bit 0, the extra cost a capture left until cuptiFinalize (PyTorch
 * #146604); above it, twice the number of streams capturing a graph. */
#define SIM_UNUSUAL_TAX 1u
#define SIM_UNUSUAL_CAPTURE 2u
extern _Atomic uint32_t sim_launch_unusual;
void sim_launch_tax(void);
uint64_t sim_launches_taxed(void);
struct sim_graph;
struct sim_graph *sim_stream_capture(unsigned slot);
/* Called by every launch: pays the post-capture cost if due, and returns the
 * graph the stream is capturing into, or NULL. */
static inline struct sim_graph *sim_launch_checks(unsigned slot) {
    uint32_t unusual = atomic_load_explicit(&sim_launch_unusual, memory_order_relaxed);
    if (__builtin_expect(unusual == 0, 1)) return NULL;
    if (unusual & SIM_UNUSUAL_TAX) sim_launch_tax();
    return unusual >= SIM_UNUSUAL_CAPTURE ? sim_stream_capture(slot) : NULL;
}
/* Size of a record the double writes, 0 for a kind it never writes. */
size_t sim_record_size(CUpti_ActivityKind kind);
/* Resets the activity state: all kinds off, attributes to their defaults, drops zero. */
void sim_activity_reset(void);
void sim_count_drop(unsigned drop_slot);
/* Where a GPU record's timestamps are, for the walks over buffered records. */
int sim_gpu_record_times(CUpti_Activity *r, uint64_t **start, uint64_t **end);
/* The device-buffer model, per GPU record made: its timestamps are fine, torn (end < start)
 * or dropped (start = end = 0) because the device buffer pool is spent. */
enum { SIM_TS_OK, SIM_TS_TORN, SIM_TS_DROPPED };
int sim_device_buffer_take(int graph_node);
uint64_t sim_device_timestamps_lost(int what);
uint64_t sim_device_buffer_bytes(void);

/* ---- cuptisim_buffers.c ---- */

/* Copies one record (its first field is its kind) into the calling thread's
 * current activity buffer (or the global one), asking the client for a buffer
 * on this thread when needed. `due` is when the record is complete on the
 * double's clock (0: complete now). With no buffer the record is dropped and
 * counted in `drop_slot`. */
void sim_emit(const void *record, size_t size, unsigned drop_slot, uint64_t due);
/* Applies VPROF_SIM_DISABLED_IN_FLIGHT to buffered records of `kind` that are not complete. */
void sim_buffers_kind_disabled(CUpti_ActivityKind kind);
/* cuptiActivityFlushAll's work: forced also returns incomplete buffers (their incomplete
 * records with zero timestamps); give_back_empty also returns buffers without records. */
void sim_buffers_flush(int forced, int give_back_empty);
/* Whether cuptiActivityRegisterCallbacks has been called (FlushAll needs it). */
int sim_buffers_registered(void);
void sim_buffers_register(CUpti_BuffersCallbackRequestFunc requested, CUpti_BuffersCallbackCompleteFunc completed,
                          int per_thread);
/* Stops the worker thread (joins it unless called on it); the callbacks stay
 * registered, so a client's at-exit flush still works. */
void sim_buffers_stop_worker(void);
/* Stops the worker and forgets the callbacks (finalize). */
void sim_buffers_stop(void);
/* Counts of invalid timestamps injected into delivered records, per SIM_INVALID_* shape. */
uint64_t sim_invalid_count(int shape);

/* ---- cuptisim_driver.c ---- */
CUcontext sim_context(void);
uint32_t sim_new_correlation(void);
/* Schedules work on a stream's virtual clock; start/end on the double's clock. */
void sim_schedule(unsigned slot, uint64_t duration, uint64_t *start, uint64_t *end);
unsigned sim_stream_slot(uint32_t stream);
uint32_t sim_cupti_stream_id(unsigned slot);
/* The GPU's "now" for completion: the double's clock, or later once shutdown
 * declared all issued work done. */
uint64_t sim_gpu_now(void);
/* When GPU work ending at `end` is complete, for sim_emit: 0 in at-launch mode. */
static inline uint64_t sim_due(uint64_t end) { return sim_cfg.completion == SIM_COMPLETION_ASYNC ? end : 0; }

/* One simulated API call as CUPTI sees it: ENTER and EXIT callbacks, an API record. */
struct sim_api_frame {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId cbid;
    const char *function;
    const char *symbol;
    uint32_t correlation;
    uint64_t start;
    uint64_t correlation_data; /* shared by ENTER and EXIT, as in CUPTI */
    int result;
};
void sim_api_enter(struct sim_api_frame *f, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                   const char *function, const char *symbol, uint32_t correlation);
void sim_api_exit(struct sim_api_frame *f);
/* A runtime call with its driver call nested: f[0] runtime, f[1] driver. */
void sim_api_pair_enter(struct sim_api_frame f[2], CUpti_CallbackId rt_cbid, const char *rt_name,
                        CUpti_CallbackId drv_cbid, const char *drv_name, const char *symbol, uint32_t correlation);
void sim_api_pair_exit(struct sim_api_frame f[2]);

/* A piece of GPU work: launched eagerly, or a node of a graph. */
enum { SIM_WORK_KERNEL, SIM_WORK_MEMCPY, SIM_WORK_MEMSET };
struct sim_work {
    int type;
    const char *name;          /* kernels: interned */
    simcuda_dim3 grid, block;
    uint64_t duration;
    uint64_t bytes;
    uint32_t value;
    int copy_kind;
    uint32_t graph_id;         /* executable graph's id, 0 outside graphs */
    uint64_t node_id;
};
/* The kernel kind a launch's record takes now, or CUPTI_ACTIVITY_KIND_INVALID. */
CUpti_ActivityKind sim_kernel_kind(void);
void sim_emit_kernel(CUpti_ActivityKind kind, const struct sim_work *w, unsigned slot, uint64_t start, uint64_t end,
                     uint32_t corr);
void sim_emit_memcpy(const struct sim_work *w, unsigned slot, uint64_t start, uint64_t end, uint32_t corr);
void sim_emit_memset(const struct sim_work *w, unsigned slot, uint64_t start, uint64_t end, uint32_t corr);
uint64_t sim_copy_duration(int kind, uint64_t bytes);
uint64_t sim_set_duration(uint64_t bytes);

/* ---- cuptisim_graph.c ---- */
/* Compare-and-set of a stream's capture (driver.c owns the streams). */
int sim_stream_set_capture(unsigned slot, struct sim_graph *expected, struct sim_graph *g);
/* Appends work issued to a capturing stream as a node. */
void sim_graph_add(struct sim_graph *g, const struct sim_work *w);

/* ---- cuptisim_names.c ---- */
/* Interns a string for the life of the process (names in records must stay
 * valid after their buffer is handed over). */
const char *sim_intern(const char *s);
/* A kernel name as a module holds it: interned, or, with VPROF_SIM_NAME_REUSE_EVERY,
 * in a slot whose address later holds another kernel's name. */
const char *sim_kernel_name(const char *s);
uint64_t sim_hash(const char *s);
/* sim_hash(s), without reading the name when s is an interned copy. */
uint64_t sim_name_hash(const char *s);

/* ---- cuptisim_device.c ---- */
uint32_t sim_device(void); /* the current device */
void sim_device_emit_records(void);
void sim_device_cuda_initialized(void);

#endif
