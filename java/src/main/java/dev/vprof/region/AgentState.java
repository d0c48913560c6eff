package dev.vprof.region;

import dev.vprof.bindings.VprofRing;

/** vprof_control.state, by name. */
public enum AgentState {
    STARTING, DORMANT, ARMED, CAPTURING, STOPPING, FAILED, EXITED, UNKNOWN;

    public static AgentState of(long raw) {
        if (raw == VprofRing.STATE_STARTING) return STARTING;
        if (raw == VprofRing.STATE_DORMANT) return DORMANT;
        if (raw == VprofRing.STATE_ARMED) return ARMED;
        if (raw == VprofRing.STATE_CAPTURING) return CAPTURING;
        if (raw == VprofRing.STATE_STOPPING) return STOPPING;
        if (raw == VprofRing.STATE_FAILED) return FAILED;
        if (raw == VprofRing.STATE_EXITED) return EXITED;
        return UNKNOWN;
    }

    /** Armed, capturing or stopping: records may still be flowing for the front end that armed it. */
    public boolean isActive() {
        return this == ARMED || this == CAPTURING || this == STOPPING;
    }
}
