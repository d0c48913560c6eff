/* convert.c: see convert.h. */
#include "agent/convert.h"

#include <stddef.h>
#include <string.h>

#include "cupti_abi.h" /* CUPTI as vprof declares it (no CUDA headers needed) */

/*
 * Kernel records are read through the prefix that Kernel9 (CUDA 12.x) and
 * Kernel10 (CUDA 13.0) share; the agent refuses CUPTI versions older than
 * 12.0 (agent/cupti_api.c), so the layout below holds for every record it sees.
 */
#define K_OFF(f) offsetof(CUpti_ActivityKernel10, f)
#define SAME_IN_KERNEL9(f) \
    _Static_assert(offsetof(CUpti_ActivityKernel9, f) == K_OFF(f), "Kernel9/10 differ at " #f)
SAME_IN_KERNEL9(registersPerThread);
SAME_IN_KERNEL9(start);
SAME_IN_KERNEL9(end);
SAME_IN_KERNEL9(deviceId);
SAME_IN_KERNEL9(contextId);
SAME_IN_KERNEL9(streamId);
SAME_IN_KERNEL9(gridX);
SAME_IN_KERNEL9(gridY);
SAME_IN_KERNEL9(gridZ);
SAME_IN_KERNEL9(blockX);
SAME_IN_KERNEL9(blockY);
SAME_IN_KERNEL9(blockZ);
SAME_IN_KERNEL9(staticSharedMemory);
SAME_IN_KERNEL9(dynamicSharedMemory);
SAME_IN_KERNEL9(correlationId);
SAME_IN_KERNEL9(name);
SAME_IN_KERNEL9(graphNodeId);
SAME_IN_KERNEL9(graphId);
_Static_assert(K_OFF(start) == 16 && K_OFF(end) == 24 && K_OFF(deviceId) == 40 &&
               K_OFF(contextId) == 44 && K_OFF(streamId) == 48 && K_OFF(gridX) == 52 &&
               K_OFF(blockX) == 64 && K_OFF(correlationId) == 92 && K_OFF(name) == 104 &&
               K_OFF(graphNodeId) == 144 && K_OFF(graphId) == 156,
               "the kernel prefix vprof relies on moved");
/* Synchronization2 (CUDA 13.0) only appends to Synchronization (CUDA 12): the agent reads the prefix. */
#define SAME_IN_SYNC1(f) \
    _Static_assert(offsetof(CUpti_ActivitySynchronization, f) == offsetof(CUpti_ActivitySynchronization2, f), \
                   "Synchronization/2 differ at " #f)
SAME_IN_SYNC1(type);
SAME_IN_SYNC1(start);
SAME_IN_SYNC1(end);
SAME_IN_SYNC1(correlationId);
SAME_IN_SYNC1(contextId);
SAME_IN_SYNC1(streamId);
SAME_IN_SYNC1(cudaEventId);
/* Memcpy6 only appends to Memcpy5. */
_Static_assert(offsetof(CUpti_ActivityMemcpy6, correlationId) ==
               offsetof(CUpti_ActivityMemcpy5, correlationId), "Memcpy5/6 prefix differs");

#define READ(type, rec, off) ({ type v_; memcpy(&v_, (const uint8_t *)(rec) + (off), sizeof v_); v_; })

/*
 * A record not even attempted because the STRING or KERNEL_DESC it needs was
 * refused: the process counters (ring.c counts the claims it refuses itself).
 */
static void count_drop(struct vprof_capture *c)
{
    __atomic_fetch_add(&c->ring->control->ring_drops, 1u, __ATOMIC_RELAXED);
}

static void count_kernel_drop(struct vprof_capture *c)
{
    count_drop(c);
    __atomic_fetch_add(&c->ring->control->ring_drops_kernels, 1u, __ATOMIC_RELAXED);
}

/*
 * A record the full ring refused, charged where it belongs (see convert.h):
 * the previous range's to the open LATE run, the range's to the buffer's
 * tallies; a record that arrived with no range open to no range.
 */
static void charge_drop(struct vprof_capture *c, int late, int kernel)
{
    if (late) {
        c->late_ring_dropped++;
        c->late_ring_dropped_kernels += (uint64_t)kernel;
    } else if (c->window.state != VPROF_WINDOW_NONE) {
        c->ring_dropped++;
        c->ring_dropped_kernels += (uint64_t)kernel;
    }
}

void vprof_write_drops(struct vprof_ring *ring, uint32_t reason, uint32_t record_type, uint32_t stream_id,
                       uint64_t count)
{
    struct vprof_rec_drops r;
    memset(&r, 0, sizeof r);
    r.reason = reason;
    r.record_type = record_type;
    r.stream_id = stream_id;
    r.count = count;
    vprof_ring_write(ring, VPROF_REC_DROPS, &r, sizeof r, VPROF_RING_CONTROL);
}

void vprof_convert_begin_buffer(struct vprof_capture *c, const struct vprof_window_snap *w,
                                uint64_t now_ns, uint32_t last_graph_corr)
{
    c->window = *w;
    c->now_ns = now_ns;
    c->last_graph_corr = last_graph_corr;
    c->kept_kernels = c->kept_graph_kernels = c->kept_records = c->last_graph_seen = 0;
    c->arrived_plain_kernels = c->arrived_graph_kernels = 0;
    c->kept_late = 0;
    c->ring_dropped = c->ring_dropped_kernels = 0;
    memset(c->rejected, 0, sizeof c->rejected);
    memset(c->late_rejected, 0, sizeof c->late_rejected);
    c->intern.generation++; /* names are compared again once in this buffer */
}

/*
 * A LATE_BEGIN or LATE_END edge naming the range that was cut short (a control
 * record); a LATE_END carries the ring drops of the run it closes.
 */
static void late_edge(struct vprof_capture *c, int begin)
{
    struct vprof_rec_range r;
    memset(&r, 0, sizeof r);
    r.edge = begin ? VPROF_RANGE_LATE_BEGIN : VPROF_RANGE_LATE_END;
    r.index = c->window.prev_index;
    r.capture_id = c->window.capture_id;
    if (!begin) {
        r.ring_drops = c->late_ring_dropped;
        r.ring_drops_kernels = c->late_ring_dropped_kernels;
    }
    vprof_ring_write(c->ring, VPROF_REC_RANGE, &r, sizeof r, VPROF_RING_CONTROL);
    c->late_run = begin;
    c->late_ring_dropped = c->late_ring_dropped_kernels = 0;
}

/* Records of the current range go outside a LATE run, the previous range's inside one. */
static inline void settle(struct vprof_capture *c, int late)
{
    if (__builtin_expect(late != c->late_run, 0))
        late_edge(c, late);
}

/*
 * Ring space for a record of `type`, or NULL when the ring is full: that drop is charged where the
 * record belongs (charge_drop), so each converter only returns.
 */
static inline void *claim(struct vprof_capture *c, uint32_t type, uint32_t length, int late, int kernel)
{
    void *r = vprof_ring_claim(c->ring, type, length, VPROF_RING_DATA);
    if (r == NULL)
        charge_drop(c, late, kernel);
    return r;
}

/* A record other than a kernel went into the ring: counted for the range it belongs to. */
static inline void count_kept(struct vprof_capture *c, int late)
{
    if (late)
        c->kept_late++;
    else
        c->kept_records++;
}

static const uint32_t TALLY_TYPE[VPROF_TALLY_KINDS] = { VPROF_REC_KERNEL, VPROF_REC_MEMCPY, VPROF_REC_MEMSET, 0,
                                                          VPROF_REC_API, VPROF_REC_SYNC };

static int any_tally(const uint64_t t[VPROF_TALLY_KINDS][VPROF_DROPS_REASON_MAX + 1])
{
    for (uint32_t k = 0; k < VPROF_TALLY_KINDS; k++)
        for (uint32_t why = 1; why <= VPROF_DROPS_REASON_MAX; why++)
            if (t[k][why] != 0u)
                return 1;
    return 0;
}

static void write_tallies(struct vprof_capture *c, const uint64_t t[VPROF_TALLY_KINDS][VPROF_DROPS_REASON_MAX + 1])
{
    for (uint32_t k = 0; k < VPROF_TALLY_KINDS; k++)
        for (uint32_t why = 1; why <= VPROF_DROPS_REASON_MAX; why++)
            if (t[k][why] != 0u)
                vprof_write_drops(c->ring, why, TALLY_TYPE[k], 0, t[k][why]);
}

void vprof_convert_end_buffer(struct vprof_capture *c)
{
    /* The previous range's rejections inside a LATE run naming it, so they are counted there. */
    if (any_tally(c->late_rejected)) {
        settle(c, 1);
        write_tallies(c, c->late_rejected);
    }
    settle(c, 0);
    write_tallies(c, c->rejected);
}

/*
 * Why a kernel, memcpy or memset does not go on the timeline, or 0 if it does
 * (*late: it is the previous range's, for a LATE run). See convert.h.
 */
static inline uint32_t judge(const struct vprof_capture *c, uint32_t corr, uint64_t start, uint64_t end, int *late)
{
    const struct vprof_window_snap *w = &c->window;
    *late = 0;
    if (w->state == VPROF_WINDOW_NONE)
        return VPROF_DROPS_CLIPPED;
    const int by_id = corr != 0u && !w->ts_membership;
    if (by_id) {
        if (corr > w->prev_begin_corr && corr < w->prev_end_corr) {
            *late = 1;
            return start == 0u || end == 0u || end < start
                       ? (start == 0u ? (end == 0u ? VPROF_DROPS_ZERO_TS : VPROF_DROPS_START_ZERO)
                          : end == 0u ? VPROF_DROPS_END_ZERO : VPROF_DROPS_END_BEFORE_START)
                       : 0u;
        }
        if (corr <= w->begin_corr || (w->end_corr != 0u && corr >= w->end_corr))
            return VPROF_DROPS_CLIPPED;
    }
    if (start == 0u || end == 0u || end < start)
        return start == 0u ? (end == 0u ? VPROF_DROPS_ZERO_TS : VPROF_DROPS_START_ZERO)
             : end == 0u   ? VPROF_DROPS_END_ZERO
                           : VPROF_DROPS_END_BEFORE_START;
    const int early = start + VPROF_TS_SLACK_NS < w->begin_ns;
    /* Without ids on both edges, time decides: launched before the begin, or started after the end. */
    if (!by_id || w->begin_corr == 0u) {
        if (early)
            return VPROF_DROPS_CLIPPED;
    }
    if ((!by_id || w->end_corr == 0u) && w->state == VPROF_WINDOW_STOPPING && start > w->end_ns)
        return VPROF_DROPS_CLIPPED;
    if (early || end > c->now_ns + VPROF_TS_FUTURE_NS)
        return VPROF_DROPS_OUTSIDE_RANGE;
    return 0;
}

/* With an unverified record layout: the fields vprof reads must look like what they claim. */
static uint32_t sane(const struct vprof_capture *c, uint32_t device_id, const char *name, int needs_name)
{
    if (device_id >= c->window.max_device || (needs_name && name == NULL))
        return VPROF_DROPS_BAD_RECORD;
    return 0;
}

/*
 * Whether a record of tally kind `tally` that judge() (and sane()) found `why` goes on: a rejected
 * one is counted under its kind, in the previous range's tally when it is late; a kept one settles
 * the LATE run it goes into.
 */
static inline int admit(struct vprof_capture *c, int tally, uint32_t why, int late)
{
    if (why != 0u) {
        (late ? c->late_rejected : c->rejected)[tally][why]++;
        return 0;
    }
    settle(c, late);
    return 1;
}

static struct vprof_string_slot *string_slot(struct vprof_capture *c, const char *name,
                                             struct vprof_string_slot *scratch)
{
    uint32_t len = 0;
    (void)vprof_intern_hash(name, VPROF_STRING_MAX, &len);
    return vprof_intern_string(&c->intern, name, len, scratch);
}

static uint32_t send_string(struct vprof_capture *c, struct vprof_string_slot *s, const char *name)
{
    if (s->sent)
        return s->id;
    const uint32_t total = (uint32_t)sizeof(struct vprof_rec_string) + s->len;
    struct vprof_rec_string *r = vprof_ring_claim(c->ring, VPROF_REC_STRING, total, VPROF_RING_DATA);
    if (r == NULL)
        return 0;
    r->id = s->id;
    r->len = s->len;
    memcpy(r + 1, name, s->len);
    /* The bytes up to the 8-byte boundary are zero: the consumer zeroed them. */
    vprof_ring_commit(c->ring, r);
    s->sent = 1;
    return s->id;
}

uint32_t vprof_convert_string(struct vprof_capture *c, const char *name)
{
    if (name == NULL || name[0] == '\0')
        return 0;
    struct vprof_string_slot scratch;
    return send_string(c, string_slot(c, name, &scratch), name);
}

/* Whether the desc's name still reads as the copy it was sent with (a module reload may reuse the pointer). */
static int same_name(const struct vprof_capture *c, const struct vprof_desc_slot *d, const char *name)
{
    if (d->name_len == VPROF_NAME_UNSTORED || name == NULL)
        return 1; /* nothing to compare with: the pointer decides */
    const char *copy = c->intern.arena + d->name_off;
    /* strncmp stops at name's NUL; name[len] is read only if name has len bytes before it. */
    return strncmp(name, copy, d->name_len) == 0 && name[d->name_len] == '\0';
}

/* Sends the desc's STRING and KERNEL_DESC; 0 if the ring refused one of them. */
static int send_desc(struct vprof_capture *c, struct vprof_desc_slot *d)
{
    uint32_t name_id = 0;
    const char *name = d->key.name;
    if (name != NULL && name[0] != '\0') {
        struct vprof_string_slot scratch;
        struct vprof_string_slot *s = string_slot(c, name, &scratch);
        name_id = send_string(c, s, name);
        if (name_id == 0u)
            return 0;
        const char *copy = vprof_intern_text(&c->intern, s);
        d->name_off = copy != NULL ? (uint32_t)(copy - c->intern.arena) : 0u;
        d->name_len = copy != NULL ? s->len : VPROF_NAME_UNSTORED;
    }
    struct vprof_rec_kernel_desc *r =
        vprof_ring_claim(c->ring, VPROF_REC_KERNEL_DESC, sizeof *r, VPROF_RING_DATA);
    if (r == NULL)
        return 0;
    const struct vprof_desc_key *key = &d->key;
    r->id = d->id;
    r->name_id = name_id;
    r->device_id = key->device_id;
    r->context_id = key->context_id;
    r->stream_id = key->stream_id;
    r->graph_id = key->graph_id;
    r->grid_x = key->grid_x;
    r->grid_y = key->grid_y;
    r->grid_z = key->grid_z;
    r->block_x = key->block_x;
    r->block_y = key->block_y;
    r->block_z = key->block_z;
    r->shared_memory = key->shared_memory;
    r->registers = key->registers;
    r->graph_node_id = key->graph_node_id;
    vprof_ring_commit(c->ring, r);
    d->name_id = name_id;
    d->sent = 1;
    return 1;
}

int vprof_convert_kernel(struct vprof_capture *c, const void *rec)
{
    const uint64_t start = READ(uint64_t, rec, K_OFF(start));
    const uint64_t end = READ(uint64_t, rec, K_OFF(end));
    const uint32_t corr = READ(uint32_t, rec, K_OFF(correlationId));
    struct vprof_desc_key key;
    key.name = READ(const char *, rec, K_OFF(name));
    key.device_id = READ(uint32_t, rec, K_OFF(deviceId));
    key.graph_id = READ(uint32_t, rec, K_OFF(graphId));
    int late;
    uint32_t why = judge(c, corr, start, end, &late);
    if (__builtin_expect(c->window.check_records, 0) && why == 0u)
        why = sane(c, key.device_id, key.name, 1);
    if (why != VPROF_DROPS_CLIPPED && !late) {
        if (key.graph_id != 0u)
            c->arrived_graph_kernels++;
        else
            c->arrived_plain_kernels++;
    }
    if (why != 0u) {
        (late ? c->late_rejected : c->rejected)[VPROF_TALLY_KERNEL][why]++;
        return -1;
    }
    key.graph_node_id = READ(uint64_t, rec, K_OFF(graphNodeId));
    key.context_id = READ(uint32_t, rec, K_OFF(contextId));
    key.stream_id = READ(uint32_t, rec, K_OFF(streamId));
    key.grid_x = (uint32_t)READ(int32_t, rec, K_OFF(gridX));
    key.grid_y = (uint32_t)READ(int32_t, rec, K_OFF(gridY));
    key.grid_z = (uint32_t)READ(int32_t, rec, K_OFF(gridZ));
    key.block_x = (uint32_t)READ(int32_t, rec, K_OFF(blockX));
    key.block_y = (uint32_t)READ(int32_t, rec, K_OFF(blockY));
    key.block_z = (uint32_t)READ(int32_t, rec, K_OFF(blockZ));
    key.shared_memory = (uint32_t)READ(int32_t, rec, K_OFF(staticSharedMemory)) +
                        READ(uint32_t, rec, K_OFF(dynamicSharedMemory));
    key.registers = READ(uint16_t, rec, K_OFF(registersPerThread));
    key.zero = 0;

    settle(c, late); /* before its STRING and KERNEL_DESC: a drop of them is charged to the run too */
    struct vprof_desc_slot scratch;
    struct vprof_desc_slot *d = vprof_intern_desc(&c->intern, &key, &scratch);
    if (__builtin_expect(d->checked != c->intern.generation, 0)) {
        if (d->sent && !same_name(c, d, key.name))
            vprof_intern_desc_renew(&c->intern, d); /* another kernel now lives at that address */
        d->checked = c->intern.generation;
    }
    if (__builtin_expect(!d->sent, 0) && !send_desc(c, d)) {
        count_kernel_drop(c); /* its name or shape could not be sent, so neither can it */
        charge_drop(c, late, 1);
        return 0;
    }
    struct vprof_rec_kernel *k = claim(c, VPROF_REC_KERNEL, sizeof *k, late, 1);
    if (k == NULL)
        return 0; /* the process counters have it from the ring */
    k->start = start;
    k->end = end;
    k->correlation_id = corr;
    k->desc_id = d->id;
    vprof_ring_commit(c->ring, k);
    if (__builtin_expect(late, 0)) {
        c->kept_late++;
        return 1;
    }
    c->kept_kernels++;
    if (key.graph_id != 0u) {
        c->kept_graph_kernels++;
        c->last_graph_seen += corr == c->last_graph_corr;
    }
    return 1;
}

/* What a memcpy and a memset record go through before their own fields: the range judgement, the
 * device check where the window asks for it, the tally and the claim of ring space. NULL: not kept
 * (counted already). The two ring records share their leading fields, so the caller fills those
 * with COPY_FIELDS. */
static inline void *claim_copy(struct vprof_capture *c, int tally, uint32_t type, uint32_t length, uint32_t corr,
                               uint64_t start, uint64_t end, uint32_t device_id, int *late)
{
    uint32_t why = judge(c, corr, start, end, late);
    if (__builtin_expect(c->window.check_records, 0) && why == 0u)
        why = sane(c, device_id, NULL, 0);
    if (!admit(c, tally, why, *late))
        return NULL;
    return claim(c, type, length, *late, 0);
}

#define COPY_FIELDS(r, m)                  \
    do {                                   \
        (r)->start = (m)->start;           \
        (r)->end = (m)->end;               \
        (r)->bytes = (m)->bytes;           \
        (r)->correlation_id = (m)->correlationId; \
        (r)->device_id = (m)->deviceId;    \
        (r)->context_id = (m)->contextId;  \
        (r)->stream_id = (m)->streamId;    \
        (r)->pad = 0;                      \
    } while (0)

static void convert_memcpy(struct vprof_capture *c, const CUpti_ActivityMemcpy5 *m)
{
    int late;
    struct vprof_rec_memcpy *r = claim_copy(c, VPROF_TALLY_MEMCPY, VPROF_REC_MEMCPY, sizeof *r, m->correlationId,
                                            m->start, m->end, m->deviceId, &late);
    if (r == NULL)
        return;
    COPY_FIELDS(r, m);
    r->copy_kind = m->copyKind;
    r->src_kind = m->srcKind;
    r->dst_kind = m->dstKind;
    r->flags = (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) ? 1u : 0u;
    vprof_ring_commit(c->ring, r);
    count_kept(c, late);
}

static void convert_memset(struct vprof_capture *c, const CUpti_ActivityMemset4 *m)
{
    int late;
    struct vprof_rec_memset *r = claim_copy(c, VPROF_TALLY_MEMSET, VPROF_REC_MEMSET, sizeof *r, m->correlationId,
                                            m->start, m->end, m->deviceId, &late);
    if (r == NULL)
        return;
    COPY_FIELDS(r, m);
    r->value = m->value;
    vprof_ring_commit(c->ring, r);
    count_kept(c, late);
}

#undef COPY_FIELDS

static void convert_marker(struct vprof_capture *c, const CUpti_ActivityMarker2 *m)
{
    uint32_t flags = 0;
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS)
        flags |= VPROF_MARKER_INSTANT;
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START)
        flags |= VPROF_MARKER_START;
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
        flags |= VPROF_MARKER_END;
    /* An END carries no name; a name that could not be sent drops the marker. */
    uint32_t name_id = 0, domain_id = 0;
    if (!(flags & VPROF_MARKER_END)) {
        name_id = vprof_convert_string(c, m->name);
        if (name_id == 0u && m->name != NULL && m->name[0] != '\0') {
            count_drop(c);
            charge_drop(c, 0, 0);
            return;
        }
    }
    domain_id = vprof_convert_string(c, m->domain);
    if (domain_id == 0u && m->domain != NULL && m->domain[0] != '\0') {
        count_drop(c);
        charge_drop(c, 0, 0);
        return;
    }
    settle(c, 0);
    struct vprof_rec_marker *r = claim(c, VPROF_REC_MARKER, sizeof *r, 0, 0);
    if (r == NULL)
        return;
    r->timestamp = m->timestamp;
    r->id = m->id;
    r->flags = flags;
    r->name_id = name_id;
    r->domain_id = domain_id;
    r->tid = m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? m->objectId.pt.threadId : 0u;
    r->pad = 0;
    vprof_ring_commit(c->ring, r);
}

static void convert_api(struct vprof_capture *c, const CUpti_ActivityAPI *a, uint32_t domain)
{
    /*
     * A call belongs where the work it launched does: the API kinds stay on through the drain
     * after a stop, and a call made then is clipped and counted as its kernels are. Only
     * membership is judged; a call's CPU timestamps are not checked as GPU ones are.
     */
    int late;
    if (judge(c, a->correlationId, a->start, a->end, &late) == VPROF_DROPS_CLIPPED) {
        c->rejected[VPROF_TALLY_API][VPROF_DROPS_CLIPPED]++;
        return;
    }
    settle(c, late);
    struct vprof_rec_api *r = claim(c, VPROF_REC_API, sizeof *r, late, 0);
    if (r == NULL)
        return;
    r->start = a->start;
    r->end = a->end;
    r->correlation_id = a->correlationId;
    r->cbid = a->cbid;
    r->domain = domain;
    r->tid = a->threadId;
    vprof_ring_commit(c->ring, r);
}

/*
 * A host wait on the GPU (cudaStreamSynchronize and kin; Synchronization or Synchronization2, the
 * shared prefix). Judged as a memcpy is: by its call's correlation id, then its (host) times.
 */
static void convert_sync(struct vprof_capture *c, const CUpti_ActivitySynchronization *m)
{
    int late;
    const uint32_t why = judge(c, m->correlationId, m->start, m->end, &late);
    if (!admit(c, VPROF_TALLY_SYNC, why, late))
        return;
    struct vprof_rec_sync *r = claim(c, VPROF_REC_SYNC, sizeof *r, late, 0);
    if (r == NULL)
        return;
    r->start = m->start;
    r->end = m->end;
    r->correlation_id = m->correlationId;
    r->type = (uint32_t)m->type;
    r->context_id = m->contextId;
    r->stream_id = m->streamId;   /* CUPTI_SYNCHRONIZATION_INVALID_VALUE is VPROF_SYNC_NONE */
    r->event_id = m->cudaEventId;
    r->pad = 0;
    vprof_ring_commit(c->ring, r);
    count_kept(c, late);
}
_Static_assert(CUPTI_SYNCHRONIZATION_INVALID_VALUE == VPROF_SYNC_NONE, "the ring keeps CUPTI's 'no stream/event'");
_Static_assert(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE == VPROF_SYNC_STREAM_SYNCHRONIZE &&
               CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE == VPROF_SYNC_CONTEXT_SYNCHRONIZE &&
               CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE == VPROF_SYNC_EVENT_SYNCHRONIZE &&
               CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT == VPROF_SYNC_STREAM_WAIT_EVENT,
               "VPROF_SYNC_* are CUPTI's synchronization types");

/* A GPU's properties, once per device and arming (CUPTI sends one record per device it knows). */
static void convert_device(struct vprof_capture *c, const CUpti_ActivityDevice5 *d)
{
    const uint64_t bit = d->id < 64u ? 1ull << d->id : 0u;
    if (bit != 0u && (c->devices_sent & bit))
        return;
    if (d->numMultiprocessors == 0u || d->numMultiprocessors > 1000000u || d->computeCapabilityMajor == 0u ||
        d->computeCapabilityMajor > 100u) {
        c->rejected[VPROF_TALLY_OTHER][VPROF_DROPS_BAD_RECORD]++; /* not a device record we can read */
        return;
    }
    const uint32_t name_id = vprof_convert_string(c, d->name);
    if (name_id == 0u && d->name != NULL && d->name[0] != '\0') {
        count_drop(c);
        return;
    }
    struct vprof_rec_device *r = vprof_ring_claim(c->ring, VPROF_REC_DEVICE, sizeof *r, VPROF_RING_DATA);
    if (r == NULL)
        return;
    r->id = d->id;
    r->name_id = name_id;
    r->global_memory_bytes = d->globalMemorySize;
    r->global_memory_bandwidth = d->globalMemoryBandwidth;
    r->sm_count = d->numMultiprocessors;
    r->compute_major = d->computeCapabilityMajor;
    r->compute_minor = d->computeCapabilityMinor;
    r->core_clock_khz = d->coreClockRate;
    r->l2_cache_bytes = d->l2CacheSize;
    r->warp_size = d->numThreadsPerWarp;
    r->max_threads_per_block = d->maxThreadsPerBlock;
    r->max_warps_per_sm = d->maxWarpsPerMultiprocessor;
    r->max_blocks_per_sm = d->maxBlocksPerMultiprocessor;
    r->max_shared_memory_per_sm = d->maxSharedMemoryPerMultiprocessor;
    r->max_shared_memory_per_block = d->maxSharedMemoryPerBlock;
    r->max_registers_per_sm = d->maxRegistersPerMultiprocessor;
    r->max_registers_per_block = d->maxRegistersPerBlock;
    r->flags = (d->eccEnabled ? VPROF_DEVICE_ECC : 0u) | (d->isMigEnabled ? VPROF_DEVICE_MIG : 0u);
    memcpy(r->uuid, &d->uuid, sizeof r->uuid);
    vprof_ring_commit(c->ring, r);
    c->devices_sent |= bit;
}

void vprof_convert_activity(struct vprof_capture *c, const void *rec)
{
    switch (((const CUpti_Activity *)rec)->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
        vprof_convert_kernel(c, rec);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        convert_memcpy(c, rec);
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        convert_memset(c, rec);
        break;
    case CUPTI_ACTIVITY_KIND_MARKER:
        convert_marker(c, rec);
        break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
        convert_api(c, rec, VPROF_API_RUNTIME);
        break;
    case CUPTI_ACTIVITY_KIND_DRIVER:
        convert_api(c, rec, VPROF_API_DRIVER);
        break;
    case CUPTI_ACTIVITY_KIND_DEVICE:
        convert_device(c, rec);
        break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        convert_sync(c, rec);
        break;
    default:
        break;
    }
}
