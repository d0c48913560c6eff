package dev.vprof.cli;

import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ReadStats;
import dev.vprof.export.ExportFormat;
import dev.vprof.export.ProfilerSteps;
import dev.vprof.export.TraceExports;
import dev.vprof.nativelib.Posix;
import dev.vprof.output.OutputTakenException;
import dev.vprof.source.CaptureSources;
import dev.vprof.trace.TorchTraceOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `vprof export FILE -o OUT [--format perfetto|chrome|kineto]`: a capture as a trace a viewer opens. */
@Command(name = "export", mixinStandardHelpOptions = true,
        header = "Write a capture as a Perfetto, Chrome JSON or Kineto JSON trace, or an SQLite database.",
        description = {"Write a capture as a trace: Perfetto (.pftrace), Chrome trace JSON (.json) or Kineto JSON "
                + "(for Holistic Trace Analysis), or an SQLite database (.sqlite) in Nsight Systems' export schema, so "
                + "SQL written for nsys export runs on it. Kernels, NVTX ranges, capture ranges, requests with their "
                + "queue/prefill/decode phases and metric counters, on one clock. Open a .pftrace at "
                + "https://ui.perfetto.dev (Open trace file).",
                "",
                "Kineto JSON holds one process per file (OUT-pidPID.json when there are several), each with its own "
                + "rank (its RANK or LOCAL_RANK, else by device then pid) and the capture's world size, so HTA's "
                + "TraceAnalysis(trace_dir=FOLDER) loads every rank. Export into a folder of its own: HTA reads every "
                + ".json there. How to open each format: docs/viewers.md."},
        footer = {"", "Examples:",
                "  vprof export slow.vprof -o slow.pftrace                 # Perfetto: https://ui.perfetto.dev",
                "  vprof export slow.vprof -o slow.json                    # Chrome trace JSON",
                "  vprof export slow.vprof -o traces/slow.json --format kineto   # Holistic Trace Analysis",
                "  vprof export slow.vprof -o traces/slow.json --format kineto --steps nvtx:step   # with ProfilerStep#N",
                "  vprof export slow.vprof -o slow.pftrace --mangled",
                "  vprof export slow.vprof -o slow.sqlite                  # SQL, Nsight Systems' tables"})
public final class ExportCommand extends VprofCommand {
    public ExportCommand() {
        super(ExitCode.OK, ExitCode.CANNOT, ExitCode.READ_PARTLY, ExitCode.INTERRUPTED);
    }

    /** Files above this size get a progress line on a terminal. */
    static final long PROGRESS_ABOVE_BYTES = 64L << 20;

    /**
     * A JSON trace above this gets a warning: browsers load one slowly or not at all (a 2 M-kernel
     * capture is 573 MiB of Chrome JSON and 13.7 MiB as a compressed .pftrace).
     */
    static final long LARGE_JSON_BYTES = 100L << 20;

    /** {@link #LARGE_JSON_BYTES}, changeable for tests. */
    long largeJsonBytes = LARGE_JSON_BYTES;

    @Parameters(index = "0", paramLabel = "FILE", description = "a .vprof capture file, a PyTorch profiler trace (.json, .json.gz) or a folder of them")
    Path file;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT",
            description = "the trace to write; the format follows the extension (.pftrace, .perfetto-trace, "
                    + ".pt.trace.json for Kineto, other .json for Chrome JSON, .sqlite for SQLite)")
    Path out;

    @Option(names = "--otlp", paramLabel = "URL",
            description = "send each request's span, with vprof's GPU attributes and a child span per phase, to an "
                    + "OpenTelemetry Collector, Jaeger or Tempo: grpc://HOST:4317 or http://HOST:4318/v1/traces "
                    + "(instead of, or besides, -o)")
    String otlp;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "perfetto, chrome, kineto or sqlite (default: from the extension of OUT)")
    String format;

    @Option(names = "--steps", paramLabel = "nvtx:NAME",
            description = "Kineto only: mark each NVTX range NAME as a step, ProfilerStep#N as PyTorch's profiler does, "
                    + "so HTA's step analyses work, e.g. --steps nvtx:step (needs runtime API calls in the capture)")
    String steps;

    @Mixin
    TraceInputOptions input = new TraceInputOptions();

    @Mixin
    TraceInputOptions.Names naming = new TraceInputOptions.Names();

    @Option(names = "--force", description = "replace OUT (and a Kineto export's OUT-pidPID.json files) when they exist; "
            + "without it, vprof refuses")
    boolean force;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (otlp != null) {
            int sent = OtlpExport.run(file, otlp, stdout, err);
            if (sent != 0 || out == null) {
                return sent;
            }
        } else if (out == null) {
            return fail(err, "give -o OUT (the trace to write) or --otlp URL (a collector to send the request spans to)");
        }
        ExportFormat fmt;
        try {
            fmt = ExportFormat.choose(format, out);
        } catch (IllegalArgumentException e) {
            return fail(err, e.getMessage());
        }
        ProfilerSteps.Spec stepSpec = null;
        if (steps != null) {
            if (fmt != ExportFormat.KINETO) {
                return fail(err, "--steps marks steps for Holistic Trace Analysis in a Kineto export; add --format kineto "
                        + "(Perfetto and Chrome JSON show the NVTX ranges themselves)");
            }
            try {
                stepSpec = ProfilerSteps.Spec.parse(steps);
            } catch (IllegalArgumentException e) {
                return fail(err, e.getMessage());
            }
        }
        OutputPath.refuseInput(out, List.of(file), "export");
        String unwritable = unwritable(out);
        if (unwritable != null) {
            return fail(err, "cannot write " + out + ": " + unwritable + "; choose another path with -o");
        }
        if (fmt != ExportFormat.KINETO) { // a Kineto export's files are known once the processes are
            try {
                OutputPath.refuseExisting(out, force, "the trace");
            } catch (CliException e) {
                return fail(err, e.getMessage());
            }
        }
        boolean showProgress = Posix.isatty(Posix.STDERR_FILENO);
        CaptureTimeline.Result result;
        TraceExports.Exported exported;
        ReadStats health;
        try (CaptureReader reader = CaptureSources.open(file, input.torch(true))) {
            boolean large = reader.fileSize() > PROGRESS_ABOVE_BYTES && showProgress;
            result = CaptureTimeline.stream(reader, TraceExports.names(fmt, naming.names()), large ? n -> {
                err.print(String.format(Locale.ROOT, "\rvprof export: read %.1f M records", n / 1e6));
                err.flush();
            } : null);
            if (large) {
                err.print("\rvprof export: writing " + fmt.name().toLowerCase(Locale.ROOT) + " trace...          \r");
                err.flush();
            }
            health = reader.readStats();
            ReadHealth.warnings(err, health);
            String partly = ReadHealth.sentence("export", health);
            String nothing = nothingToShow(result, reader.complete());
            if (nothing != null) {
                if (large) {
                    err.print("\r" + " ".repeat(60) + "\r");
                }
                if (partly != null) { // the damage is the cause, not a range that never opened
                    err.println(partly + "; no trace was written");
                    err.flush();
                    return ExitCode.READ_PARTLY.code();
                }
                return fail(err, file + " " + nothing);
            }
            if (result.gpuOps() == 0) {
                ReadHealth.warn(err, file + " holds no GPU work (no kernels, copies or sets); the trace has only "
                        + shown(result) + (partly != null ? "; the damaged parts named below may have held it"
                                : ". Was the capture range ever opened (cudaProfilerStart, or the NVTX range)?"));
            }
            if (fmt == ExportFormat.KINETO) {
                String taken = ExportOverwrites.kinetoFileInTheWay(result.timeline(), out, force);
                if (taken != null) {
                    return fail(err, taken);
                }
            }
            // The input is open and read; what fails from here on is the writing of the output.
            try {
                exported = TraceExports.write(fmt, new TraceExports.Input(reader, file, result), out, stepSpec, force);
            } catch (OutputTakenException e) {
                throw OutputPath.taken(Path.of(e.getFile()), "-o");
            } catch (IOException e) {
                return fail(err, cannotWrite(out, e));
            }
            if (large) {
                err.print("\r" + " ".repeat(60) + "\r");
            }
        } catch (NoSuchFileException e) {
            if (e.getFile() != null && !Path.of(e.getFile()).equals(file)) {
                return fail(err, "cannot write " + out + ": " + e.getMessage());
            }
            throw CaptureOpenError.of(file, e, null);
        } catch (IOException e) {
            throw CaptureOpenError.of(file, e, null);
        } catch (IllegalArgumentException e) {
            return fail(err, e.getMessage());
        }
        result.notes().forEach(n -> ReadHealth.note(err, n));
        for (TraceExports.Said said : exported.said()) {
            if (said.warning()) {
                ReadHealth.warn(err, said.sentence());
            } else {
                ReadHealth.note(err, said.sentence());
            }
        }
        for (int i = 0; i < exported.files().size(); i++) {
            Path p = exported.files().get(i);
            if (fmt != ExportFormat.PERFETTO && fmt != ExportFormat.SQLITE && sizeOf(p) > largeJsonBytes) {
                ReadHealth.warn(err, p + " is " + TraceExports.size(p) + " of JSON, which a browser loads slowly or "
                        + "not at all; the same trace as Perfetto protobuf is a fraction of the size: vprof export "
                        + file + " -o " + pftraceBeside(p));
            }
            stdout.println(exported.wrote().get(i));
        }
        exported.howToOpen().forEach(stdout::println);
        stdout.flush();
        return ReadHealth.finish(err, "export", ExitCode.OK, List.of(health));
    }

    /**
     * Why the capture has nothing a trace could show (no GPU work, NVTX or API slices, spans or
     * metrics), or null when it has something. Written as the rest of a sentence about the file.
     */
    static String nothingToShow(CaptureTimeline.Result r, boolean complete) {
        if (r.gpuOps() > 0 || !shownParts(r).isEmpty()) {
            return null;
        }
        return "holds nothing to show: no GPU work, NVTX ranges, API calls, spans or metrics"
                + (complete ? " (the capture range was perhaps never opened: did the target call cudaProfilerStart,"
                        + " or enter the NVTX range?)"
                        : " (it was cut short before its first records chunk: the capture was killed early)")
                + "; no trace was written";
    }

    /** What a capture without GPU work still puts on the timeline. */
    private static List<String> shownParts(CaptureTimeline.Result r) {
        List<String> parts = new ArrayList<>();
        boolean cpu = r.timeline().processes().stream().anyMatch(p -> p.threads().stream()
                .anyMatch(t -> t.ranges().size() > 0 || t.apiCalls().size() > 0));
        if (cpu) {
            parts.add("NVTX ranges or API calls");
        }
        if (!r.timeline().spans().isEmpty() || r.requests() > 0) {
            parts.add("spans");
        }
        if (!r.timeline().counters().isEmpty()) {
            parts.add("metrics");
        }
        return parts;
    }

    private static String shown(CaptureTimeline.Result r) {
        return String.join(" and ", shownParts(r));
    }

    private static Path pftraceBeside(Path json) {
        String name = json.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return json.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".pftrace");
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    /** An error of the command line: one sentence, exit code 2, as every command's (never returns). */
    private static int fail(PrintWriter err, String message) {
        err.flush();
        throw new CliException(message);
    }

    /** The sentence for an output that failed while being written: it names the output, never the input. */
    static String cannotWrite(Path out, IOException e) {
        String why = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        return "cannot write " + out + ": " + why + "; nothing was written under that name"
                + (why != null && why.contains("No space left") ? " (free some space, or choose another path with -o)"
                        : "; choose another path with -o");
    }

    /** Why {@code out} cannot be written, or null when it can. */
    static String unwritable(Path out) {
        Path abs = out.toAbsolutePath();
        Path parent = abs.getParent();
        if (Files.isDirectory(abs)) {
            return "it is a directory";
        }
        if (parent == null || !Files.isDirectory(parent)) {
            return "the folder " + parent + " does not exist";
        }
        if (Files.exists(abs) ? !Files.isWritable(abs) : !Files.isWritable(parent)) {
            return "permission denied";
        }
        return null;
    }
}
