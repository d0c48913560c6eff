package dev.vprof.export.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tables of the SQLite export. Nsight Systems' own are read from {@code nsys-tables.sql}, which
 * {@code scripts/nsys-schema-facts.sh} derives from the two real nsys exports in fixtures/real: every
 * table of the 2026.2.1 export (export schema 3.25.0) and the tables a reader may join that only the
 * 2022.2 export (2.9.1) has, each column with nsys's name, type and constraints, in nsys's order, so
 * SQL written for {@code nsys export --type sqlite} runs unchanged. vprof's own, prefixed
 * {@code VPROF_}, hold the rest. What each column holds is in docs/sqlite.md. Ids are encoded as
 * Nsight Systems encodes them ({@link #globalPid}, {@link ThreadIds}).
 */
final class NsysSchema {
    private NsysSchema() {}

    /** The version of Nsight Systems' export schema the nsys tables follow. */
    static final String NSYS_SCHEMA_VERSION = "3.25.0";
    /** The version of the {@code VPROF_} tables: 2 added the thread, CPU-op, Python-function and GPU-annotation tables. */
    static final String VPROF_SCHEMA_VERSION = "2";

    /** One table: its DDL and its columns in order. */
    record Table(String name, String ddl, List<String> columns) {
        /** The 0-based position of {@code column}; throws when the table has none of that name. */
        int column(String column) {
            int i = columns.indexOf(column);
            if (i < 0) {
                throw new IllegalArgumentException(name + " has no column " + column);
            }
            return i;
        }
    }

    // Before the tables: they are parsed when the class initializes.
    private static final Pattern CREATE = Pattern.compile("^CREATE TABLE (\\w+) \\($");
    private static final Pattern COLUMN = Pattern.compile("^\\s+(\\w+) (INTEGER|TEXT|REAL)\\b.*$");

    /** Nsight Systems' tables, in the order of the fact file. */
    static final List<Table> NSYS = parse(resource("nsys-tables.sql"));

    /** vprof's own tables, one column a line as in the fact file. */
    static final List<Table> VPROF = parse("""
            CREATE TABLE VPROF_CAPTURE_FACTS (
                name TEXT NOT NULL,
                value TEXT
            );
            CREATE TABLE VPROF_CAPTURE_RANGES (
                globalPid INTEGER NOT NULL,
                pid INTEGER NOT NULL,
                rangeIndex INTEGER NOT NULL,
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                source TEXT
            );
            CREATE TABLE VPROF_DROPS (
                globalPid INTEGER NOT NULL,
                pid INTEGER NOT NULL,
                rangeIndex INTEGER NOT NULL,
                rangeSource TEXT,
                reason TEXT NOT NULL,
                count INTEGER NOT NULL
            );
            CREATE TABLE VPROF_REQUESTS (
                id INTEGER NOT NULL PRIMARY KEY,
                traceId TEXT,
                spanId TEXT,
                name TEXT,
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                attributes TEXT
            );
            CREATE TABLE VPROF_REQUEST_PHASES (
                requestId INTEGER NOT NULL,
                phase TEXT NOT NULL,
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                gpuNs INTEGER
            );
            CREATE TABLE VPROF_SPANS (
                traceId TEXT,
                spanId TEXT,
                parentSpanId TEXT,
                service TEXT,
                name TEXT,
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                attributes TEXT
            );
            CREATE TABLE VPROF_METRIC_SAMPLES (
                name TEXT NOT NULL,
                kind TEXT NOT NULL,
                unit TEXT,
                timestamp INTEGER NOT NULL,
                value REAL
            );
            CREATE TABLE VPROF_THREADS (
                globalTid INTEGER NOT NULL,
                pid INTEGER NOT NULL,
                tid INTEGER NOT NULL,
                namedBySource INTEGER NOT NULL
            );
            CREATE TABLE VPROF_CPU_OPS (
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                globalTid INTEGER,
                nameId INTEGER NOT NULL
            );
            CREATE TABLE VPROF_PYTHON_FUNCTIONS (
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                globalTid INTEGER,
                nameId INTEGER NOT NULL
            );
            CREATE TABLE VPROF_GPU_ANNOTATIONS (
                start INTEGER NOT NULL,
                end INTEGER NOT NULL,
                globalTid INTEGER,
                nameId INTEGER NOT NULL
            );
            """);

    /** Every table the export creates: Nsight Systems', then vprof's. */
    static List<Table> all() {
        List<Table> all = new ArrayList<>(NSYS);
        all.addAll(VPROF);
        return all;
    }

    /** The table named {@code name}, of either kind. */
    static Table table(String name) {
        for (Table t : all()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("no table " + name);
    }

    /** Tables written as the fact file writes them: a CREATE line, a column a line, {@code );}. */
    static List<Table> parse(String sql) {
        Map<String, Table> tables = new LinkedHashMap<>();
        String name = null;
        StringBuilder ddl = new StringBuilder();
        List<String> columns = new ArrayList<>();
        for (String line : sql.split("\n")) {
            Matcher create = CREATE.matcher(line);
            if (create.matches()) {
                name = create.group(1);
                ddl.setLength(0);
                columns = new ArrayList<>();
            }
            if (name == null) {
                continue; // a comment before the first table
            }
            ddl.append(line).append('\n');
            Matcher column = COLUMN.matcher(line);
            if (column.matches() && !line.strip().startsWith("PRIMARY KEY")) {
                columns.add(column.group(1));
            }
            if (line.equals(");") || line.strip().equals(");")) {
                tables.put(name, new Table(name, ddl.toString().strip(), List.copyOf(columns)));
                name = null;
            }
        }
        return List.copyOf(tables.values());
    }

    static String resource(String name) {
        try (InputStream in = NsysSchema.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + name + " beside " + NsysSchema.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Nsight Systems' serialized GlobalId: hardware id (bits 56..63), VM id (48..55), pid (24..47),
     * tid (0..23). A single-host capture is hardware 0, VM 1, as Nsight Systems numbers it.
     */
    static final long VM = 1L << 48;

    static long globalPid(int pid) {
        return VM | ((long) pid & 0xFF_FFFFL) << 24;
    }

    /** NVTX_EVENTS.eventType values (ENUM_NSYS_EVENT_TYPE). */
    static final int NVTX_PUSH_POP_RANGE = 59;
    static final int NVTX_DOMAIN_CREATE = 75;

    /** CUPTI_ACTIVITY_KIND_RUNTIME.eventClass (ENUM_NSYS_EVENT_CLASS): a CUDA runtime call, a driver call. */
    static final int EVENT_CLASS_RUNTIME = 0;
    static final int EVENT_CLASS_DRIVER = 1;

    /**
     * Kernel columns vprof does not record, with the value Nsight Systems writes for every kernel of
     * both reference exports: a regular launch (ENUM_CUDA_KERNEL_LAUNCH_TYPE 1), cache configuration
     * 1 (ENUM_CUDA_FUNC_CACHE_CONFIG), the default shared memory limit (ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG
     * 0), and no TMA descriptor ({@code tensorSizeMinusOneElements} {@code []}).
     */
    static final int LAUNCH_TYPE_REGULAR = 1;
    static final int CACHE_CONFIG_AS_NSYS_WRITES = 1;
    static final int SHARED_MEM_LIMIT_DEFAULT = 0;
    static final String NO_TENSOR_DESCRIPTOR = "[]";

    /** ENUM_CUDA_MEM_KIND's "Unknown": the kind of a copy's or set's memory vprof has no record of. */
    static final int MEMORY_KIND_UNKNOWN = 7;

    /** ENUM_CUPTI_STREAM_TYPE's "Unknown stream type": vprof does not record how a stream was created. */
    static final int STREAM_TYPE_UNKNOWN = 0;

    /**
     * CUPTI's CUpti_ActivityMemoryKind (0 unknown, 1 pageable, 2 pinned, 3 device, 4 array, 5 managed,
     * 6 device static, 7 managed static) as Nsight Systems' ENUM_CUDA_MEM_KIND (0 pageable, 1 pinned,
     * 2 device, 3 array, 4 managed, 5 device static, 6 managed static, 7 unknown).
     */
    static int memoryKind(int cuptiKind) {
        return cuptiKind >= 1 && cuptiKind <= 7 ? cuptiKind - 1 : MEMORY_KIND_UNKNOWN;
    }

    /**
     * A kernel's function name without return type, scope, template and call arguments, as
     * Nsight Systems' shortName: {@code void vllm::rms_norm_kernel<c10::BFloat16>(float*, int)}
     * is {@code rms_norm_kernel}, {@code saxpy(double *, int)} is {@code saxpy}. A name it cannot
     * take apart is returned whole.
     */
    static String shortName(String demangled) {
        if (demangled == null || demangled.isEmpty()) {
            return demangled == null ? "" : demangled;
        }
        String s = demangled.strip();
        int end = s.length();
        // Trailing qualifiers after the argument list (" const").
        int close = s.lastIndexOf(')');
        if (close > 0 && s.substring(close + 1).isBlank()) {
            int open = matching(s, close, '(', ')');
            if (open > 0) {
                end = open;
            }
        }
        s = s.substring(0, end).strip();
        if (s.endsWith(">")) {
            int open = matching(s, s.length() - 1, '<', '>');
            if (open > 0) {
                s = s.substring(0, open).strip();
            }
        }
        // The return type ends at the last space outside brackets.
        int depth = 0;
        int cut = -1;
        for (int i = s.length() - 1; i >= 0; i--) {
            char c = s.charAt(i);
            if (c == '>' || c == ')' || c == ']' || c == '}') {
                depth++;
            } else if (c == '<' || c == '(' || c == '[' || c == '{') {
                depth--;
            } else if (depth == 0 && c == ' ') {
                cut = i;
                break;
            } else if (depth == 0 && c == ':' && i > 0 && s.charAt(i - 1) == ':') {
                cut = i;
                break;
            }
        }
        String name = cut >= 0 ? s.substring(cut + 1) : s;
        return name.isBlank() ? demangled : name;
    }

    /** The index of the {@code open} matching the {@code close} at {@code at}, or -1. */
    private static int matching(String s, int at, char open, char close) {
        int depth = 0;
        for (int i = at; i >= 0; i--) {
            char c = s.charAt(i);
            if (c == close) {
                depth++;
            } else if (c == open && --depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
