package dev.vprof.names;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Demangles Itanium C++ ABI names (the {@code _Z...} symbols that CUPTI reports for CUDA
 * kernels) into the text that binutils' {@code c++filt} prints for them.
 *
 * <p>Why not libstdc++'s {@code __cxa_demangle} through FFM, as async-profiler does: measured on
 * this class's corpus ({@code names/demangle-corpus.tsv}, 610 names from vLLM-, PyTorch-, CUTLASS-
 * and NCCL-shaped kernels) with Debian 12's libstdc++ (GCC 12), it refused 24 names c++filt
 * demangles, among them every name longer than about 1,024 characters (its guard against deep
 * recursion counts the name's components, about two per character, and stops at 2,048), which is
 * where CUTLASS and CuTe GEMM kernels live; it printed 9 others differently from c++filt
 * ({@code std::string} for {@code std::basic_string<char, ...>}); and what it prints depends on
 * the libstdc++ of the machine that reads the file. The kernels that matter most would be left
 * mangled. So vprof keeps its own demangler, split by stage ({@link DemangleParser},
 * {@link DemangleTree}, {@link DemanglePrinter}), and {@code DemanglerCrossCheckTest} holds it to
 * c++filt on about 56,000 generated names in every {@code mvn verify}.
 *
 * <p>The names come from capture files, which may be damaged or hostile, so this is bounded:
 * input length, output length, recursion depth and the amount of printing work are all capped,
 * and any name that breaks a cap, is malformed, or uses a construct this class does not know is
 * returned unchanged.
 * Returning the mangled name is always acceptable; returning a demangling that differs from
 * {@code c++filt} is not, so doubtful constructs are refused rather than guessed.
 *
 * <p>Work happens in two steps. A recursive-descent {@link DemangleParser} follows the grammar of the
 * ABI specification and builds an immutable tree of {@code Node}s, keeping the substitution
 * table ({@code S_}, {@code S0_}, ...) as references to earlier subtrees. A {@link DemanglePrinter}
 * then walks that tree. Template parameters ({@code T_}) are resolved while printing, against
 * the template whose function is being printed, because that is how {@code c++filt} decides
 * what they mean (and when it refuses). Where {@code c++filt}'s output has quirks (spacing,
 * parentheses, which qualifiers a declarator absorbs), the printer reproduces them.
 *
 * <p>One deliberate difference: by default {@code c++filt} refuses any name longer than 1024
 * characters (a stack precaution of its own; long CUTLASS kernel names hit it). This class
 * demangles those up to {@link #MAX_INPUT}, printing what {@code c++filt --no-recurse-limit}
 * prints.
 */
public final class Demangler {
    /** Input longer than this is returned unchanged. */
    public static final int MAX_INPUT = 4096;
    /** Output longer than this: give up and return the input unchanged. */
    public static final int MAX_OUTPUT = 8192;

    /** Nesting limit for both the parser and the printer; real kernel names stay far below. */
    static final int MAX_DEPTH = 256;
    /**
     * Printing work limit. Substitutions make the tree a DAG, so a short name can describe an
     * exponentially large output; the output cap stops most of that, and this stops the rest
     * (subtrees that print nothing, such as empty packs, repeated many times).
     */
    static final int MAX_PRINT_STEPS = 200_000;

    private Demangler() {}

    /**
     * The demangled form of {@code name}, exactly as binutils' c++filt prints it, or {@code name}
     * itself when it is not a mangled name, uses something this demangler does not handle, is
     * malformed, or would exceed the bounds. Never throws (except NPE for null). Thread-safe; no
     * shared mutable state.
     */
    public static String demangle(String name) {
        Objects.requireNonNull(name, "name");
        if (name.length() > MAX_INPUT || !name.startsWith("_Z") || !mangledAlphabet(name)
                || looksLikeRust(name)) {
            return name;
        }
        try {
            DemangleTree.Node root = new DemangleParser(name).mangledName();
            return new DemanglePrinter.Printer().print(root);
        } catch (DemangleTree.Unsupported e) {
            return name;
        } catch (StackOverflowError e) {
            // The depth limits keep recursion far from the default stack size; this only
            // matters on a thread created with a tiny stack, where giving up is still right.
            return name;
        }
    }

    /** Mangled names use only these characters; anything else is not ours to interpret. */
    private static boolean mangledAlphabet(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '.' || c == '$';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Rust's legacy symbols are Itanium-shaped ({@code _ZN...17h<hash>E}) but c++filt
     * demangles them with Rust's rules (escapes, dropped clone suffixes); leave them alone.
     */
    private static boolean looksLikeRust(String name) {
        if (!name.startsWith("_ZN")) {
            return false;
        }
        int end = name.indexOf('.');
        if (end < 0) {
            end = name.length();
        }
        int hash = end - 20; // "17h" + 16 hex digits + "E"
        if (hash < 3 || !name.startsWith("17h", hash) || name.charAt(end - 1) != 'E') {
            return false;
        }
        for (int i = hash + 3; i < end - 1; i++) {
            char c = name.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
