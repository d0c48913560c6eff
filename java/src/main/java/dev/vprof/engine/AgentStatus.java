package dev.vprof.engine;

import dev.vprof.capture.AgentCounters;


/**
 * One process of a running capture as the drain thread last saw it (about once a second), for
 * those who watch a long capture from another thread: {@code vprof watch}'s Prometheus endpoint.
 *
 * @param sinceJoined    the agent's counters since the process joined the capture
 * @param recordsDrained the records the front end read from its ring since then
 * @param state          the agent's state (ARMED, CAPTURING, ...)
 */
public record AgentStatus(int pid, AgentCounters sinceJoined, long recordsDrained, String state) {}
