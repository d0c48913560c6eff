package dev.vprof.trace;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.ProcessInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads one PyTorch profiler (Kineto) trace file into ring records and the facts of its process,
 * in three stages, as Perfetto's JSON importer is laid out: {@link TraceTokenizer} (the bytes
 * through Jackson's streaming parser, bounded, into one event at a time), {@link EventMapper}
 * (each Kineto event into a vprof event, counting what it leaves out) and
 * {@link TraceRecordWriter} (vprof events into ring records, spilled). The mapping, and what is
 * dropped, is docs/pytorch-traces.md.
 */
final class TraceFileReader {
    private TraceFileReader() {}

    /** What one file held: its records (spilled) and the facts for its PROCESS chunk. */
    static final class Parsed implements AutoCloseable {
        final Path file;
        final RecordSpill records;
        final RecordSpill head;
        Integer rank;
        Integer worldSize;
        String backend;
        Integer osPid;
        String command;
        String hostName;
        Long baseNs;
        long cuptiVersion;
        Long cudaRuntimeVersion;
        Long cudaDriverVersion;
        String displayTimeUnit;
        boolean fractionalTimes;
        long minNs = Long.MAX_VALUE;
        long maxNs = Long.MIN_VALUE;
        long kernels;
        long memcpys;
        long memsets;
        long apiCalls;
        long annotations;
        long cpuOps;
        long cpuSkipped;
        long namesCut;
        long longestName;
        long negativeDurations;
        long missingTimes;
        long duplicateCorrelations;
        boolean correlationCheckFull;
        long outOfOrder;
        long hipApiCalls;
        /** CUDA calls with no cbid whose name CUPTI does not number: kept under their names. */
        long namedApiCalls;
        final Set<String> namedApiNames = new LinkedHashSet<>();
        /** Events with fields kept in an ARGS record, and with a field too large or too deep to keep. */
        long argsKept;
        long fieldsLost;
        List<String> topFieldsLost = List.of();
        /** Events of categories that are not PyTorch's (flows, spans), and PyTorch events that are not complete slices. */
        long otherEvents;
        long pytorchEvents;
        long jsonBytes;
        final List<String> devicesSeen = new ArrayList<>();
        boolean rocm;
        /** {@code thread_name} metadata by pid, then tid: the last name a thread was given. */
        final Map<Long, Map<Integer, String>> threadNames = new HashMap<>();

        Parsed(Path file, TraceRecordWriter writer) {
            this.file = file;
            this.records = writer.records;
            this.head = writer.head;
        }

        long baseOrZero() {
            return baseNs == null ? 0 : baseNs;
        }

        /** Named warnings about what this file held, one sentence each. */
        List<String> warnings() {
            List<String> w = new ArrayList<>();
            String f = file.getFileName().toString();
            if (namesCut > 0) {
                w.add(f + ": " + namesCut + " names longer than " + VprofRing.STRING_MAX
                        + " bytes were cut to that length in the records (the longest had " + longestName
                        + " bytes); the Kineto export writes them whole");
            }
            if (negativeDurations > 0) {
                w.add(f + ": " + negativeDurations + " events with a negative duration were left out");
            }
            if (missingTimes > 0) {
                w.add(f + ": " + missingTimes + " complete events without ts or dur were left out");
            }
            if (duplicateCorrelations > 0) {
                w.add(f + ": " + duplicateCorrelations + " CUDA API calls repeat a correlation id of an earlier "
                        + "call; their launch-to-kernel links are ambiguous");
            }
            if (fieldsLost > 0) {
                w.add(f + ": " + fieldsLost + " events had a field nested deeper than 32 levels or over 1 MiB; "
                        + "that field was left out");
            }
            if (!topFieldsLost.isEmpty()) {
                w.add(f + ": top-level fields over 1 MiB (or nested deeper than 32 levels) were left out: "
                        + String.join(", ", topFieldsLost));
            }
            if (hipApiCalls > 0) {
                w.add(f + ": a ROCm (HIP) trace: its kernels, copies and annotations are read, its " + hipApiCalls
                        + " HIP API calls are not (they have no CUDA callback id)");
            }
            if (baseNs == null && minNs != Long.MAX_VALUE && minNs < 946_684_800_000_000_000L) {
                w.add(f + ": the trace has no baseTimeNanoseconds and its times are not wall-clock times; "
                        + "its timeline starts near 1970");
            }
            return w;
        }

        @Override
        public void close() throws IOException {
            try {
                records.close();
            } finally {
                head.close();
            }
        }
    }

    /** Reads {@code file}; the caller closes the result. Errors are one sentence naming the file. */
    static Parsed read(Path file, TorchTraceOptions options, Path spillDir) throws IOException {
        TraceRecordWriter writer = new TraceRecordWriter(file, spillDir);
        Parsed parsed = new Parsed(file, writer);
        try {
            try {
                EventMapper mapper = new EventMapper(parsed, options, writer);
                TraceTokenizer tokenizer = new TraceTokenizer(file, options.maxBytes(), mapper);
                TraceTokenizer.Top top;
                try {
                    top = tokenizer.read();
                } finally {
                    parsed.jsonBytes = tokenizer.jsonBytes();
                    parsed.fractionalTimes = tokenizer.fractionalTimes();
                }
                if (parsed.pytorchEvents == 0) {
                    throw new CaptureFormatException(file + " holds no PyTorch profiler events (no kernel, cpu_op, "
                            + "cuda_runtime or user_annotation event): it is not a PyTorch profiler trace");
                }
                mapper.finish(top);
                parsed.namesCut = writer.namesCut;
                parsed.longestName = writer.longestName;
            } catch (ArithmeticException e) {
                throw new CaptureFormatException(file + " has times outside what 64-bit ns hold; "
                        + "it is not a trace vprof reads");
            }
            return parsed;
        } catch (IOException | RuntimeException e) {
            parsed.close();
            throw e;
        }
    }

    /** Facts for the process's PROCESS chunk. */
    static Map<String, String> facts(Parsed p) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("source", "pytorch-profiler-trace");
        f.put("file", p.file.toString());
        f.put("timePrecision", p.fractionalTimes ? "ns" : "us");
        if (p.displayTimeUnit != null) {
            f.put("displayTimeUnit", p.displayTimeUnit);
        }
        if (p.baseNs != null) {
            f.put("baseTimeNanoseconds", Long.toString(p.baseNs));
        }
        if (p.cudaRuntimeVersion != null) {
            f.put("cudaRuntimeVersion", Long.toString(p.cudaRuntimeVersion));
        }
        if (p.cudaDriverVersion != null) {
            f.put("cudaDriverVersion", Long.toString(p.cudaDriverVersion));
        }
        if (p.cuptiVersion != 0) {
            f.put("cuptiVersion", Long.toString(p.cuptiVersion));
        }
        if (p.backend != null) {
            f.put("distributedBackend", p.backend);
        }
        if (p.hostName != null) {
            f.put("host", p.hostName);
        }
        if (p.rocm) {
            f.put("platform", "rocm");
        }
        // The host process's threads: the pid the trace labels CPU (its GPU rows name streams).
        Map<Integer, String> threads = p.osPid == null ? null : p.threadNames.get((long) p.osPid);
        if (threads != null) {
            new TreeMap<>(threads).forEach((tid, name) -> f.put(ProcessInfo.THREAD_NAME_FACT + tid, name));
        }
        return f;
    }
}
