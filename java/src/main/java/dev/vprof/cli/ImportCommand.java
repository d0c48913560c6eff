package dev.vprof.cli;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureSalvage;
import dev.vprof.capture.ReadStats;
import dev.vprof.output.OutputTakenException;
import dev.vprof.source.CaptureSources;
import dev.vprof.source.InputKind;
import dev.vprof.diff.DiffText;
import dev.vprof.nsys.NsysExport;
import dev.vprof.trace.TorchTraceImport;
import dev.vprof.trace.TorchTraceOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `vprof import TRACE... -o FILE.vprof`: PyTorch profiler traces, or an Nsight Systems export, stored as a capture file. */
@Command(name = "import", mixinStandardHelpOptions = true,
        header = "Store PyTorch profiler (Kineto) traces or an Nsight Systems export as a .vprof capture file, or what can be read of a damaged capture.",
        description = {"Read PyTorch profiler traces (.json, .json.gz, *.pt.trace.json[.gz], or a folder of them, "
                + "one file per rank or worker, as vLLM's torch_profiler_dir holds them) and store them as one "
                + "capture: one process per file with its rank and world size, its kernels, copies, memsets, CUDA "
                + "API calls, annotations and CPU ops. Every command that reads a capture (report, export) also "
                + "reads a trace directly; import keeps a compact copy. The mapping: docs/pytorch-traces.md.",
                "", "Or read one Nsight Systems SQLite export (nsys export --type sqlite, schema 2.x or 3.x): one "
                + "process per nsys process with its kernels, copies, memsets, CUDA API calls and NVTX ranges. "
                + "The mapping: docs/nsys-input.md.",
                "", "Given one .vprof capture that is damaged, cut short or was never closed, import stores what can be "
                + "read of it as a whole, closed capture, says what was lost and exits 3."},
        footer = {"", "Examples:",
                "  vprof import ./vllm_profile -o run.vprof",
                "  vprof import rank-0.pt.trace.json.gz rank-1.pt.trace.json.gz -o job.vprof",
                "  vprof import --no-cpu-ops big.pt.trace.json.gz -o big.vprof --force",
                "  vprof import run.sqlite -o run.vprof                     # an Nsight Systems export",
                "  vprof import killed.vprof -o kept.vprof                  # what a capture cut short holds, closed"})
public final class ImportCommand extends VprofCommand {
    public ImportCommand() {
        super(ExitCode.OK, ExitCode.CANNOT, ExitCode.READ_PARTLY, ExitCode.INTERRUPTED);
    }


    @Parameters(arity = "1..*", paramLabel = "TRACE", description = "trace files or folders of them, or one nsys .sqlite export (or one .vprof capture)")
    List<Path> traces;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "the capture file to write")
    Path output;

    @Option(names = "--force", description = "replace FILE if it exists")
    boolean force;

    @Mixin
    TraceInputOptions input = new TraceInputOptions();

    @Option(names = "--no-cpu-ops", negatable = false,
            description = "count cpu_op and python_function events instead of keeping them as CPU ops")
    boolean noCpuOps;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        long max = Units.size("--max-bytes", input.maxBytes);
        OutputPath.refuseInput(output, traces, "import");
        OutputPath.refuseExisting(output, force, "capture file");
        OutputPath.checkWritable(output);
        boolean capture = false;
        for (Path t : traces) {
            capture |= CaptureOpenError.kindOf(t, null).kind() == InputKind.Kind.CAPTURE;
        }
        if (capture) {
            return salvage(out, err);
        }
        List<String> argv = new ArrayList<>(List.of("vprof", "import"));
        traces.forEach(t -> argv.add(t.toString()));
        Path nsys = nsysExport();
        if (nsys != null) {
            return importNsys(nsys, argv, out, err);
        }
        TorchTraceImport.Result result;
        try {
            result = TorchTraceImport.write(output, traces, new TorchTraceOptions(max, !noCpuOps), argv, force);
        } catch (OutputTakenException e) {
            throw OutputPath.taken(output, "-o");
        } catch (IOException e) {
            throw failed(e);
        }
        result.warnings().forEach(w -> ReadHealth.warn(err, w));
        long size;
        try {
            size = Files.size(output);
        } catch (IOException e) {
            size = -1;
        }
        for (TorchTraceImport.ProcessSummary p : result.processes()) {
            // The words and counts of `vprof report`: an NVTX range counts once, CPU ops are their own kind.
            out.printf("%s: pid %d%s, %d kernels, %d memcpy, %d memset, %d API calls, %d NVTX ranges, %d CPU ops,"
                            + " times to the %s%n",
                    p.file(), p.pid(), p.rank() == null ? "" : ", rank " + p.rank()
                            + (p.worldSize() == null ? "" : " of " + p.worldSize()),
                    p.kernels(), p.memcpys(), p.memsets(), p.apiCalls(), p.annotations(), p.cpuOps(),
                    "ns".equals(p.timePrecision()) ? "ns" : "µs");
        }
        long kernels = result.kernels();
        out.printf("wrote %s: %d processes, %d kernels, %s from %s of JSON%s%n", output, result.processes().size(),
                kernels, bytes(size), bytes(result.jsonBytes()),
                kernels > 0 && size > 0 ? String.format(" (%.1f bytes per kernel)", (double) size / kernels) : "");
        out.flush();
        err.flush();
        return ExitCode.OK.code();
    }

    /**
     * {@code import CAPTURE -o OUT}: what can be read of one capture (damaged, cut short, never
     * closed) stored as a whole, closed file; read partly, it says what was lost and exits 3.
     */
    private int salvage(PrintWriter out, PrintWriter err) {
        if (traces.size() != 1) {
            throw new CliException("import stores one capture at a time (what can be read of it), or PyTorch traces; "
                    + "give the .vprof capture alone");
        }
        Path in = traces.getFirst();
        CaptureSalvage.Result r;
        ReadStats health;
        try (CaptureReader reader = CaptureSources.open(in)) {
            health = reader.readStats();
            r = CaptureSalvage.write(reader, output, force);
        } catch (OutputTakenException e) {
            throw OutputPath.taken(output, "-o");
        } catch (NoSuchFileException e) {
            throw CaptureOpenError.of(in, e, null);
        } catch (IOException e) {
            throw new CliException("cannot write " + output + ": " + e.getMessage(), e);
        }
        ReadHealth.warnings(err, health);
        long size;
        try {
            size = Files.size(output);
        } catch (IOException e) {
            size = -1;
        }
        out.printf("wrote %s: %d chunks (%s), what %s holds that could be read, as a whole capture%n", output,
                r.chunks(), bytes(size), in);
        out.flush();
        return ReadHealth.finish(err, "import", ExitCode.OK, List.of(health));
    }

    /**
     * A trace import that failed: the output's failure when the disk is full (the records being
     * read spill beside the output, so a full disk shows while the input is read, and was called
     * "cannot read the input"), else the input's.
     */
    private CliException failed(IOException e) {
        String why = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        if (why != null && (why.contains("No space left on device") || why.contains("Disk quota exceeded"))) {
            return new CliException(ExportCommand.cannotWrite(output, e), e);
        }
        return CaptureOpenError.of(null, e, null);
    }

    /** The one Nsight Systems export among the inputs, or null when there is none. */
    private Path nsysExport() {
        Path found = null;
        for (Path t : traces) {
            boolean nsys;
            try {
                nsys = NsysExport.claims(t);
            } catch (IOException e) {
                throw CaptureOpenError.of(t, e, null);
            }
            if (nsys && traces.size() > 1) {
                throw new CliException(t + " is an Nsight Systems export: import reads one export alone, or "
                        + "PyTorch profiler traces; import each export on its own");
            }
            found = nsys ? t : found;
        }
        return found;
    }

    private Integer importNsys(Path export, List<String> argv, PrintWriter out, PrintWriter err) {
        NsysExport.Result result;
        try {
            result = NsysExport.write(output, export, argv, force);
        } catch (OutputTakenException e) {
            throw OutputPath.taken(output, "-o");
        } catch (IOException e) {
            throw CaptureOpenError.of(export, e, null);
        }
        result.notes().forEach(w -> ReadHealth.warn(err, w));
        for (NsysExport.ProcessSummary p : result.processes()) {
            out.printf("%s: pid %d (%s), %d kernels, %d memcpy, %d memset, %d API calls, %d NVTX ranges, %d NVTX marks%n",
                    export, p.pid(), DiffText.escape(p.command()), p.kernels(), p.memcpys(), p.memsets(), p.apiCalls(),
                    p.nvtxRanges(), p.nvtxMarks());
        }
        long size;
        try {
            size = Files.size(output);
        } catch (IOException e) {
            size = -1;
        }
        out.printf("wrote %s: %d processes (of %d nsys lists; the others have no CUDA or NVTX rows), %d kernels, %s, "
                        + "from an Nsight Systems export of schema %s%n", output, result.processes().size(),
                result.processes().size() + result.processesWithoutRows(), result.kernels(), bytes(size),
                result.schema() == null ? "unknown" : result.schema());
        out.flush();
        err.flush();
        return 0;
    }

    private static String bytes(long n) {
        if (n < 0) {
            return "?";
        }
        if (n < 1 << 20) {
            return String.format("%.1f KiB", n / 1024.0);
        }
        return String.format("%.1f MiB", n / (1024.0 * 1024));
    }
}
