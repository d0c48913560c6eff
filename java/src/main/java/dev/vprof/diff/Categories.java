package dev.vprof.diff;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Kernel categories, as vLLM's own profiler tools group kernels: an ordered list of rules, each a
 * category and a case-insensitive regular expression searched in the kernel's (demangled) name;
 * the first rule that matches names the category, and a name no rule matches is {@code other}.
 * The default rules are listed in docs/diff.md; {@code --categories FILE} replaces them with the
 * file's, one rule a line: {@code CATEGORY REGEX} ({@code #} starts a comment).
 *
 * <p>The order matters where names overlap: sampling and KV-cache kernels before attention
 * (FlashInfer names both), attention before GEMM (flash attention lives in CUTLASS namespaces),
 * collectives before everything (NCCL kernel names hold "Reduce" and "Sum").
 */
public final class Categories {
    public static final String OTHER = "other";

    private record Rule(String category, Pattern pattern) {}

    private static final String[][] DEFAULT_RULES = {
            {"memcpy/memset", "^\\[?(memcpy|memset)|\\bmemcpy|\\bmemset"},
            {"all-reduce", "all_?reduce|allreduce|cross_device_reduce"},
            {"collective", "nccl|reduce_?scatter|all_?gather|all_?to_?all|alltoall|broadcast_kernel|sendrecv"},
            {"sampling", "sampling|sampler|top_?k|top_?p|multinomial|argmax|softmax"},
            {"KV cache", "reshape_and_cache|concat_and_cache|kv_?cache|copy_blocks|swap_blocks|cache_kernel"},
            {"rotary", "rotary|rope"},
            {"norm", "norm"},
            {"attention", "attention|attn|flash|fmha|mha_|paged|flashinfer|merge_states|decode_kernel|prefill_kernel"},
            {"GEMM", "gemm|cublas|cutlass|xmma|matmul|splitk|wgmma|s[0-9]+gemm|h[0-9]+gemm|_nn_|_nt_|_tn_|_tt_"},
            {"elementwise", "elementwise|act_and_mul|silu|gelu|relu|fill|copy|cast|add_kernel|mul_kernel|index|reduce"},
    };

    private final List<Rule> rules;
    private final Map<String, String> cache = new HashMap<>();

    private Categories(List<Rule> rules) {
        this.rules = rules;
    }

    /** The documented default map. */
    public static Categories defaults() {
        List<Rule> rules = new ArrayList<>();
        for (String[] r : DEFAULT_RULES) {
            rules.add(new Rule(r[0], Pattern.compile(r[1], Pattern.CASE_INSENSITIVE)));
        }
        return new Categories(rules);
    }

    /**
     * The rules of {@code file}: {@code CATEGORY REGEX} a line, in order. Throws
     * IllegalArgumentException naming the line when one is not a rule.
     */
    public static Categories load(Path file) throws IOException {
        List<Rule> rules = new ArrayList<>();
        int n = 0;
        for (String line : Files.readAllLines(file)) {
            n++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] parts = t.split("\\s+", 2);
            if (parts.length < 2) {
                throw new IllegalArgumentException(file + " line " + n + " is not 'CATEGORY REGEX'; write one rule a line,"
                        + " e.g. 'GEMM gemm|cutlass'");
            }
            try {
                rules.add(new Rule(parts[0], Pattern.compile(parts[1], Pattern.CASE_INSENSITIVE)));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(file + " line " + n + ": '" + parts[1]
                        + "' is not a regular expression (" + e.getDescription() + "); fix the rule");
            }
        }
        if (rules.isEmpty()) {
            throw new IllegalArgumentException(file + " holds no rule; write one a line, e.g. 'GEMM gemm|cutlass'");
        }
        return new Categories(rules);
    }

    /** The category of a kernel shown as {@code name}. */
    public String of(String name) {
        String c = cache.get(name);
        if (c == null) {
            c = OTHER;
            for (Rule r : rules) {
                if (r.pattern.matcher(name).find()) {
                    c = r.category;
                    break;
                }
            }
            cache.put(name, c);
        }
        return c;
    }

    /** The rules as text, for the documentation and {@code --help}. */
    public static String describeDefaults() {
        StringBuilder b = new StringBuilder();
        for (String[] r : DEFAULT_RULES) {
            b.append(String.format(Locale.ROOT, "%-14s %s%n", r[0], r[1]));
        }
        return b.toString();
    }
}
