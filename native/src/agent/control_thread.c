/*
 * control_thread.c: the agent's own thread. Every ~10 ms it answers a new
 * command, checks the front end's heartbeat, and while capturing writes a
 * CLOCK_SYNC each second and asks CUPTI to hand over filled buffers every
 * ~150 ms so records do not sit in them. While a range drains (its end
 * stamped by the application's stop) it flushes every tick and closes the
 * range when its work is accounted for (drain.c): the application's own
 * callback never disables or force-flushes.
 */
#include "agent/agent.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define TICK_NS          10000000ull   /* 10 ms */
#define CLOCK_SYNC_NS  1000000000ull   /* 1 s */
#define FLUSH_NS        150000000ull   /* 150 ms */

static void read_arming(const struct vprof_control *c, struct vprof_arming *out)
{
    memset(out, 0, sizeof *out);
    out->mode = c->cmd_range_mode;
    out->repeat = c->cmd_range_repeat;
    out->kinds = c->cmd_kinds;
    out->buffer_size = c->cmd_buffer_size;
    out->frontend_pid = c->frontend_pid;
    out->capture_id = c->cmd_capture_id;
    memcpy(out->name, c->cmd_range_name, VPROF_NAME_MAX - 1);
    memcpy(out->domain, c->cmd_range_domain, VPROF_NAME_MAX - 1);
}

static void answer_command(struct vprof_agent *a, uint64_t seq)
{
    struct vprof_control *c = a->control;
    uint32_t result = VPROF_RESULT_OK;
    char why[VPROF_REASON_MAX] = "";
    pthread_mutex_lock(&a->state_lock);
    switch (c->cmd) {
    case VPROF_CMD_ARM: {
        struct vprof_arming req;
        read_arming(c, &req);
        result = vprof_arm(a, &req, why, sizeof why);
        if (result == VPROF_RESULT_BUSY)
            c->frontend_pid = a->holder_pid; /* the newcomer overwrote the holder's pid */
        break;
    }
    case VPROF_CMD_DISARM:
        if (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) == VPROF_STATE_FAILED)
            result = VPROF_RESULT_FAILED;
        else
            vprof_disarm(a, VPROF_SOURCE_COMMAND, NULL); /* drains: up to VPROF_DRAIN_MAX_NS per range */
        break;
    case VPROF_CMD_RANGE_BEGIN:
    case VPROF_CMD_RANGE_END:
        result = vprof_tree_edge(a, c->cmd == VPROF_CMD_RANGE_BEGIN, why, sizeof why);
        break;
    default:
        result = VPROF_RESULT_BAD_COMMAND;
        snprintf(why, sizeof why, "unknown command %u", c->cmd);
        break;
    }
    if (result != VPROF_RESULT_OK && why[0] != '\0' && result != VPROF_RESULT_FAILED)
        vprof_warn(a, why);
    pthread_mutex_unlock(&a->state_lock);
    c->cmd_result = result;
    __atomic_store_n(&c->cmd_ack, seq, __ATOMIC_RELEASE);
}

static void check_heartbeat(struct vprof_agent *a, uint64_t now)
{
    struct vprof_control *c = a->control;
    const uint64_t beat = __atomic_load_n(&c->heartbeat_ns, __ATOMIC_ACQUIRE);
    const uint64_t timeout = __atomic_load_n(&c->heartbeat_timeout_ns, __ATOMIC_RELAXED);
    if (now <= beat || now - beat <= timeout)
        return;
    pthread_mutex_lock(&a->state_lock);
    if (a->armed) {
        char why[VPROF_REASON_MAX];
        snprintf(why, sizeof why, "front end pid %d silent for %.1f s; disarmed",
                 (int)a->holder_pid, (double)(now - beat) / 1e9);
        vprof_disarm(a, VPROF_SOURCE_HEARTBEAT, why);
    }
    pthread_mutex_unlock(&a->state_lock);
}

static void apply_pending_arm(struct vprof_agent *a)
{
    pthread_mutex_lock(&a->state_lock);
    if (a->pending_arm && !a->injection_expected) {
        a->pending_arm = 0;
        char why[VPROF_REASON_MAX] = "";
        if (vprof_arm(a, &a->pending, why, sizeof why) != VPROF_RESULT_OK && why[0] != '\0' &&
            a->cupti_state != -1)
            vprof_warn(a, why);
    }
    pthread_mutex_unlock(&a->state_lock);
}

static void *control_loop(void *arg)
{
    struct vprof_agent *a = arg;
    struct vprof_control *c = a->control;
    const struct timespec tick = { 0, (long)TICK_NS };
    while (!__atomic_load_n(&a->stop_control_thread, __ATOMIC_ACQUIRE)) {
        if (__atomic_load_n(&a->pending_arm, __ATOMIC_ACQUIRE))
            apply_pending_arm(a);
        const uint64_t seq = __atomic_load_n(&c->cmd_seq, __ATOMIC_ACQUIRE);
        if (seq != __atomic_load_n(&c->cmd_ack, __ATOMIC_RELAXED))
            answer_command(a, seq);
        if (__atomic_load_n(&a->hot_mode, __ATOMIC_ACQUIRE) >= 0) {
            const uint64_t now = vprof_now_ns(CLOCK_MONOTONIC);
            check_heartbeat(a, now);
            if (__atomic_load_n(&a->hot_stopping, __ATOMIC_ACQUIRE)) {
                /* No lock held: the flush may complete buffers on this thread. Not forced:
                   only buffers whose records are all complete come back. */
                a->cupti.ActivityFlushAll(0);
                a->last_flush_ns = now;
                pthread_mutex_lock(&a->state_lock);
                vprof_drain_step(a, vprof_now_ns(CLOCK_MONOTONIC));
                pthread_mutex_unlock(&a->state_lock);
            } else if (__atomic_load_n(&a->hot_range_open, __ATOMIC_ACQUIRE)) {
                if (now - a->last_clock_sync_ns >= CLOCK_SYNC_NS) {
                    pthread_mutex_lock(&a->state_lock);
                    if (a->range_open)
                        vprof_write_clock_sync(a);
                    pthread_mutex_unlock(&a->state_lock);
                    a->last_clock_sync_ns = now;
                }
                if (now - a->last_flush_ns >= FLUSH_NS) {
                    a->cupti.ActivityFlushAll(0);
                    a->last_flush_ns = now;
                }
            }
        }
        nanosleep(&tick, NULL);
    }
    return NULL;
}

int vprof_control_thread_start(struct vprof_agent *a)
{
    __atomic_store_n(&a->stop_control_thread, 0, __ATOMIC_RELEASE);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    /* Signals belong to the application's threads, not ours. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&a->control_thread, &attr, control_loop, a);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0)
        return -1;
    a->control_thread_started = 1;
    return 0;
}

void vprof_control_thread_stop(struct vprof_agent *a)
{
    if (!a->control_thread_started)
        return;
    __atomic_store_n(&a->stop_control_thread, 1, __ATOMIC_RELEASE);
    /* Bounded: exit must not hang on a thread stuck inside CUPTI. */
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_nsec += 200000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    if (pthread_timedjoin_np(a->control_thread, NULL, &deadline) == 0)
        a->control_thread_started = 0;
}
