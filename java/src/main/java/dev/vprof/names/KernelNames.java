package dev.vprof.names;

import java.util.HashMap;
import java.util.Map;

/**
 * How a report or an export shows kernel names: demangled ({@code void vllm::rms_norm_kernel<
 * c10::BFloat16>(...)}, as Nsight Systems and torch.profiler show them), or as CUPTI reported
 * them ({@code --mangled}). The capture file always keeps CUPTI's names; this is presentation.
 *
 * <p>Each distinct name is demangled once and remembered. The memory is bounded, because a
 * damaged or hostile file can hold many names that are short mangled and long demangled:
 * past {@link #MAX_NAMES} names or {@link #MAX_CHARS} chars shown, further names stay mangled.
 * One instance per report or export pass; not thread-safe.
 */
public final class KernelNames {
    static final int MAX_NAMES = 512 * 1024;
    static final long MAX_CHARS = 32L << 20;

    private final boolean demangle;
    private final Map<String, String> shown = new HashMap<>();
    private long charsLeft = MAX_CHARS;

    private KernelNames(boolean demangle) {
        this.demangle = demangle;
    }

    /** Demangled where vprof's demangler can render the name exactly; the default. */
    public static KernelNames demangled() {
        return new KernelNames(true);
    }

    /** As CUPTI reported them. */
    public static KernelNames asRecorded() {
        return new KernelNames(false);
    }

    /** {@link #asRecorded()} when {@code mangled}, else {@link #demangled()}: a command's --mangled. */
    public static KernelNames of(boolean mangled) {
        return mangled ? asRecorded() : demangled();
    }

    /** How {@code raw} is shown; {@code raw} itself when it is not mangled or the bounds are reached. */
    public String show(String raw) {
        if (!demangle || raw == null || !raw.startsWith("_Z")) {
            return raw;
        }
        String s = shown.get(raw);
        if (s == null) {
            if (shown.size() >= MAX_NAMES) {
                return raw;
            }
            s = Demangler.demangle(raw);
            if (s.length() > charsLeft) {
                s = raw;
            } else {
                charsLeft -= s.length();
            }
            shown.put(raw, s);
        }
        return s;
    }
}
