/*
 * vprof_ring.h: the shared region between a vprof agent and a vprof front end.
 *
 * This header is the single source of truth for the layout. The Java bindings in
 * bindings/ are generated from it by jextract/ (sizeof/offsetof asked of the C
 * compiler); a test regenerates them on every build and fails if they differ.
 *
 * It knows nothing of CUPTI: records are plain numbers and interned strings.
 *
 * One region per target process: /dev/shm/vprof.<pid>, mode 0600, created O_EXCL.
 *
 *   0                     4096                         4096 + ring_capacity
 *   +---------------------+----------------------------+
 *   | vprof_control       | ring bytes (power of two)  |
 *   +---------------------+----------------------------+
 *
 * The reader checks magic, then format_version, then the sizes, before it
 * trusts anything else in the region.
 */
#ifndef VPROF_RING_H
#define VPROF_RING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VPROF_MAGIC            0x31474e4952465056ULL /* "VPFRING1" little endian */
/*
 * 2: RANGE, KERNEL_DESC and DROPS grew at their ends (a reader accepts the
 * shorter format-1 records of old capture files), DEVICE records, the
 * RANGE_BEGIN/RANGE_END commands, and control-block fields in what was
 * reserved. A format-1 front end cannot drive a format-2 agent, so the
 * version is checked before anything else. Later in format 2, CLOCK_SYNC
 * grew boottime_ns at its end the same way (see the record).
 */
#define VPROF_FORMAT_VERSION   2u
#define VPROF_CONTROL_SIZE     4096u
#define VPROF_CACHE_LINE       64u
#define VPROF_CONTROL_LINES    11u  /* the control block's lines of concurrently written fields */
#define VPROF_REASON_MAX       256u
#define VPROF_NAME_MAX         128u
#define VPROF_CMDLINE_MAX      512u
#define VPROF_SHM_PREFIX       "vprof."

/* Ring capacity bounds: a power of two between these, inclusive. */
#define VPROF_RING_MIN         (64u * 1024u)
#define VPROF_RING_MAX         (1024u * 1024u * 1024u)
#define VPROF_RING_DEFAULT     (64u * 1024u * 1024u)

/*
 * Space the data records leave free for control records (RANGE, CLOCK_SYNC,
 * DROPS): a kernel is dropped when less than this would remain, so the record
 * that closes a range still fits in a ring that data has filled.
 */
#define VPROF_RING_CONTROL_RESERVE 4096u

/*
 * How long after a range's end the agent keeps tracing for the work launched in
 * the range to complete (its drain window; see vprof_rec_range). A DISARM can
 * take this long per range to be answered.
 */
#define VPROF_DRAIN_MAX_MS     2000u

/* Largest single record, header included (a STRING of VPROF_STRING_MAX bytes). */
#define VPROF_STRING_MAX       4096u
#define VPROF_RECORD_MAX       (VPROF_STRING_MAX + 16u)

/* ---- agent state (vprof_control.state) ---------------------------------- */
enum vprof_state {
    VPROF_STATE_STARTING  = 0, /* region created, not yet ready for commands */
    VPROF_STATE_DORMANT   = 1, /* profiler callbacks only, no activity kind enabled */
    VPROF_STATE_ARMED     = 2, /* waiting for the capture range to begin */
    VPROF_STATE_CAPTURING = 3, /* activity kinds enabled, records flowing */
    VPROF_STATE_STOPPING  = 4, /* flushing and disabling */
    VPROF_STATE_FAILED    = 5, /* see vprof_control.reason; the target runs on untouched */
    VPROF_STATE_EXITED    = 6  /* the target process has exited */
};

/* ---- commands (front end -> agent) --------------------------------------
 * The front end fills the cmd_* arguments, then stores cmd_seq + 1 with release.
 * The agent's control thread sees the new sequence, acts, writes cmd_result,
 * then stores cmd_ack = cmd_seq with release.
 */
enum vprof_command {
    VPROF_CMD_NONE        = 0,
    VPROF_CMD_ARM         = 1, /* arm with cmd_range_mode, cmd_range_name, cmd_kinds ... */
    VPROF_CMD_DISARM      = 2, /* end any open range (drain, flush), disable, back to DORMANT */
    /*
     * --range-scope tree: another process of the tree began (ended) its
     * cudaProfilerApi range and the front end relays it. An agent armed in
     * profiler mode opens a range with source TREE (OK and nothing more if one
     * is open); RANGE_END closes a range only if TREE opened it. Any other
     * arming answers BAD_COMMAND.
     */
    VPROF_CMD_RANGE_BEGIN = 3,
    VPROF_CMD_RANGE_END   = 4
};

enum vprof_range_mode {
    VPROF_RANGE_NONE        = 0, /* capture from ARM to DISARM */
    VPROF_RANGE_PROFILER    = 1, /* cudaProfilerStart/Stop, cuProfilerStart/Stop */
    VPROF_RANGE_NVTX        = 2  /* push/pop of the NVTX range cmd_range_name[@cmd_range_domain] */
};

/* Activity kinds, a bit mask in cmd_kinds. */
#define VPROF_KIND_KERNEL  (1u << 0)
#define VPROF_KIND_MEMCPY  (1u << 1)
#define VPROF_KIND_MEMSET  (1u << 2)
#define VPROF_KIND_NVTX    (1u << 3)
#define VPROF_KIND_RUNTIME (1u << 4)
#define VPROF_KIND_DRIVER  (1u << 5)
#define VPROF_KIND_SYNC    (1u << 6) /* host waits on the GPU (CUPTI_ACTIVITY_KIND_SYNCHRONIZATION); optional */
#define VPROF_KINDS_ALL    (VPROF_KIND_KERNEL | VPROF_KIND_MEMCPY | VPROF_KIND_MEMSET | VPROF_KIND_NVTX | \
                            VPROF_KIND_RUNTIME | VPROF_KIND_DRIVER | VPROF_KIND_SYNC)
#define VPROF_KINDS_DEFAULT (VPROF_KIND_KERNEL | VPROF_KIND_MEMCPY | VPROF_KIND_MEMSET | VPROF_KIND_NVTX)

/* Command results (cmd_result); details, if any, in reason. */
enum vprof_cmd_result {
    VPROF_RESULT_OK          = 0,
    VPROF_RESULT_BAD_COMMAND = 1,
    VPROF_RESULT_FAILED      = 2,  /* agent is FAILED; reason says why */
    VPROF_RESULT_BUSY        = 3   /* another front end holds the agent */
};

/*
 * The control block: 4096 bytes at offset 0 of the region.
 *
 *    0               1               2               3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+
 *   |                         magic (64)                            |
 *   +---------------------------------------------------------------+
 *   |        format_version         |         control_size          |
 *   +---------------------------------------------------------------+
 *   |                     ring_capacity (64)                        |
 *   +---------------------------------------------------------------+
 *   |   pid    |   uid    | cupti_version | state | ...identity...  |
 *   +---------------------------------------------------------------+
 *   | line 1..: command words | line: heartbeat | one line per hot   |
 *   | counter | head position line | tail position line             |
 *   +---------------------------------------------------------------+
 *
 * Fields written concurrently sit on their own 64-byte line so that the
 * producers, the consumer and the control thread do not false-share.
 */
struct vprof_control {
    /*
     * Each line is a union of its fields and a line-sized array, so the
     * compiler pads it to 64 bytes: no pad is counted by hand, and a field
     * that would overflow its line moves every later offset, which the
     * _Static_asserts after this struct refuse.
     */

    /* line 0: identity, written once by the agent before state leaves STARTING */
    union {
        struct {
            uint64_t magic;
            uint32_t format_version;
            uint32_t control_size;
            uint64_t ring_capacity;        /* bytes, a power of two */
            int32_t  pid;
            uint32_t uid;
            uint32_t cupti_version;        /* cuptiGetVersion(); 0 until CUPTI is loaded */
            uint32_t state;                /* enum vprof_state; atomic */
            uint64_t start_realtime_ns;    /* CLOCK_REALTIME when the agent started */
            uint64_t agent_flags;          /* VPROF_AGENT_* */
        };
        uint8_t pad0[VPROF_CACHE_LINE];
    };

    /* line 1: command words, written by the front end, acked by the agent */
    union {
        struct {
            uint64_t cmd_seq;              /* front end: release-store after filling the args */
            uint64_t cmd_ack;              /* agent: release-store = cmd_seq when done */
            uint32_t cmd;                  /* enum vprof_command */
            uint32_t cmd_result;           /* enum vprof_cmd_result */
            uint32_t cmd_range_mode;       /* enum vprof_range_mode */
            uint32_t cmd_range_repeat;     /* ranges to record; 0 = unlimited */
            uint32_t cmd_kinds;            /* VPROF_KIND_* */
            uint32_t cmd_buffer_size;      /* CUPTI buffer size in bytes; 0 = default */
            int32_t  frontend_pid;         /* pid of the front end that armed the agent, 0 if none */
            uint32_t cmd_capture_id;       /* front end's id for this capture, echoed in RANGE records */
        };
        uint8_t pad1[VPROF_CACHE_LINE];
    };

    /* line 2: heartbeat */
    union {
        struct {
            uint64_t heartbeat_ns;         /* front end: CLOCK_MONOTONIC, at least every second */
            uint64_t heartbeat_timeout_ns; /* agent disarms when the heartbeat is older than this */
        };
        uint8_t pad2[VPROF_CACHE_LINE];
    };

    /* lines 3..8: hot counters, one per line, written by the agent only */
    union { uint64_t records;            uint8_t pad3[VPROF_CACHE_LINE]; }; /* records published to the ring */
    union { uint64_t bytes;              uint8_t pad4[VPROF_CACHE_LINE]; }; /* bytes published, headers and padding included */
    union { uint64_t ring_drops;         uint8_t pad5[VPROF_CACHE_LINE]; }; /* records dropped because the ring was full */
    union { uint64_t ring_drops_kernels; uint8_t pad6[VPROF_CACHE_LINE]; }; /* of which kernels */
    union { uint64_t cupti_drops;        uint8_t pad7[VPROF_CACHE_LINE]; }; /* cuptiActivityGetNumDroppedRecords, summed */
    union { uint64_t ranges;             uint8_t pad8[VPROF_CACHE_LINE]; }; /* capture ranges begun */

    /* line 9: ring positions; the consumer's head */
    union {
        uint64_t head;                     /* consumer: release-store after zeroing what it read */
        uint8_t pad9[VPROF_CACHE_LINE];
    };
    /* line 10: the producers' tail */
    union {
        uint64_t tail;                     /* producers: CAS to claim */
        uint8_t pad10[VPROF_CACHE_LINE];
    };

    /* the rest of the block: cold fields, then what later formats may use */
    union {
        struct {
            /* strings: reason, range name, domain, command line */
            char     reason[VPROF_REASON_MAX];       /* NUL-terminated; why FAILED, or the last warning */
            char     cmd_range_name[VPROF_NAME_MAX]; /* NVTX range name for VPROF_RANGE_NVTX */
            char     cmd_range_domain[VPROF_NAME_MAX];/* NVTX domain, empty = any */
            char     cmdline[VPROF_CMDLINE_MAX];     /* /proc/self/cmdline, NULs replaced by spaces */

            /* format 2: the process's place in a distributed job, from its environment,
               read when CUDA initializes and again at every ARM (a forked worker sets
               them after the fork); -1 where the variable is unset or not a number */
            int32_t  rank;                 /* RANK */
            int32_t  local_rank;           /* LOCAL_RANK */
            int32_t  world_size;           /* WORLD_SIZE */
            uint32_t cupti_facts;          /* VPROF_CUPTI_*: what the agent decided about this libcupti */
            /* range edges this process saw itself (its own cudaProfilerStart/Stop or
               NVTX push/pop), counted at the edge: the front end relays them to the
               other processes of the tree (--range-scope tree); atomic */
            uint64_t local_range_begins;
            uint64_t local_range_ends;
            /* the CUPTI buffer pool: requests it could not serve from its buffers */
            uint64_t pool_emergency_buffers; /* allocated on the application thread: a CUPTI older
                                                than 12.9 may crash when refused a buffer */
            uint64_t pool_refusals;        /* answered with no buffer (CUPTI drops and counts the records) */
            uint64_t warning_flags;        /* VPROF_WARN_* raised since the agent started; atomic, sticky.
                                              reason holds the sentence of the latest one */
        };
        uint8_t reserved[VPROF_CONTROL_SIZE - VPROF_CONTROL_LINES * VPROF_CACHE_LINE];
    };
};

/*
 * The layout the agent, the Java front end (bindings/, generated from this
 * header) and old capture files agree on, checked by the compiler.
 */
_Static_assert(sizeof(struct vprof_control) == VPROF_CONTROL_SIZE, "the control block is VPROF_CONTROL_SIZE bytes");
#define VPROF_ON_OWN_LINE_(field, line) \
    _Static_assert(offsetof(struct vprof_control, field) % VPROF_CACHE_LINE == 0 && \
                   offsetof(struct vprof_control, field) / VPROF_CACHE_LINE == (line), \
                   #field " starts cache line " #line)
VPROF_ON_OWN_LINE_(magic, 0);
VPROF_ON_OWN_LINE_(cmd_seq, 1);
VPROF_ON_OWN_LINE_(heartbeat_ns, 2);
VPROF_ON_OWN_LINE_(records, 3);
VPROF_ON_OWN_LINE_(bytes, 4);
VPROF_ON_OWN_LINE_(ring_drops, 5);
VPROF_ON_OWN_LINE_(ring_drops_kernels, 6);
VPROF_ON_OWN_LINE_(cupti_drops, 7);
VPROF_ON_OWN_LINE_(ranges, 8);
VPROF_ON_OWN_LINE_(head, 9);
VPROF_ON_OWN_LINE_(tail, 10);
VPROF_ON_OWN_LINE_(reason, VPROF_CONTROL_LINES);
#undef VPROF_ON_OWN_LINE_

/* cupti_facts */
#define VPROF_CUPTI_LAYOUT_VERIFIED   (1u << 0) /* record layouts checked against this CUPTI's headers */
#define VPROF_CUPTI_PER_THREAD_OFF    (1u << 1) /* per-thread activity buffers turned off */
#define VPROF_CUPTI_NEVER_REFUSE      (1u << 2) /* API < 27: the pool never answers "no buffer" */
#define VPROF_CUPTI_KEEPS_KERNEL_KIND (1u << 3) /* 13.0 GA: CONCURRENT_KERNEL is never disabled */
#define VPROF_CUPTI_FINALIZES         (1u << 4) /* cuptiFinalize after a capture, re-subscribed at ARM */
#define VPROF_CUPTI_FINALIZED         (1u << 5) /* finalized now; the next ARM subscribes again */

/*
 * Warnings (control->warning_flags, and RANGE END flags for the range that
 * raised them): each names something CUPTI did that cost records or trust.
 */
#define VPROF_WARN_NO_RECORDS         (1u << 0)  /* the range ended with no record while the process launched work */
#define VPROF_WARN_RECORDS_MISSING    (1u << 1)  /* launched kernels had no record when the drain window closed */
#define VPROF_WARN_BUFFERS_TAKEN      (1u << 2)  /* CUPTI gave vprof's buffers to another client's callbacks */
#define VPROF_WARN_GRAPH_NOT_DELIVERED (1u << 3) /* graphs were launched but CUPTI delivered no graph kernel */
#define VPROF_WARN_CLOCK_CHANGED      (1u << 4)  /* CUPTI's clock stopped following CLOCK_REALTIME */
#define VPROF_WARN_UNVERIFIED_LAYOUT  (1u << 5)  /* a CUPTI whose record layout vprof has not verified */
#define VPROF_WARN_DRAIN_TIMEOUT      (1u << 6)  /* the drain window closed at its limit, work still pending */
#define VPROF_WARN_TS_MEMBERSHIP      (1u << 7)  /* correlation ids were not monotonic: membership by timestamps */
#define VPROF_WARN_CUT_SHORT          (1u << 8)  /* the next range began during this one's drain window:
                                                    its later work comes in LATE runs */
#define VPROF_WARN_POOL_EMPTY         (1u << 9)  /* the buffer pool ran dry */
#define VPROF_WARN_PER_THREAD_BUFFERS (1u << 10) /* per-thread activity buffers could not be turned off */
#define VPROF_WARN_KERNEL_KIND_KEPT   (1u << 11) /* CUPTI 13.0 GA: kernel tracing stays on after the range */

/* agent_flags */
#define VPROF_AGENT_INJECTED_AT_LAUNCH (1u << 0) /* InitializeInjection or LD_PRELOAD */
#define VPROF_AGENT_INJECTED_LATE      (1u << 1) /* loaded into a running process */
#define VPROF_AGENT_CUPTI_LOADED       (1u << 2)

/*
 * Ring records. Every record starts with this 8-byte header, is 8-byte
 * aligned, and its length covers header, payload and tail padding.
 *
 *    0               1               2               3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+
 *   |R|                       length                                |
 *   +-+-------------------------------------------------------------+
 *   |                          type                                 |
 *   +---------------------------------------------------------------+
 *   |                       payload ...                            ...
 *   +---------------------------------------------------------------+
 *
 * Commit protocol (after Agrona's ManyToOneRingBuffer):
 *   producer: CAS tail forward by the aligned length; if the record would
 *             cross the end, the claim also covers a PADDING record to the end
 *             and the record starts at offset 0; store length = -len; write
 *             type and payload; store length = +len with release.
 *   consumer: load length at head with acquire; <= 0 means not yet committed;
 *             read the record; zero the bytes; store head += len with release.
 * A full ring drops the record and counts it; a producer never waits.
 */
struct vprof_record_header {
    int32_t  length;   /* <= 0 while being written; total bytes, multiple of 8 */
    uint32_t type;     /* enum vprof_record_type */
};

#define VPROF_RECORD_ALIGN 8u

enum vprof_record_type {
    VPROF_REC_PADDING     = 1,  /* skip to the end of the ring */
    VPROF_REC_STRING      = 2,  /* an interned string */
    VPROF_REC_KERNEL_DESC = 3,  /* an interned kernel launch shape */
    VPROF_REC_KERNEL      = 4,
    VPROF_REC_MEMCPY      = 5,
    VPROF_REC_MEMSET      = 6,
    VPROF_REC_MARKER      = 7,  /* NVTX */
    VPROF_REC_API         = 8,  /* runtime or driver API call */
    VPROF_REC_CLOCK_SYNC  = 9,
    VPROF_REC_RANGE       = 10, /* a capture range begins or ends */
    VPROF_REC_DROPS       = 11, /* records lost or rejected, by reason */
    VPROF_REC_DEVICE      = 12, /* a GPU's properties (format 2) */
    VPROF_REC_SYNC        = 13, /* the host waited on the GPU (format 2, --kinds sync) */
    VPROF_REC_CPU_OP      = 14, /* a host-side operator of a PyTorch profiler trace (trace reader only) */
    VPROF_REC_ARGS        = 15, /* a source's fields no other record holds (trace reader only) */
    VPROF_REC_TYPE_MAX    = 15
};

/*
 * STRING: id is unique within one capture range sequence (ids restart at 1 when
 * the agent is armed). len bytes of UTF-8 follow, not NUL-terminated, then
 * zero padding to 8 bytes. len <= VPROF_STRING_MAX (longer names are cut).
 */
struct vprof_rec_string {
    struct vprof_record_header h;
    uint32_t id;
    uint32_t len;
    /* char bytes[len]; */
};

/*
 * KERNEL_DESC: what does not change between launches of one kernel on one
 * stream, sent once and referred to by id, so that a KERNEL record is 32 bytes.
 * A kernel of a CUDA graph has one desc per graph node: every replay of the
 * node shares it. Format 1 records end before graph_node_id.
 */
struct vprof_rec_kernel_desc {
    struct vprof_record_header h;
    uint32_t id;
    uint32_t name_id;       /* STRING id of the (mangled) kernel name */
    uint32_t device_id;
    uint32_t context_id;
    uint32_t stream_id;
    uint32_t graph_id;      /* 0 when not launched from a CUDA graph */
    uint32_t grid_x, grid_y, grid_z;
    uint32_t block_x, block_y, block_z;
    uint32_t shared_memory; /* static + dynamic bytes */
    uint32_t registers;
    uint64_t graph_node_id; /* format 2: CUPTI's graphNodeId, 0 when not from a graph */
};

/* KERNEL: one execution. Timestamps are CUPTI ns (CLOCK_REALTIME on Linux). */
struct vprof_rec_kernel {
    struct vprof_record_header h;
    uint64_t start;
    uint64_t end;
    uint32_t correlation_id;
    uint32_t desc_id;       /* KERNEL_DESC id */
};

/* copy_kind follows CUpti_ActivityMemcpyKind (1 = HtoD, 2 = DtoH, 8 = DtoD, ...) */
struct vprof_rec_memcpy {
    struct vprof_record_header h;
    uint64_t start;
    uint64_t end;
    uint64_t bytes;
    uint32_t correlation_id;
    uint32_t device_id;
    uint32_t context_id;
    uint32_t stream_id;
    uint8_t  copy_kind;
    uint8_t  src_kind;      /* CUpti_ActivityMemoryKind */
    uint8_t  dst_kind;
    uint8_t  flags;         /* bit 0: asynchronous */
    uint32_t pad;
};

struct vprof_rec_memset {
    struct vprof_record_header h;
    uint64_t start;
    uint64_t end;
    uint64_t bytes;
    uint32_t correlation_id;
    uint32_t device_id;
    uint32_t context_id;
    uint32_t stream_id;
    uint32_t value;
    uint32_t pad;
};

/* MARKER flags (after CUpti_ActivityFlag's marker bits) */
#define VPROF_MARKER_INSTANT 1u
#define VPROF_MARKER_START   2u
#define VPROF_MARKER_END     4u

/* MARKER: an NVTX mark or one end of an NVTX range; the two ends share id. */
struct vprof_rec_marker {
    struct vprof_record_header h;
    uint64_t timestamp;
    uint32_t id;
    uint32_t flags;         /* VPROF_MARKER_* */
    uint32_t name_id;       /* STRING id, 0 on an END */
    uint32_t domain_id;     /* STRING id of the domain, 0 = default domain */
    uint32_t tid;           /* Linux thread id */
    uint32_t pad;
};

#define VPROF_API_RUNTIME 1u
#define VPROF_API_DRIVER  2u

struct vprof_rec_api {
    struct vprof_record_header h;
    uint64_t start;
    uint64_t end;
    uint32_t correlation_id;
    uint32_t cbid;          /* CUPTI callback id in its domain */
    uint32_t domain;        /* VPROF_API_* */
    uint32_t tid;
};

/*
 * CLOCK_SYNC: the same instant read on four clocks. boottime_ns came later at
 * the record's end (40 bytes): the host's time since boot, which Perfetto
 * joins traces of one machine on. A reader takes the 32-byte record of older
 * agents and files as one without a boot time, and a front end that knows
 * only the 32 bytes reads the longer record's prefix (its decoder asks for at
 * least its own size), so the format stays 2. 0 means not read.
 */
struct vprof_rec_clock_sync {
    struct vprof_record_header h;
    uint64_t cupti_ns;      /* cuptiGetTimestamp */
    uint64_t realtime_ns;   /* CLOCK_REALTIME */
    uint64_t monotonic_ns;  /* CLOCK_MONOTONIC */
    uint64_t boottime_ns;   /* CLOCK_BOOTTIME, read right after realtime_ns */
};

#define VPROF_RANGE_BEGIN 1u
#define VPROF_RANGE_END   2u
/*
 * LATE_BEGIN/LATE_END (format 2) bracket records of an earlier range of the
 * same arming (index) that arrive after the next range began: a range that
 * began while the previous one was still draining closes the previous one at
 * once (its END is already written) and its work that completes afterwards
 * comes between these two edges, with the DROPS records of what of it was
 * rejected. Only edge, index and capture_id are set, and on a LATE_END
 * ring_drops and ring_drops_kernels: that range's records the full ring
 * refused in this run (agents before this rule leave them 0; the layout is
 * format 2's, so the version stays).
 */
#define VPROF_RANGE_LATE_BEGIN 3u
#define VPROF_RANGE_LATE_END   4u

/* Why a range began or ended (vprof_rec_range.source). */
enum vprof_range_source {
    VPROF_SOURCE_COMMAND   = 1, /* ARM with VPROF_RANGE_NONE, or DISARM */
    VPROF_SOURCE_PROFILER  = 2, /* cudaProfilerStart/Stop or cuProfilerStart/Stop */
    VPROF_SOURCE_NVTX      = 3, /* the named NVTX range was pushed or popped */
    VPROF_SOURCE_HEARTBEAT = 4, /* the front end went silent; the agent disarmed */
    VPROF_SOURCE_EXIT      = 5, /* the process is exiting */
    VPROF_SOURCE_TREE      = 6  /* another process of the tree began/ended its range (--range-scope tree) */
};

/*
 * RANGE: a capture range begins or ends. A range's END is stamped where it
 * happens (the stop callback: its time and correlation id), but written only
 * when the drain window has closed, so every record the range kept lies
 * between its BEGIN and its END in the ring, or, when the next range began
 * before the drain was over, between LATE_BEGIN and LATE_END edges naming it. Records belong to the range by
 * launch order: correlation id above the BEGIN's and below the END's (graph
 * node kernels carry their launch's id); where an edge has no correlation id
 * (NVTX, commands, TREE) the agent uses the highest id its launch callbacks
 * saw. Format 1 records end after cupti_drops.
 */
struct vprof_rec_range {
    struct vprof_record_header h;
    uint32_t edge;          /* VPROF_RANGE_BEGIN or VPROF_RANGE_END */
    uint32_t source;        /* enum vprof_range_source */
    uint32_t index;         /* 1, 2, ... within this arming */
    uint32_t capture_id;    /* cmd_capture_id of the arming */
    uint64_t cupti_ns;      /* the edge: BEGIN when the range began, END at the stop */
    uint64_t realtime_ns;
    /*
     * on END: what this range lost, so the file accounts for itself. The ring
     * drops are the range's own records that a full ring refused, one per
     * record (kernels, memcpys, memsets launched in it; NVTX and API records
     * delivered while it was open), counted as its kept records are, whenever
     * they arrived; those that arrive after a cut-short range's END are
     * counted by the LATE_END of their run. Drops of nobody's records (names
     * and shapes the dropped records needed, control records, records between
     * ranges) are only in control->ring_drops, which counts every refused
     * record. So for a whole range: ring_drops_kernels <= the kernels of its
     * launches that arrived, ring_drops >= ring_drops_kernels, and the sum
     * over ranges and LATE_ENDs <= control->ring_drops(_kernels).
     */
    uint64_t ring_drops;
    uint64_t ring_drops_kernels;
    uint64_t cupti_drops;   /* cuptiActivityGetNumDroppedRecords reported while the range was open
                               (CUPTI names no record: such kernels are also in kernels_missing) */
    /* format 2 */
    uint32_t correlation_id;   /* the edge's correlation id; 0 when it had none */
    uint32_t flags;            /* END: VPROF_WARN_* this range raised */
    uint64_t drained_cupti_ns; /* END: when the drain window closed */
    uint64_t kernel_launches;  /* END: kernel launch calls in the range (cuLaunchKernel and kin) */
    uint64_t graph_launches;   /* END: graph launch calls in the range */
    uint64_t kernels;          /* END: kernel records kept */
    uint64_t graph_kernels;    /* END: of which launched by a graph */
    /* END: kernel launches with no record when the drain window closed (CUPTI dropped them, or
       they had not completed). A whole range without graph launches or rejected copies accounts
       for every launch: kernel_launches = kernels + ring_drops_kernels + rejected_* + kernels_missing */
    uint64_t kernels_missing;
    uint64_t clipped;          /* END: records of work launched outside the range (not a loss) */
    /* END: records rejected, by reason (VPROF_DROPS_*); never on the timeline */
    uint64_t rejected_zero_ts;
    uint64_t rejected_start_zero;
    uint64_t rejected_end_zero;
    uint64_t rejected_end_before_start;
    uint64_t rejected_outside_range;
    uint64_t late;             /* END: records of the previous range kept in LATE runs during this one */
    uint64_t rejected_bad_record;
};

/*
 * DROPS reasons. Every kernel, memcpy, memset and sync is checked before it is
 * published; a record that fails is counted here, per buffer, and never
 * reaches the ring. CLIPPED is not a loss: work launched outside the range.
 */
#define VPROF_DROPS_CUPTI            1u /* cuptiActivityGetNumDroppedRecords */
#define VPROF_DROPS_ZERO_TS          2u /* start = end = 0: CUPTI could not collect the timestamps */
#define VPROF_DROPS_START_ZERO       3u /* start = 0, end set */
#define VPROF_DROPS_END_ZERO         4u /* end = 0, start set */
#define VPROF_DROPS_END_BEFORE_START 5u /* end < start */
#define VPROF_DROPS_OUTSIDE_RANGE    6u /* starts before the range began, or ends implausibly late */
#define VPROF_DROPS_BAD_RECORD       7u /* fails the sanity check of a record layout vprof has not verified */
#define VPROF_DROPS_CLIPPED          8u /* launched before the range began or after it ended */
#define VPROF_DROPS_REASON_MAX       8u

struct vprof_rec_drops {
    struct vprof_record_header h;
    uint32_t reason;        /* VPROF_DROPS_* */
    uint32_t context_id;
    uint32_t stream_id;
    uint32_t record_type;   /* VPROF_REC_KERNEL, _MEMCPY, _MEMSET, _API (clipped), _SYNC; 0 = any or unknown (format 1: always 0) */
    uint64_t count;
};

/*
 * DEVICE: one GPU's properties, from CUPTI's device records, sent once per
 * device and arming, before the first record that names the device.
 */
struct vprof_rec_device {
    struct vprof_record_header h;
    uint32_t id;                    /* the deviceId of KERNEL_DESC, MEMCPY, MEMSET */
    uint32_t name_id;               /* STRING, e.g. "NVIDIA H100 80GB HBM3" */
    uint64_t global_memory_bytes;
    uint64_t global_memory_bandwidth; /* KB/s */
    uint32_t sm_count;
    uint32_t compute_major;
    uint32_t compute_minor;
    uint32_t core_clock_khz;
    uint32_t l2_cache_bytes;
    uint32_t warp_size;
    uint32_t max_threads_per_block;
    uint32_t max_warps_per_sm;
    uint32_t max_blocks_per_sm;
    uint32_t max_shared_memory_per_sm;
    uint32_t max_shared_memory_per_block;
    uint32_t max_registers_per_sm;
    uint32_t max_registers_per_block;
    uint32_t flags;                 /* VPROF_DEVICE_* */
    uint8_t  uuid[16];
};

#define VPROF_DEVICE_ECC (1u << 0)
#define VPROF_DEVICE_MIG (1u << 1)

/* SYNC types: CUpti_ActivitySynchronizationType's values */
#define VPROF_SYNC_UNKNOWN             0u
#define VPROF_SYNC_EVENT_SYNCHRONIZE   1u /* cudaEventSynchronize */
#define VPROF_SYNC_STREAM_WAIT_EVENT   2u /* cudaStreamWaitEvent */
#define VPROF_SYNC_STREAM_SYNCHRONIZE  3u /* cudaStreamSynchronize */
#define VPROF_SYNC_CONTEXT_SYNCHRONIZE 4u /* cudaDeviceSynchronize, cuCtxSynchronize */
#define VPROF_SYNC_NONE 0xFFFFFFFFu       /* stream_id or event_id that does not apply to the type */

/*
 * SYNC: one synchronization call, from CUPTI's synchronization records: the
 * host blocked from start to end (CUPTI ns, the host's clock) until the GPU
 * work it waited for was done. correlation_id is the API call's, so a
 * runtime or driver API record of the same call (--kinds runtime) names the
 * thread; CUPTI's record carries none. stream_id and event_id are
 * VPROF_SYNC_NONE where the type has none (a context synchronize has
 * neither). Only an arming with VPROF_KIND_SYNC makes them, which a front
 * end that does not know this type never asks for (its ring reader refuses
 * types above its VPROF_REC_TYPE_MAX; its file decoder skips them), so the
 * format stays 2.
 */
struct vprof_rec_sync {
    struct vprof_record_header h;
    uint64_t start;
    uint64_t end;
    uint32_t correlation_id;
    uint32_t type;          /* VPROF_SYNC_* */
    uint32_t context_id;
    uint32_t stream_id;     /* CUPTI streamId, VPROF_SYNC_NONE if none */
    uint32_t event_id;      /* CUPTI cudaEventId, VPROF_SYNC_NONE if none */
    uint32_t pad;
};

/* CPU_OP kinds: the PyTorch profiler category of the slice */
#define VPROF_CPU_OP_OPERATOR 1u /* cpu_op (old traces: Operator): an ATen operator or record_function */
#define VPROF_CPU_OP_PYTHON   2u /* python_function: a Python frame of the profiler's stack tracer */

/*
 * CPU_OP: one operator run on a host thread, from start to end (ns on the
 * source's clock, as the other records), named by a STRING. CPU ops nest like
 * NVTX ranges but are not NVTX: they are their own kind in every view. Only
 * the trace reader (PyTorch profiler traces) writes them, into capture files;
 * an agent never does, so the ring's format stays 2.
 */
struct vprof_rec_cpu_op {
    struct vprof_record_header h;
    uint64_t start;
    uint64_t end;
    uint32_t name_id;       /* STRING id */
    uint32_t tid;           /* the thread as the source numbers it (a Kineto tid, 32 bits) */
    uint32_t kind;          /* VPROF_CPU_OP_* */
    uint32_t pad;
};

/* The most bytes one ARGS object may take, in all its pieces. */
#define VPROF_ARGS_MAX (1024u * 1024u)

/*
 * ARGS: the fields of a source event that no other record holds (a Kineto
 * event's args beyond device, stream, correlation and kin; a name or pid the
 * records cannot carry), so that an export can give them back unchanged.
 * target is the record type of the event they belong to: that record comes
 * next in the process's records (after the last piece); target 0 means the
 * process itself (a trace's top-level fields). An object longer than one
 * record is cut into pieces that follow one another, the first flagged FIRST
 * and the last LAST (one piece: both); all of them <= VPROF_ARGS_MAX bytes.
 * The bytes are one value of vprof's compact JSON encoding (capture.ArgsCodec
 * in the front end): a tag byte, then a zigzag varint (integer), a length and
 * ASCII digits (other numbers), a length and UTF-8 (string), a count and the
 * values (array), or a count and pairs of a STRING id and a value (object).
 * Only the trace reader writes them.
 */
#define VPROF_ARGS_FIRST 1u
#define VPROF_ARGS_LAST  2u

struct vprof_rec_args {
    struct vprof_record_header h;
    uint16_t target;        /* VPROF_REC_* of the next record, or 0: the process */
    uint16_t flags;         /* VPROF_ARGS_FIRST, VPROF_ARGS_LAST */
    uint32_t len;           /* bytes of this piece, which follow */
    /* uint8_t bytes[len]; then zero padding to 8 bytes */
};

/*
 * Record sizes: the ring's wire format, which capture files keep. Each is a
 * multiple of VPROF_RECORD_ALIGN and ends with its last field, so a writer
 * that fills every field leaves no tail padding uninitialized in the ring.
 */
#define VPROF_RECORD_SIZE_(type, size, last) \
    _Static_assert(sizeof(struct type) == (size) && (size) % VPROF_RECORD_ALIGN == 0 && \
                   offsetof(struct type, last) + sizeof(((struct type *)0)->last) == (size), \
                   "struct " #type " is " #size " bytes and ends with " #last)
VPROF_RECORD_SIZE_(vprof_record_header, 8, type);
VPROF_RECORD_SIZE_(vprof_rec_string, 16, len);
VPROF_RECORD_SIZE_(vprof_rec_kernel_desc, 72, graph_node_id);
VPROF_RECORD_SIZE_(vprof_rec_kernel, 32, desc_id);
VPROF_RECORD_SIZE_(vprof_rec_memcpy, 56, pad);
VPROF_RECORD_SIZE_(vprof_rec_memset, 56, pad);
VPROF_RECORD_SIZE_(vprof_rec_marker, 40, pad);
VPROF_RECORD_SIZE_(vprof_rec_api, 40, tid);
VPROF_RECORD_SIZE_(vprof_rec_clock_sync, 40, boottime_ns);
VPROF_RECORD_SIZE_(vprof_rec_range, 184, rejected_bad_record);
VPROF_RECORD_SIZE_(vprof_rec_drops, 32, count);
VPROF_RECORD_SIZE_(vprof_rec_device, 104, uuid);
VPROF_RECORD_SIZE_(vprof_rec_sync, 48, pad);
VPROF_RECORD_SIZE_(vprof_rec_cpu_op, 40, pad);
VPROF_RECORD_SIZE_(vprof_rec_args, 16, len);
#undef VPROF_RECORD_SIZE_

#ifdef __cplusplus
}
#endif
#endif /* VPROF_RING_H */
