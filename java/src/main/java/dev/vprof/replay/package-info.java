/**
 * Replaying a recorded capture's GPU work on the CUPTI test double: {@link ReplayScript} walks the
 * records of anything {@code CaptureSources} opens (a {@code .vprof}, a PyTorch profiler trace, a
 * folder of rank traces) and writes the compact script that {@code vprof-simgpu --replay} plays
 * (its layout: {@code native/src/sim/simgpu_replay.h} and {@code docs/simulator.md}). Names are
 * written exactly as the source holds them (a trace's are demangled already), so what the agent
 * records of a replay is what the trace says.
 */
package dev.vprof.replay;
