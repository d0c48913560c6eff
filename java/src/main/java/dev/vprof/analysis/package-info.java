/**
 * The analyses HTA, nsys and TensorBoard users reach for, each a sink of the one aggregation pass
 * ({@code aggregate.KernelPass}), bounded by names, processes, devices and steps, never by the
 * work: the temporal breakdown per rank and GPU ({@link dev.vprof.analysis.TemporalBreakdown}, work
 * classed by {@link dev.vprof.analysis.WorkClass}), nsys-style summaries of kernels, CUDA calls,
 * memory operations, NVTX ranges and CPU ops. One computed result, several renderings (text
 * sections, JSON, the HTML page).
 */
package dev.vprof.analysis;
