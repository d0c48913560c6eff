/**
 * {@code vprof selftest}: the installation checked end to end by driving the real CLI as a child
 * process ({@code SelfCli}). Without {@code --gpu}: the whole capture path on the CUPTI test
 * double, with counts the simulator knows ({@link dev.vprof.selftest.DoubleSelftest}); with
 * {@code --gpu}: a small CUDA program built with nvcc and run under vprof in each capture-range
 * mode ({@link dev.vprof.selftest.GpuSelftest}).
 */
package dev.vprof.selftest;
