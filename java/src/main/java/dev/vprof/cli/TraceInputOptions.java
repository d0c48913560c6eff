package dev.vprof.cli;

import dev.vprof.names.KernelNames;
import dev.vprof.trace.TorchTraceOptions;
import picocli.CommandLine.Option;

/**
 * The options of every command that reads a capture, a PyTorch profiler trace or a folder of
 * them (report, export, import), declared once as a picocli mixin so that they read and default
 * alike everywhere.
 */
final class TraceInputOptions {
    @Option(names = "--max-bytes", paramLabel = "SIZE", defaultValue = "8g",
            description = "for a PyTorch profiler trace: the most JSON one file may decompress to "
                    + "(default: ${DEFAULT-VALUE}); a bound against gzip bombs")
    String maxBytes;

    /** How a trace is read: the {@code --max-bytes} bound, CPU ops kept as records or only counted. */
    TorchTraceOptions torch(boolean cpuOps) {
        return new TorchTraceOptions(Units.size("--max-bytes", maxBytes), cpuOps);
    }

    /** {@code --mangled}, for the commands that show kernel names. */
    static final class Names {
        @Option(names = "--mangled",
                description = "show kernel names as CUPTI reported them (_ZN4vllm15rms_norm_kernel...) instead of demangled")
        boolean mangled;

        KernelNames names() {
            return KernelNames.of(mangled);
        }
    }
}
