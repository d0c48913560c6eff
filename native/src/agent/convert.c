/* convert.c: see convert.h. */
#include "agent/convert.h"

#include <stddef.h>
#include <string.h>

#include <cupti.h>

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
SAME_IN_KERNEL9(graphId);
_Static_assert(K_OFF(start) == 16 && K_OFF(end) == 24 && K_OFF(deviceId) == 40 &&
               K_OFF(contextId) == 44 && K_OFF(streamId) == 48 && K_OFF(gridX) == 52 &&
               K_OFF(blockX) == 64 && K_OFF(correlationId) == 92 && K_OFF(name) == 104 &&
               K_OFF(graphNodeId) == 144 && K_OFF(graphId) == 156,
               "the kernel prefix vprof relies on moved");
/* Memcpy6 only appends to Memcpy5. */
_Static_assert(offsetof(CUpti_ActivityMemcpy6, correlationId) ==
               offsetof(CUpti_ActivityMemcpy5, correlationId), "Memcpy5/6 prefix differs");

#define READ(type, rec, off) ({ type v_; memcpy(&v_, (const uint8_t *)(rec) + (off), sizeof v_); v_; })

/* A record not even attempted because the STRING or KERNEL_DESC it needs was refused. */
static void count_drop(struct vprof_capture *c)
{
    __atomic_fetch_add(&c->ring->control->ring_drops, 1u, __ATOMIC_RELAXED);
}

static void count_kernel_drop(struct vprof_capture *c)
{
    count_drop(c);
    __atomic_fetch_add(&c->ring->control->ring_drops_kernels, 1u, __ATOMIC_RELAXED);
}

uint32_t vprof_convert_string(struct vprof_capture *c, const char *name)
{
    if (name == NULL || name[0] == '\0')
        return 0;
    struct vprof_string_slot scratch;
    struct vprof_string_slot *s = vprof_intern_string(&c->intern, name, &scratch);
    if (s->sent)
        return s->id;
    const uint32_t len = (uint32_t)strnlen(name, VPROF_STRING_MAX);
    const uint32_t total = (uint32_t)sizeof(struct vprof_rec_string) + len;
    struct vprof_rec_string *r = vprof_ring_claim(c->ring, VPROF_REC_STRING, total, VPROF_RING_DATA);
    if (r == NULL)
        return 0;
    r->id = s->id;
    r->len = len;
    memcpy(r + 1, name, len);
    /* The bytes up to the 8-byte boundary are zero: the consumer zeroed them. */
    vprof_ring_commit(c->ring, r);
    s->sent = 1;
    return s->id;
}

int vprof_convert_kernel(struct vprof_capture *c, const void *rec)
{
    const uint64_t start = READ(uint64_t, rec, K_OFF(start));
    const uint64_t end = READ(uint64_t, rec, K_OFF(end));
    if (start == 0u && end == 0u) {
        c->zero_ts_kernels++;
        return -1;
    }
    struct vprof_desc_key key;
    key.name = READ(const char *, rec, K_OFF(name));
    key.device_id = READ(uint32_t, rec, K_OFF(deviceId));
    key.context_id = READ(uint32_t, rec, K_OFF(contextId));
    key.stream_id = READ(uint32_t, rec, K_OFF(streamId));
    key.graph_id = READ(uint32_t, rec, K_OFF(graphId));
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

    struct vprof_desc_slot scratch;
    struct vprof_desc_slot *d = vprof_intern_desc(&c->intern, &key, &scratch);
    if (__builtin_expect(!d->sent, 0)) {
        const uint32_t name_id = vprof_convert_string(c, key.name);
        if (name_id == 0u && key.name != NULL && key.name[0] != '\0') {
            count_kernel_drop(c); /* its name could not be sent, so neither can it */
            return 0;
        }
        struct vprof_rec_kernel_desc *r =
            vprof_ring_claim(c->ring, VPROF_REC_KERNEL_DESC, sizeof *r, VPROF_RING_DATA);
        if (r == NULL) {
            count_kernel_drop(c);
            return 0;
        }
        r->id = d->id;
        r->name_id = name_id;
        r->device_id = key.device_id;
        r->context_id = key.context_id;
        r->stream_id = key.stream_id;
        r->graph_id = key.graph_id;
        r->grid_x = key.grid_x;
        r->grid_y = key.grid_y;
        r->grid_z = key.grid_z;
        r->block_x = key.block_x;
        r->block_y = key.block_y;
        r->block_z = key.block_z;
        r->shared_memory = key.shared_memory;
        r->registers = key.registers;
        vprof_ring_commit(c->ring, r);
        d->sent = 1;
    }
    struct vprof_rec_kernel *k = vprof_ring_claim(c->ring, VPROF_REC_KERNEL, sizeof *k, VPROF_RING_DATA);
    if (k == NULL)
        return 0; /* counted by the ring, as a kernel */
    k->start = start;
    k->end = end;
    k->correlation_id = READ(uint32_t, rec, K_OFF(correlationId));
    k->desc_id = d->id;
    vprof_ring_commit(c->ring, k);
    return 1;
}

static void convert_memcpy(struct vprof_capture *c, const CUpti_ActivityMemcpy5 *m)
{
    struct vprof_rec_memcpy *r = vprof_ring_claim(c->ring, VPROF_REC_MEMCPY, sizeof *r, VPROF_RING_DATA);
    if (r == NULL)
        return;
    r->start = m->start;
    r->end = m->end;
    r->bytes = m->bytes;
    r->correlation_id = m->correlationId;
    r->device_id = m->deviceId;
    r->context_id = m->contextId;
    r->stream_id = m->streamId;
    r->copy_kind = m->copyKind;
    r->src_kind = m->srcKind;
    r->dst_kind = m->dstKind;
    r->flags = (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) ? 1u : 0u;
    r->pad = 0;
    vprof_ring_commit(c->ring, r);
}

static void convert_memset(struct vprof_capture *c, const CUpti_ActivityMemset4 *m)
{
    struct vprof_rec_memset *r = vprof_ring_claim(c->ring, VPROF_REC_MEMSET, sizeof *r, VPROF_RING_DATA);
    if (r == NULL)
        return;
    r->start = m->start;
    r->end = m->end;
    r->bytes = m->bytes;
    r->correlation_id = m->correlationId;
    r->device_id = m->deviceId;
    r->context_id = m->contextId;
    r->stream_id = m->streamId;
    r->value = m->value;
    r->pad = 0;
    vprof_ring_commit(c->ring, r);
}

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
            return;
        }
    }
    domain_id = vprof_convert_string(c, m->domain);
    if (domain_id == 0u && m->domain != NULL && m->domain[0] != '\0') {
        count_drop(c);
        return;
    }
    struct vprof_rec_marker *r = vprof_ring_claim(c->ring, VPROF_REC_MARKER, sizeof *r, VPROF_RING_DATA);
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
    struct vprof_rec_api *r = vprof_ring_claim(c->ring, VPROF_REC_API, sizeof *r, VPROF_RING_DATA);
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
    default:
        break;
    }
}
