package dev.vprof.analysis;

import dev.vprof.adapt.ApiNames;
import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.SampleBudget;
import dev.vprof.aggregate.Sink;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CopyKindNames;
import dev.vprof.capture.CpuOpEvent;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.names.KernelNames;
import dev.vprof.trace.TorchTraceImport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The summaries Nsight Systems users know from {@code nsys stats}, as one sink of the aggregation
 * pass: kernels by name ({@code cuda_gpu_kern_sum}), CUDA runtime and driver calls by name
 * ({@code cuda_api_sum}), memory operations by kind, their time ({@code cuda_gpu_mem_time_sum}) and
 * their size ({@code cuda_gpu_mem_size_sum}), NVTX ranges by name ({@code nvtx_sum}), and a PyTorch
 * trace's CPU ops ({@code cpu_op} events, not its Python functions) by name. NVTX ranges are the
 * default and named domains' start/end pairs; a trace's GPU-side copies of its annotations are left
 * out. Durations are end − start in the process's ns. Bounded by names: each
 * table keeps at most {@value #MAX_NAMES} names, later names are counted under {@value #MORE};
 * NVTX ranges open at once at most {@value #MAX_OPEN} per pass (the rest are not paired, and
 * counted in {@link #unpairedRanges()}).
 */
public final class Summaries implements Sink {
    public static final int MAX_NAMES = 4096;
    public static final String MORE = "(more names)";
    static final int MAX_OPEN = 1 << 16;

    /** The tables by their section name, in the order they are shown. */
    public enum Table {
        KERNELS("cuda_gpu_kern_sum", "kernel"),
        API("cuda_api_sum", "call"),
        MEMORY_TIME("cuda_gpu_mem_time_sum", "operation"),
        MEMORY_SIZE("cuda_gpu_mem_size_sum", "operation"),
        NVTX("nvtx_sum", "range"),
        CPU_OPS("cpu_op_sum", "op");

        private final String section;
        private final String key;

        Table(String section, String key) {
            this.section = section;
            this.key = key;
        }

        /** The name {@code report --section} takes. */
        public String section() {
            return section;
        }

        /** What a row's name is. */
        public String key() {
            return key;
        }

        /** Whether the values are bytes rather than ns. */
        public boolean bytes() {
            return this == MEMORY_SIZE;
        }
    }

    /** A row: a name and its figures. */
    public record Row(String name, SummaryStats stats) {}

    private record Open(String name, long start) {}

    private record MarkerKey(int pid, int id) {}

    private final KernelNames names;
    private final SampleBudget budget = new SampleBudget(SampleBudget.DEFAULT_SAMPLES);
    private final Map<Table, Map<String, SummaryStats>> tables = new LinkedHashMap<>();
    private final Map<MarkerKey, Open> open = new HashMap<>();
    private long unpaired;

    public Summaries(KernelNames names) {
        this.names = names;
        for (Table t : Table.values()) {
            tables.put(t, new HashMap<>());
        }
    }

    private void add(Table t, String name, long value) {
        Map<String, SummaryStats> m = tables.get(t);
        SummaryStats s = m.get(name);
        if (s == null) {
            if (m.size() < MAX_NAMES) {
                s = new SummaryStats();
                m.put(name, s);
            } else {
                s = m.computeIfAbsent(MORE, x -> new SummaryStats());
            }
        }
        s.add(value, budget);
    }

    @Override
    public void kernel(Kernel k) {
        add(Table.KERNELS, names.show(k.name()), k.durationNs());
    }

    @Override
    public void memcpy(int pid, MemcpyEvent m) {
        String op = "memcpy " + CopyKindNames.memcpyKind(m.copyKind());
        add(Table.MEMORY_TIME, op, Math.max(0, m.end() - m.start()));
        add(Table.MEMORY_SIZE, op, m.bytes());
    }

    @Override
    public void memset(int pid, MemsetEvent m) {
        add(Table.MEMORY_TIME, "memset", Math.max(0, m.end() - m.start()));
        add(Table.MEMORY_SIZE, "memset", m.bytes());
    }

    @Override
    public void api(int pid, ApiEvent a) {
        add(Table.API, ApiNames.name(a), Math.max(0, a.end() - a.start()));
    }

    @Override
    public void cpuOp(int pid, CpuOpEvent op) {
        if (op.isPython()) {
            return; // python_function events are the Python stack, not operators
        }
        add(Table.CPU_OPS, op.name() == null ? "(unnamed)" : op.name(), Math.max(0, op.end() - op.start()));
    }

    @Override
    public void marker(int pid, MarkerEvent m) {
        if ((m.flags() & VprofRing.MARKER_START) != 0) {
            if (TorchTraceImport.DOMAIN_GPU_ANNOTATION.equals(m.domain())) {
                return; // a trace's GPU-side copy of an annotation: the range is counted once, on its thread
            }
            if (open.size() < MAX_OPEN) {
                open.put(new MarkerKey(pid, m.id()), new Open(m.name() == null ? "(unnamed)" : m.name(), m.timestamp()));
            } else {
                unpaired++;
            }
        } else if ((m.flags() & VprofRing.MARKER_END) != 0) {
            Open o = open.remove(new MarkerKey(pid, m.id()));
            if (o != null) {
                add(Table.NVTX, o.name(), Math.max(0, m.timestamp() - o.start()));
            }
        }
    }

    /** NVTX ranges begun past the bound of open ranges, or never ended. */
    public long unpairedRanges() {
        return unpaired + open.size();
    }

    /** The rows of {@code t}, the largest total first (ties by name). */
    public List<Row> rows(Table t) {
        List<Row> rows = new ArrayList<>();
        tables.get(t).forEach((name, s) -> rows.add(new Row(name, s)));
        rows.sort((a, b) -> a.stats().total() != b.stats().total() ? Long.compare(b.stats().total(), a.stats().total())
                : a.name().compareTo(b.name()));
        return rows;
    }
}
