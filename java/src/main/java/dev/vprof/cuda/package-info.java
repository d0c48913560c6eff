/**
 * Where CUDA lives on a machine, as the agent will look for it: a CUDA toolkit, or the pip
 * wheels of the Python that runs the server ({@link dev.vprof.cuda.PipCuda}), found from that
 * Python's site-packages or from a running process's own mapped libraries. {@code vprof doctor}
 * reports what {@link dev.vprof.cuda.CuptiSearch} finds; the agent's own search (in C, inside
 * the target) follows the same order. {@link dev.vprof.cuda.CudaProbe} asks what was found: the
 * version a libcupti reports, whether the driver's library loads, which device files exist.
 */
package dev.vprof.cuda;
