/**
 * One agent's shared region ({@code /dev/shm/vprof.<pid>}) mapped into the front end:
 * {@link dev.vprof.region.Region} reads the control block through the generated layout
 * ({@link dev.vprof.bindings.VprofRing}), trusting nothing until it is validated (owner, mode,
 * magic, version, sizes), and talks to the agent through the command mailbox (ARM, DISARM, range
 * edges) and the heartbeat. {@link dev.vprof.region.ArmSpec} is what a capture asks an agent to
 * record, as an ARM command or as the {@code VPROF_ARM} value of {@code vprof run}.
 */
package dev.vprof.region;
