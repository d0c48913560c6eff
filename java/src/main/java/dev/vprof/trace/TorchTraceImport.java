package dev.vprof.trace;

import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PyTorch profiler (Kineto) traces into a capture: each trace file becomes one process of the
 * capture, holding the same ring records an agent writes (kernels, copies, memsets, CUDA API
 * calls, annotations as markers, CPU ops, the fields no record holds, devices, clock pairs) behind a PROCESS chunk with its
 * rank, world size and facts. docs/pytorch-traces.md is the mapping.
 *
 * <p>Two uses: {@link #write} makes a {@code .vprof} of traces ({@code vprof import}, and every
 * command reading a trace directly through {@code CaptureSources.open}); {@link #into} folds traces
 * into a capture being written (vLLM's own torch profiler as a capture source).
 */
public final class TorchTraceImport {
    private TorchTraceImport() {}

    /** The marker domain of {@code gpu_user_annotation} ranges (on the GPU stream's number as their thread). */
    public static final String DOMAIN_GPU_ANNOTATION = "pytorch.gpu_user_annotation";

    /** Trace files one folder may hold: more is not a folder of ranks. */
    static final int MAX_FILES = 4096;

    /** One trace file as one process of the capture. */
    public record ProcessSummary(int pid, Path file, Integer rank, Integer worldSize, long kernels, long memcpys,
                                 long memsets, long apiCalls, long annotations, long cpuOps, long jsonBytes,
                                 String timePrecision, long firstEpochNs, long lastEpochNs) {}

    /** What an import wrote: a process per file, and the warnings (one sentence each). */
    public record Result(List<ProcessSummary> processes, List<String> warnings) {
        public Result {
            processes = List.copyOf(processes);
            warnings = List.copyOf(warnings);
        }

        public long kernels() {
            return processes.stream().mapToLong(ProcessSummary::kernels).sum();
        }

        public long jsonBytes() {
            return processes.stream().mapToLong(ProcessSummary::jsonBytes).sum();
        }
    }

    /**
     * Whether {@code path} is to be read as a PyTorch profiler trace: a folder, or a file that
     * starts as gzip or as JSON does (a {@code .vprof} starts with its magic).
     */
    public static boolean looksLikeTrace(Path path) throws IOException {
        if (Files.isDirectory(path)) {
            return true;
        }
        try (InputStream in = Files.newInputStream(path)) {
            byte[] head = in.readNBytes(16);
            if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
                return true;
            }
            int i = 0;
            if (head.length >= 3 && (head[0] & 0xff) == 0xEF && (head[1] & 0xff) == 0xBB && (head[2] & 0xff) == 0xBF) {
                i = 3; // a UTF-8 byte order mark
            }
            while (i < head.length && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) {
                i++;
            }
            return i < head.length && (head[i] == '{' || head[i] == '[');
        }
    }

    /**
     * The trace files {@code inputs} name: a file as it is; a folder's {@code *.json} and
     * {@code *.json.gz} files (PyTorch's {@code *.pt.trace.json[.gz]} among them), sorted by name,
     * hidden files left out. A folder without one is an error that says so.
     */
    public static List<Path> traceFiles(List<Path> inputs) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path in : inputs) {
            if (Files.isDirectory(in)) {
                List<Path> found = new ArrayList<>();
                try (DirectoryStream<Path> dir = Files.newDirectoryStream(in)) {
                    for (Path f : dir) {
                        String n = f.getFileName().toString();
                        if (!n.startsWith(".") && (n.endsWith(".json") || n.endsWith(".json.gz"))
                                && Files.isRegularFile(f)) {
                            found.add(f);
                            if (found.size() > MAX_FILES) {
                                throw new CaptureFormatException(in + " holds more than " + MAX_FILES
                                        + " trace files; name the files to read");
                            }
                        }
                    }
                }
                if (found.isEmpty()) {
                    throw new CaptureFormatException(in + " holds no PyTorch profiler trace (*.json, *.json.gz)");
                }
                found.sort(null);
                files.addAll(found);
            } else if (Files.exists(in)) {
                files.add(in);
            } else {
                throw new NoSuchFileException(in.toString());
            }
        }
        return files;
    }

    /**
     * Writes {@code inputs} (files or folders, see {@link #traceFiles}) as a new capture file
     * {@code out} (replacing it: the caller checks {@code --force}); on failure {@code out} is removed.
     */
    public static Result write(Path out, List<Path> inputs, TorchTraceOptions options, List<String> commandLine)
            throws IOException {
        return write(out, inputs, options, commandLine, true);
    }

    /**
     * As {@link #write(Path, List, TorchTraceOptions, List)}: {@code out} appears only when whole
     * ({@link CaptureWriter#createWhole}); {@code replace}: whether an existing {@code out} may be replaced.
     */
    public static Result write(Path out, List<Path> inputs, TorchTraceOptions options, List<String> commandLine,
            boolean replace) throws IOException {
        List<Path> files = traceFiles(inputs);
        List<TraceFileReader.Parsed> parsed = parseAll(files, options, spillDir(out));
        try {
            long start = parsed.stream().mapToLong(p -> p.minNs == Long.MAX_VALUE ? Long.MAX_VALUE
                    : p.minNs + p.baseOrZero()).min().orElse(0);
            String host = parsed.stream().map(p -> p.hostName).filter(h -> h != null).findFirst().orElse("");
            Map<String, String> opts = new LinkedHashMap<>();
            opts.put("source", "pytorch-profiler-trace");
            opts.put("traces", Integer.toString(files.size()));
            CaptureMetadata meta = new CaptureMetadata(host, start == Long.MAX_VALUE ? 0 : start,
                    CaptureMetadata.class.getPackage().getImplementationVersion() == null ? "dev"
                            : CaptureMetadata.class.getPackage().getImplementationVersion(),
                    commandLine, opts);
            CaptureWriter writer = CaptureWriter.createWhole(out, meta, replace);
            boolean ok = false;
            try {
                Result r = writeParsed(writer, parsed, Set.of());
                writer.close();
                ok = true;
                return r;
            } finally {
                if (!ok) {
                    writer.abandon(); // nothing under out: it was never moved there
                }
            }
        } finally {
            closeAll(parsed);
        }
    }

    /**
     * Appends the traces {@code files} to {@code writer}, a capture being written (at the end of a
     * live capture): one PROCESS chunk and its records per file, pids chosen to differ from
     * {@code pidsInUse} (a trace's own pid where it is free). Every file is read and checked before
     * anything is written, so a bad file or a folder mixing runs adds nothing.
     */
    public static Result into(CaptureWriter writer, List<Path> files, TorchTraceOptions options, Set<Integer> pidsInUse)
            throws IOException {
        List<Path> all = traceFiles(files);
        List<TraceFileReader.Parsed> parsed = parseAll(all, options, spillDir(writer.path()));
        try {
            Result r = writeParsed(writer, parsed, pidsInUse);
            writer.flush();
            return r;
        } finally {
            closeAll(parsed);
        }
    }

    /** {@link #into} with no pid taken. */
    public static Result into(CaptureWriter writer, List<Path> files, TorchTraceOptions options) throws IOException {
        return into(writer, files, options, Set.of());
    }

    private static Path spillDir(Path out) {
        Path dir = out.toAbsolutePath().getParent();
        return dir != null && Files.isDirectory(dir) && Files.isWritable(dir) ? dir
                : Path.of(System.getProperty("java.io.tmpdir"));
    }

    private static List<TraceFileReader.Parsed> parseAll(List<Path> files, TorchTraceOptions options, Path spillDir)
            throws IOException {
        List<TraceFileReader.Parsed> parsed = new ArrayList<>();
        try {
            for (Path f : files) {
                TraceFileReader.Parsed p = TraceFileReader.read(f, options, spillDir);
                parsed.add(p);
                if (files.size() > 1) {
                    p.records.park();
                    p.head.park();
                }
            }
            checkOneRun(parsed);
            return parsed;
        } catch (IOException | RuntimeException e) {
            closeAll(parsed);
            throw e;
        }
    }

    /** A folder of ranks is one run: no rank twice, one world size. */
    private static void checkOneRun(List<TraceFileReader.Parsed> parsed) throws CaptureFormatException {
        Map<Integer, Path> byRank = new HashMap<>();
        TraceFileReader.Parsed sized = null;
        for (TraceFileReader.Parsed p : parsed) {
            if (p.rank != null) {
                Path other = byRank.putIfAbsent(p.rank, p.file);
                if (other != null) {
                    throw new CaptureFormatException(other + " and " + p.file + " are both rank " + p.rank
                            + ": they come from two runs; read the files of one run together");
                }
            }
            if (p.worldSize != null) {
                if (sized != null && !sized.worldSize.equals(p.worldSize)) {
                    throw new CaptureFormatException(sized.file + " (world size " + sized.worldSize + ") and "
                            + p.file + " (world size " + p.worldSize + ") come from two runs; "
                            + "read the files of one run together");
                }
                sized = p;
            }
        }
    }

    private static Result writeParsed(CaptureWriter writer, List<TraceFileReader.Parsed> parsed, Set<Integer> pidsInUse)
            throws IOException {
        Set<Integer> used = new HashSet<>(pidsInUse);
        List<ProcessSummary> procs = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        int synthetic = 0x40000000;
        for (TraceFileReader.Parsed p : parsed) {
            int pid;
            if (p.osPid != null && p.osPid > 0 && !used.contains(p.osPid)) {
                pid = p.osPid;
            } else {
                while (used.contains(synthetic)) {
                    synthetic++;
                }
                pid = synthetic;
            }
            used.add(pid);
            long base = p.baseOrZero();
            long first = p.minNs == Long.MAX_VALUE ? 0 : p.minNs + base;
            long last = p.maxNs == Long.MIN_VALUE ? 0 : p.maxNs + base;
            Map<String, String> facts = TraceFileReader.facts(p);
            if (p.osPid != null && p.osPid != pid) {
                facts = new LinkedHashMap<>(facts);
                facts.put("tracePid", Integer.toString(p.osPid));
            }
            String command = p.command != null ? p.command : p.file.getFileName().toString();
            writer.process(new ProcessInfo(pid, 0, command, p.cuptiVersion, 0, 0, first, p.rank, null,
                    p.worldSize, facts));
            p.head.writeTo(writer, pid, 0);
            p.records.writeTo(writer, pid, base);
            warnings.addAll(p.warnings());
            procs.add(new ProcessSummary(pid, p.file, p.rank, p.worldSize, p.kernels, p.memcpys, p.memsets,
                    p.apiCalls, p.annotations, p.cpuOps, p.jsonBytes, p.fractionalTimes ? "ns" : "us",
                    first, last));
        }
        return new Result(procs, warnings);
    }

    private static void closeAll(List<TraceFileReader.Parsed> parsed) throws IOException {
        IOException first = null;
        for (TraceFileReader.Parsed p : parsed) {
            try {
                p.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
