package dev.vprof.nsys;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.KernelShape;
import dev.vprof.capture.RecordEncoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * One nsys process as one process of the capture: its pid there, the names and kernel shapes it
 * has interned (a capture's STRING and KERNEL_DESC ids are per process, as an agent's are), its
 * NVTX ranges' ids, and what was read or left out of it.
 */
final class NsysProcess {
    /** The budget of distinct names, shared by every process of one export (see {@link #intern}). */
    static final class Names {
        /**
         * Names and kernel shapes kept in all, and the characters of the names: together below what
         * one pass of a capture reader interns (capture.RecordDecoder's budget: 512 Ki names and
         * shapes, 32 Mi chars), so every name the records carry is one a reader shows.
         */
        static final int MAX_NAMES = 400_000;
        static final int MAX_SHAPES = 100_000;
        static final long MAX_CHARS = 30L << 20;
        int names;
        int shapes;
        long chars;
        long overBudget;
        long cut;
    }

    /** The name a row gets once {@link Names} is spent; counted and said in a note. */
    static final String NAME_NOT_KEPT = "(name not kept: more distinct names than vprof keeps)";

    final long key;
    final int pid;
    final String name;
    private final Names budget;
    private final Map<String, Integer> strings = new HashMap<>();
    /** StringIds ids already interned here, to their STRING ids: the kernel and API names of every row. */
    final Map<Long, Integer> stringIds = new HashMap<>();
    final Map<KernelShape, Integer> shapes = new HashMap<>();
    /** nsys NVTX domain ids to their name's STRING id. */
    final Map<Long, Integer> domains = new HashMap<>();
    private int nextString = 1;
    int nextShape = 1;
    int nextMarker = 1;

    long kernels;
    long memcpys;
    long memsets;
    long apiCalls;
    long ranges;
    long marks;
    long firstNs = Long.MAX_VALUE;
    long lastNs = Long.MIN_VALUE;
    /** Rows kept off the timeline, by DROPS reason and record type, as the agent counts its own. */
    final long[][] rejected = new long[VprofRing.DROPS_REASON_MAX + 1][VprofRing.REC_TYPE_MAX + 1];

    NsysProcess(long key, int pid, String name, Names budget) {
        this.key = key;
        this.pid = pid;
        this.name = name;
        this.budget = budget;
    }

    /** Notes a row's times, for the process's span. */
    void saw(long start, long end) {
        firstNs = Math.min(firstNs, start);
        lastNs = Math.max(lastNs, end);
    }

    /**
     * The STRING id of {@code value} in this process, its STRING record written before its first
     * use; a name past STRING_MAX bytes is cut (on a UTF-8 boundary) and counted.
     */
    int intern(RecordOut out, String value) throws IOException {
        Integer id = strings.get(value);
        if (id != null) {
            return id;
        }
        if (budget.names >= Names.MAX_NAMES || budget.chars + value.length() > Names.MAX_CHARS) {
            budget.overBudget++;
            if (value.equals(NAME_NOT_KEPT)) {
                throw new IllegalStateException("no room left for the placeholder name");
            }
            Integer placeholder = strings.get(NAME_NOT_KEPT);
            return placeholder != null ? placeholder : add(out, NAME_NOT_KEPT);
        }
        budget.names++;
        budget.chars += value.length();
        return add(out, value);
    }

    private int add(RecordOut out, String value) throws IOException {
        byte[] whole = value.getBytes(StandardCharsets.UTF_8);
        byte[] bytes = RecordEncoder.fitString(whole);
        if (bytes != whole) {
            budget.cut++;
        }
        int id = nextString++;
        strings.put(value, id);
        RecordEncoder.string(out.to(pid), id, bytes);
        return id;
    }

    /** Whether a new kernel shape fits the shared budget, counting it if so. */
    boolean roomForShape() {
        if (budget.shapes >= Names.MAX_SHAPES) {
            return false;
        }
        budget.shapes++;
        return true;
    }

    void reject(int reason, int recordType) {
        rejected[reason][recordType]++;
    }
}
