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

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VPROF_MAGIC            0x31474e4952465056ULL /* "VPFRING1" little endian */
#define VPROF_FORMAT_VERSION   1u
#define VPROF_CONTROL_SIZE     4096u
#define VPROF_CACHE_LINE       64u
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
    VPROF_CMD_NONE   = 0,
    VPROF_CMD_ARM    = 1, /* arm with cmd_range_mode, cmd_range_name, cmd_kinds ... */
    VPROF_CMD_DISARM = 2  /* end any open range (flush), disable, back to DORMANT */
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
    /* line 0: identity, written once by the agent before state leaves STARTING */
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
    uint8_t  pad0[8];

    /* line 1: command words, written by the front end, acked by the agent */
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
    uint8_t  pad1[16];

    /* line 2: heartbeat */
    uint64_t heartbeat_ns;         /* front end: CLOCK_MONOTONIC, at least every second */
    uint64_t heartbeat_timeout_ns; /* agent disarms when the heartbeat is older than this */
    uint8_t  pad2[48];

    /* lines 3..8: hot counters, one per line, written by the agent only */
    uint64_t records;              /* records published to the ring */
    uint8_t  pad3[56];
    uint64_t bytes;                /* bytes published, headers and padding included */
    uint8_t  pad4[56];
    uint64_t ring_drops;           /* records dropped because the ring was full */
    uint8_t  pad5[56];
    uint64_t ring_drops_kernels;   /* of which kernels */
    uint8_t  pad6[56];
    uint64_t cupti_drops;          /* cuptiActivityGetNumDroppedRecords, summed */
    uint8_t  pad7[56];
    uint64_t ranges;               /* capture ranges begun */
    uint8_t  pad8[56];

    /* line 9: ring positions; the consumer's head */
    uint64_t head;                 /* consumer: release-store after zeroing what it read */
    uint8_t  pad9[56];
    /* line 10: the producers' tail */
    uint64_t tail;                 /* producers: CAS to claim */
    uint8_t  pad10[56];

    /* strings: reason, range name, domain, command line */
    char     reason[VPROF_REASON_MAX];       /* NUL-terminated; why FAILED, or the last warning */
    char     cmd_range_name[VPROF_NAME_MAX]; /* NVTX range name for VPROF_RANGE_NVTX */
    char     cmd_range_domain[VPROF_NAME_MAX];/* NVTX domain, empty = any */
    char     cmdline[VPROF_CMDLINE_MAX];     /* /proc/self/cmdline, NULs replaced by spaces */

    uint8_t  reserved[VPROF_CONTROL_SIZE - 11 * VPROF_CACHE_LINE - VPROF_REASON_MAX
                      - 2 * VPROF_NAME_MAX - VPROF_CMDLINE_MAX];
};

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
    VPROF_REC_DROPS       = 11, /* CUPTI drops reported for a buffer, or zero-timestamp kernels */
    VPROF_REC_TYPE_MAX    = 11
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

/* CLOCK_SYNC: the same instant read on three clocks. */
struct vprof_rec_clock_sync {
    struct vprof_record_header h;
    uint64_t cupti_ns;      /* cuptiGetTimestamp */
    uint64_t realtime_ns;   /* CLOCK_REALTIME */
    uint64_t monotonic_ns;  /* CLOCK_MONOTONIC */
};

#define VPROF_RANGE_BEGIN 1u
#define VPROF_RANGE_END   2u

/* Why a range began or ended (vprof_rec_range.source). */
enum vprof_range_source {
    VPROF_SOURCE_COMMAND   = 1, /* ARM with VPROF_RANGE_NONE, or DISARM */
    VPROF_SOURCE_PROFILER  = 2, /* cudaProfilerStart/Stop or cuProfilerStart/Stop */
    VPROF_SOURCE_NVTX      = 3, /* the named NVTX range was pushed or popped */
    VPROF_SOURCE_HEARTBEAT = 4, /* the front end went silent; the agent disarmed */
    VPROF_SOURCE_EXIT      = 5  /* the process is exiting */
};

struct vprof_rec_range {
    struct vprof_record_header h;
    uint32_t edge;          /* VPROF_RANGE_BEGIN or VPROF_RANGE_END */
    uint32_t source;        /* enum vprof_range_source */
    uint32_t index;         /* 1, 2, ... within this arming */
    uint32_t capture_id;    /* cmd_capture_id of the arming */
    uint64_t cupti_ns;
    uint64_t realtime_ns;
    /* on END: what this range lost, so the file accounts for itself */
    uint64_t ring_drops;    /* records dropped by a full ring during the range */
    uint64_t ring_drops_kernels;
    uint64_t cupti_drops;
};

#define VPROF_DROPS_CUPTI       1u /* cuptiActivityGetNumDroppedRecords */
#define VPROF_DROPS_ZERO_TS     2u /* kernels whose start = end = 0 */

struct vprof_rec_drops {
    struct vprof_record_header h;
    uint32_t reason;        /* VPROF_DROPS_* */
    uint32_t context_id;
    uint32_t stream_id;
    uint32_t pad;
    uint64_t count;
};

#ifdef __cplusplus
}
#endif
#endif /* VPROF_RING_H */
