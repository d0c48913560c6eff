/* agent_state.c: the agent's process-wide state (see agent.h), apart from
 * entry.c so that unit tests can link the agent without its constructor. */
#include "agent/agent.h"

struct vprof_agent vprof_agent = {
    .state_lock = PTHREAD_MUTEX_INITIALIZER,
    .convert_lock = PTHREAD_MUTEX_INITIALIZER,
    .hot_mode = -1,
    .drain_max_ns = VPROF_DRAIN_MAX_NS,
};
