package dev.vprof.diff;

/**
 * A kernel's base name: its demangled name with template arguments, the argument list and the
 * return type stripped ({@code void vllm::rms_norm_kernel<c10::BFloat16>(float*, int)} becomes
 * {@code vllm::rms_norm_kernel}), so that instantiations of one kernel for other types, tile
 * sizes or architectures match. A name that is not C++ (cuBLAS's {@code sm90_xmma_gemm_...}) is
 * its own base name.
 */
public final class BaseNames {
    private BaseNames() {}

    public static String of(String name) {
        StringBuilder out = new StringBuilder(name.length());
        int angle = 0;
        int paren = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '<') {
                // "operator<" and "operator<<" are names, not templates
                if (angle == 0 && paren == 0 && out.toString().endsWith("operator")) {
                    out.append(c);
                    continue;
                }
                angle++;
            } else if (c == '>' && angle > 0) {
                angle--;
            } else if (c == '(' && angle == 0) {
                if (paren == 0 && (i + 1 < name.length() && name.startsWith("anonymous namespace)", i + 1))) {
                    out.append("(anonymous namespace)");
                    i += "anonymous namespace)".length();
                    continue;
                }
                paren++;
            } else if (c == ')' && paren > 0) {
                paren--;
            } else if (angle == 0 && paren == 0) {
                out.append(c);
            }
        }
        String s = out.toString().strip();
        // A return type before the name: the name is the last space-separated word outside brackets.
        int space = s.lastIndexOf(' ');
        if (space >= 0 && !s.endsWith("(anonymous namespace)")) {
            String last = s.substring(space + 1);
            if (!last.isEmpty() && !s.contains("(anonymous namespace)")) {
                s = last;
            } else if (s.startsWith("void ")) {
                s = s.substring(5);
            }
        }
        return s.isEmpty() ? name : s;
    }
}
