/*
 * cuptisim_api.c: the callback half of the CUPTI test double: version, result
 * strings, timestamps (and a client's timestamp callback), the single
 * subscriber and its enabled (domain, cbid) table, thread id type, finalize.
 *
 * Callbacks run on the thread that makes the API call, as in CUPTI. The table
 * is read lock-free on every simulated API call; subscribe/unsubscribe take a
 * mutex that no callback path takes.
 */
#include "sim/cuptisim_internal.h"

#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct CUpti_Subscriber_st {
    CUpti_CallbackFunc callback;
    void *userdata;
};

static pthread_mutex_t subscribe_mu = PTHREAD_MUTEX_INITIALIZER;
static struct CUpti_Subscriber_st the_subscriber;
/* Non-NULL while subscribed; callback paths load it with acquire. */
static _Atomic(struct CUpti_Subscriber_st *) subscriber;
_Atomic uint8_t sim_cb_enabled[CUPTI_CB_DOMAIN_SIZE][SIM_CBID_MAX];
static _Atomic int thread_id_type = CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT;
static _Atomic(CUpti_TimestampCallbackFunc) timestamp_fn;
_Atomic uint32_t sim_clock_epoch;
/* Depth of runtime/driver API callbacks running on this thread. */
static __thread int api_callback_depth;

uint64_t sim_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint32_t sim_thread_id(void) {
    if (atomic_load_explicit(&thread_id_type, memory_order_relaxed) == CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)
        return (uint32_t)syscall(SYS_gettid);
    return (uint32_t)pthread_self(); /* CUPTI's default on Linux: pthread_self() */
}

void sim_callback_invoke(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    struct CUpti_Subscriber_st *s = atomic_load_explicit(&subscriber, memory_order_acquire);
    if (s == NULL || !atomic_load_explicit(&sim_cb_enabled[domain][cbid], memory_order_relaxed)) return;
    int api = domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API;
    api_callback_depth += api;
    s->callback(s->userdata, domain, cbid, data);
    api_callback_depth -= api;
}

int sim_in_api_callback(void) { return api_callback_depth > 0; }

/* VPROF_SIM_CUPTI_VERSION: the header's version unless a test asks for another. */
CUptiResult cuptiGetVersion(uint32_t *version) {
    if (version == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    *version = sim_cfg.version;
    return CUPTI_SUCCESS;
}

/* With a client timestamp callback registered, CUPTI's timestamps are the
 * client's [inferred from H13: "treated as normalized timestamp to be used for
 * various purposes in CUPTI"], so cuptiGetTimestamp follows it too. */
CUptiResult cuptiGetTimestamp(uint64_t *timestamp) {
    if (timestamp == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    CUpti_TimestampCallbackFunc fn = atomic_load_explicit(&timestamp_fn, memory_order_acquire);
    *timestamp = fn != NULL ? fn() : sim_now_ns();
    return CUPTI_SUCCESS;
}

int64_t sim_client_clock_offset(void) {
    CUpti_TimestampCallbackFunc fn = atomic_load_explicit(&timestamp_fn, memory_order_acquire);
    if (fn == NULL) return 0;
    uint64_t now = sim_now_ns();
    return (int64_t)(fn() - now);
}

/* Records made after this call carry the new clock; records already buffered
 * keep the old one (H13: changing it mid-session leaves earlier records on the
 * previous method). Kineto registers one at every profiling run with its TSC
 * option (pytorch/pytorch#192021). */
CUptiResult cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc funcTimestamp) {
    if (funcTimestamp == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    atomic_store_explicit(&timestamp_fn, funcTimestamp, memory_order_release);
    atomic_fetch_add(&sim_clock_epoch, 1);
    return CUPTI_SUCCESS;
}

CUptiResult cuptiGetResultString(CUptiResult result, const char **str) {
    if (str == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    switch (result) {
#define NAME(r) case r: *str = #r; return CUPTI_SUCCESS
    NAME(CUPTI_SUCCESS);
    NAME(CUPTI_ERROR_INVALID_PARAMETER);
    NAME(CUPTI_ERROR_INVALID_DEVICE);
    NAME(CUPTI_ERROR_INVALID_CONTEXT);
    NAME(CUPTI_ERROR_INVALID_OPERATION);
    NAME(CUPTI_ERROR_OUT_OF_MEMORY);
    NAME(CUPTI_ERROR_HARDWARE);
    NAME(CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT);
    NAME(CUPTI_ERROR_API_NOT_IMPLEMENTED);
    NAME(CUPTI_ERROR_MAX_LIMIT_REACHED);
    NAME(CUPTI_ERROR_NOT_READY);
    NAME(CUPTI_ERROR_NOT_COMPATIBLE);
    NAME(CUPTI_ERROR_NOT_INITIALIZED);
    NAME(CUPTI_ERROR_QUEUE_EMPTY);
    NAME(CUPTI_ERROR_INVALID_HANDLE);
    NAME(CUPTI_ERROR_INVALID_STREAM);
    NAME(CUPTI_ERROR_INVALID_KIND);
    NAME(CUPTI_ERROR_DISABLED);
    NAME(CUPTI_ERROR_NOT_SUPPORTED);
    NAME(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
    NAME(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    NAME(CUPTI_ERROR_UNKNOWN);
#undef NAME
    default:
        *str = NULL;
        return CUPTI_ERROR_INVALID_PARAMETER;
    }
}

CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *handle, CUpti_CallbackFunc callback, void *userdata) {
    if (handle == NULL) return CUPTI_ERROR_INVALID_PARAMETER;
    pthread_mutex_lock(&subscribe_mu);
    if (atomic_load(&subscriber) != NULL) {
        pthread_mutex_unlock(&subscribe_mu);
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    }
    for (int d = 0; d < CUPTI_CB_DOMAIN_SIZE; d++)
        for (int c = 0; c < SIM_CBID_MAX; c++) atomic_store_explicit(&sim_cb_enabled[d][c], 0, memory_order_relaxed);
    the_subscriber.callback = callback;
    the_subscriber.userdata = userdata;
    atomic_store_explicit(&subscriber, &the_subscriber, memory_order_release);
    *handle = &the_subscriber;
    pthread_mutex_unlock(&subscribe_mu);
    return CUPTI_SUCCESS;
}

CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle handle) {
    pthread_mutex_lock(&subscribe_mu);
    CUptiResult r = CUPTI_ERROR_INVALID_PARAMETER;
    if (handle != NULL && atomic_load(&subscriber) == handle) {
        atomic_store_explicit(&subscriber, NULL, memory_order_release);
        for (int d = 0; d < CUPTI_CB_DOMAIN_SIZE; d++)
            for (int c = 0; c < SIM_CBID_MAX; c++) atomic_store_explicit(&sim_cb_enabled[d][c], 0, memory_order_relaxed);
        r = CUPTI_SUCCESS;
    }
    pthread_mutex_unlock(&subscribe_mu);
    return r;
}

static int valid_domain(CUpti_CallbackDomain domain) {
    return domain > CUPTI_CB_DOMAIN_INVALID && domain < CUPTI_CB_DOMAIN_SIZE;
}

CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle handle,
                                CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    if (handle == NULL || atomic_load(&subscriber) != handle || !valid_domain(domain) || cbid >= SIM_CBID_MAX)
        return CUPTI_ERROR_INVALID_PARAMETER;
    atomic_store_explicit(&sim_cb_enabled[domain][cbid], enable ? 1 : 0, memory_order_relaxed);
    return CUPTI_SUCCESS;
}

CUptiResult cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle handle, CUpti_CallbackDomain domain) {
    if (handle == NULL || atomic_load(&subscriber) != handle || !valid_domain(domain))
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (int c = 0; c < SIM_CBID_MAX; c++)
        atomic_store_explicit(&sim_cb_enabled[domain][c], enable ? 1 : 0, memory_order_relaxed);
    return CUPTI_SUCCESS;
}

CUptiResult cuptiSetThreadIdType(CUpti_ActivityThreadIdType type) {
    if (type != CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT && type != CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)
        return CUPTI_ERROR_INVALID_PARAMETER;
    atomic_store(&thread_id_type, (int)type);
    return CUPTI_SUCCESS;
}

/* CUPTI's finalize detaches from the process: it delivers what is buffered
 * (every buffer, with or without records), turns every activity kind off,
 * forgets the buffer and timestamp callbacks and drops the subscriber, so a
 * later client starts from scratch (Kineto relies on this to re-attach), and
 * launches lose the cost tracing left on them (PyTorch #146604). H13
 * recommends calling it from an API exit callback; it must not be called from
 * a buffer callback. */
CUptiResult cuptiFinalize(void) {
    sim_buffers_flush(1, 1);
    sim_buffers_stop();
    sim_activity_reset();
    pthread_mutex_lock(&subscribe_mu);
    atomic_store_explicit(&subscriber, NULL, memory_order_release);
    for (int d = 0; d < CUPTI_CB_DOMAIN_SIZE; d++)
        for (int c = 0; c < SIM_CBID_MAX; c++) atomic_store_explicit(&sim_cb_enabled[d][c], 0, memory_order_relaxed);
    pthread_mutex_unlock(&subscribe_mu);
    atomic_store(&thread_id_type, CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT);
    if (atomic_exchange(&timestamp_fn, NULL) != NULL) atomic_fetch_add(&sim_clock_epoch, 1);
    return CUPTI_SUCCESS;
}
