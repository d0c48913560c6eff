/**
 * Where agents are and whether their processes live. The agents' region files
 * ({@link dev.vprof.discovery.AgentDirectory}, {@code /dev/shm/vprof.<pid>}); the watch that says
 * when one appears ({@link dev.vprof.discovery.RegionWatch}, inotify), so that a capture reads
 * {@code /proc} only then; every read of {@code /proc} ({@link dev.vprof.discovery.ProcFs}, which
 * tests count or fake); the process tree; and a process's liveness through a pidfd
 * ({@link dev.vprof.discovery.ProcessLiveness}), which pid reuse cannot fool.
 */
package dev.vprof.discovery;
