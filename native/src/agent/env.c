/*
 * env.c: the process's place in a distributed job, from the environment
 * PyTorch's launchers set (torchrun, vLLM and SGLang workers): RANK,
 * LOCAL_RANK, WORLD_SIZE, into the control block for the front end (the
 * Kineto export's distributedInfo).
 *
 * Read when the region is made, when CUDA initializes, and at every ARM: a
 * worker forked before it knows its rank sets the variables afterwards.
 * Never read on a callback path: getenv is not safe against a concurrent
 * setenv, and those three moments are the agent's own.
 */
#include "agent/agent.h"

#include <errno.h>
#include <stdlib.h>

/* A whole decimal number from 0 to INT32_MAX, or -1. */
static int32_t env_int(const char *name)
{
    const char *v = getenv(name);
    if (v == NULL || *v < '0' || *v > '9')
        return -1;
    char *end = NULL;
    errno = 0;
    const long x = strtol(v, &end, 10);
    if (errno != 0 || *end != '\0' || x < 0 || x > INT32_MAX)
        return -1;
    return (int32_t)x;
}

void vprof_read_rank_env(struct vprof_agent *a)
{
    if (a->control == NULL)
        return;
    __atomic_store_n(&a->control->rank, env_int("RANK"), __ATOMIC_RELAXED);
    __atomic_store_n(&a->control->local_rank, env_int("LOCAL_RANK"), __ATOMIC_RELAXED);
    __atomic_store_n(&a->control->world_size, env_int("WORLD_SIZE"), __ATOMIC_RELEASE);
}
