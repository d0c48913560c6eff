package dev.vprof.report;

import java.util.Map;

/**
 * The line a process read from a PyTorch profiler trace gets in the text report: that it came
 * from a trace, which file, the time precision the trace really has (whole µs in older traces,
 * ns in newer ones: a duration is never finer than that), the CUDA versions it names, and its CPU
 * ops, which are not NVTX markers. Also the escaping of strings a capture brought (names from a
 * trace may hold control characters) before a terminal shows them.
 */
final class TraceFacts {
    private TraceFacts() {}

    static String sentence(Map<String, String> facts, long cpuSlices) {
        StringBuilder b = new StringBuilder();
        if ("pytorch-profiler-trace".equals(facts.get("source"))) {
            b.append("source: PyTorch profiler trace ").append(printable(facts.getOrDefault("file", "?")));
        } else {
            b.append("source: ").append(printable(facts.getOrDefault("source", "?")));
        }
        String precision = facts.get("timePrecision");
        if (precision != null) {
            b.append(", times to the ").append("us".equals(precision) ? "µs (whole microseconds)" : "ns");
        }
        version(b, "CUDA runtime", facts.get("cudaRuntimeVersion"));
        version(b, "driver", facts.get("cudaDriverVersion"));
        if (facts.get("cuptiVersion") != null) {
            b.append(", CUPTI API ").append(printable(facts.get("cuptiVersion")));
        }
        if ("rocm".equals(facts.get("platform"))) {
            b.append(", ROCm");
        }
        if (cpuSlices > 0) {
            b.append("; ").append(cpuSlices).append(" CPU ops (cpu_op, python_function)");
        }
        return b.toString();
    }

    /** CUDA's 12040 as 12.4. */
    private static void version(StringBuilder b, String what, String v) {
        if (v == null) {
            return;
        }
        try {
            int n = Integer.parseInt(v);
            b.append(", ").append(what).append(' ').append(n / 1000).append('.').append(n % 1000 / 10);
        } catch (NumberFormatException e) {
            b.append(", ").append(what).append(' ').append(printable(v));
        }
    }

    /** {@code s} with control characters as {@code \xNN} (and {@code \u2028}-like separators as {@code \\uNNNN}). */
    static String printable(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean bad = c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029;
            if (bad && b == null) {
                b = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (b != null) {
                if (bad) {
                    b.append(c < 0x100 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }
}
