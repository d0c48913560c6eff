package dev.vprof.capture;

/**
 * The names the PyTorch profiler (Kineto) gives copies and sets, in both directions: from CUPTI's
 * kinds to {@code Memcpy HtoD (Pinned -> Device)} (what the exports write for a record without a
 * name of its own) and back (what the trace reader keeps of a trace's copy in a MEMCPY record).
 * One table, so a copy read from a trace is written back under the name it had.
 */
public final class CopyKindNames {
    private CopyKindNames() {}

    // CUpti_ActivityMemcpyKind, in enum order (cupti_activity.h).
    private static final String[] MEMCPY_KINDS = {
        "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"
    };

    // CUpti_ActivityMemoryKind, in enum order (cupti_activity.h), spelled as Kineto spells them.
    private static final String[] MEMORY_KINDS = {
        "Unknown", "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static"
    };

    /** What Kineto calls every set: the MEMSET record has no memory kind (cudaMemset writes device memory). */
    public static final String MEMSET = "Memset (Device)";

    public static String memcpyKind(int kind) {
        return kind >= 0 && kind < MEMCPY_KINDS.length ? MEMCPY_KINDS[kind] : "Unknown";
    }

    public static String memoryKind(int kind) {
        return kind >= 0 && kind < MEMORY_KINDS.length ? MEMORY_KINDS[kind] : "Unrecognized";
    }

    /** {@code Memcpy HtoD (Pageable -> Device)}: the copy kind, then where it read and wrote. */
    public static String memcpy(int copyKind, int srcKind, int dstKind) {
        return "Memcpy " + memcpyKind(copyKind) + " (" + memoryKind(srcKind) + " -> " + memoryKind(dstKind) + ")";
    }

    /** The copy kind a name like {@code Memcpy HtoD (Pinned -> Device)} gives, 0 when it names none. */
    public static int copyKind(String name) {
        int at = name.indexOf("Memcpy ");
        if (at < 0) {
            return 0;
        }
        int from = at + 7;
        int to = name.indexOf(' ', from);
        return index(MEMCPY_KINDS, to < 0 ? name.substring(from) : name.substring(from, to));
    }

    /** The source ({@code source}) or destination memory kind named in the parentheses, 0 when none. */
    public static int memoryKind(String name, boolean source) {
        int open = name.indexOf('(');
        int arrow = name.indexOf("->", open + 1);
        int close = name.indexOf(')', arrow + 1);
        if (open < 0 || arrow < 0 || close < 0) {
            return 0;
        }
        return index(MEMORY_KINDS, (source ? name.substring(open + 1, arrow) : name.substring(arrow + 2, close)).trim());
    }

    private static int index(String[] words, String word) {
        for (int i = 1; i < words.length; i++) {
            if (words[i].equals(word)) {
                return i;
            }
        }
        return 0;
    }
}
