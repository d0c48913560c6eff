package dev.vprof.trace;

/**
 * How PyTorch profiler traces are read.
 *
 * @param maxBytes the most JSON bytes (after decompression) one trace file may hold: past it the
 *        file is refused, so a gzip bomb is read no further than this
 * @param cpuOps whether {@code cpu_op} and {@code python_function} events become CPU slices
 *        (markers in their own domains); off, they are only counted
 */
public record TorchTraceOptions(long maxBytes, boolean cpuOps) {
    /** 8 GiB of JSON: a 2 GB trace passes with room; a bomb stops there. */
    public static final long DEFAULT_MAX_BYTES = 8L << 30;

    public TorchTraceOptions {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive, not " + maxBytes);
        }
    }

    public static TorchTraceOptions defaults() {
        return new TorchTraceOptions(DEFAULT_MAX_BYTES, true);
    }
}
