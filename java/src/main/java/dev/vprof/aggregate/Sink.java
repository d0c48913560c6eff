package dev.vprof.aggregate;

import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CpuOpEvent;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.DropsEvent;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.RangeEvent;

/**
 * What an analysis takes from the {@link KernelPass}: the GPU work its scope admits (kernels with
 * their epoch times and step, copies and sets), and the records that are not GPU work, of the
 * processes it reads, in the file's order. Every method has a default, so a sink implements only
 * what it needs. Times not named epoch are the process's CUPTI ns.
 */
public interface Sink {
    /**
     * Whether this sink is handed kernels at all: a pass calls only those that are, so the one or
     * two that count kernels are called from a call site the JIT can inline (a 10 M-kernel pass
     * feels each further call per kernel).
     */
    default boolean takesKernels() {
        return true;
    }

    default void kernel(Kernel k) {}

    default void memcpy(int pid, MemcpyEvent memcpy) {}

    default void memset(int pid, MemsetEvent memset) {}

    /** An NVTX marker (a trace's annotations among them; never a CPU op, which is {@link #cpuOp}). */
    default void marker(int pid, MarkerEvent marker) {}

    /** A trace's CPU op: a PyTorch cpu_op or python_function, a record of its own kind. */
    default void cpuOp(int pid, CpuOpEvent op) {}

    default void api(int pid, ApiEvent api) {}

    default void range(int pid, RangeEvent range) {}

    default void drops(int pid, DropsEvent drops) {}

    default void device(int pid, DeviceProperties device) {}
}
