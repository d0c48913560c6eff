package dev.vprof.capture;

/**
 * Typed callbacks for the records of a capture, in each process's own record order
 * (records of different processes interleave by chunk). Every method has an empty
 * default, so a visitor implements only what it needs. Times are CUPTI ns; map them
 * to epoch ns with {@link CaptureReader#clock(int)}.
 *
 * <p>{@link #kernel} takes primitives because it is called once per kernel (tens of
 * millions in a large capture); the rarer records come as small immutable values.
 */
public interface RecordVisitor {

    /**
     * One kernel execution. {@code desc} is null when the file lacks its KERNEL_DESC;
     * {@code name} is then {@link RecordDecoder#UNKNOWN_KERNEL}, never null.
     */
    default void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {}

    default void memcpy(int pid, MemcpyEvent memcpy) {}

    default void memset(int pid, MemsetEvent memset) {}

    default void marker(int pid, MarkerEvent marker) {}

    default void api(int pid, ApiEvent api) {}

    /**
     * A CPU op of a PyTorch profiler trace (CPU_OP record). Files written before that record
     * kept CPU ops as marker ranges of the trace reader's domains {@code pytorch.cpu_op} and
     * {@code pytorch.python_function}: the decoder hands those here too, never to {@link #marker}.
     */
    default void cpuOp(int pid, CpuOpEvent op) {}

    /**
     * The source's fields that the next record of {@code pid} handed to this visitor does not hold
     * (an ARGS record; {@code args.target()} names that record's type), or with target 0 the
     * fields of the process itself. Only called when {@link #wantsEventArgs()}.
     */
    default void eventArgs(int pid, EventArgs args) {}

    /** Whether to decode ARGS records for {@link #eventArgs} (exports that give a source's fields back). */
    default boolean wantsEventArgs() {
        return false;
    }

    /**
     * Whether to decode KERNEL records for {@link #kernel}: a scan that reads only the rarer records
     * (the steps' markers, ranges and launch calls) skips them, so it walks a kernel's record header alone.
     */
    default boolean wantsKernels() {
        return true;
    }

    /** The host waited on the GPU in a synchronize call (SYNC record, {@code --kinds sync}). */
    default void sync(int pid, SyncEvent sync) {}

    default void range(int pid, RangeEvent range) {}

    default void drops(int pid, DropsEvent drops) {}

    default void clockSync(int pid, ClockSync sync) {}

    /** A GPU's properties (DEVICE record, format 2). */
    default void device(int pid, DeviceProperties device) {}

    /** A STRING was interned (or replaced) under {@code id}. */
    default void string(int pid, int id, String value) {}

    /** A KERNEL_DESC was interned (or replaced). */
    default void kernelDesc(int pid, KernelDesc desc) {}

    /**
     * The records that follow, up to the next call, come from the RECORDS chunk at position
     * {@code chunkIndex} of {@link CaptureReader#chunks()}, a chunk of process {@code pid}; the
     * whole records of a chunk the file cuts short (unverified) come last, as chunk
     * {@code chunks().size()}. A streamed reader uses it to know when a chunk's records are all in.
     */
    default void chunk(int chunkIndex, int pid) {}
}
