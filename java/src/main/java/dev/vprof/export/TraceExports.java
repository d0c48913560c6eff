package dev.vprof.export;

import dev.vprof.VprofVersion;
import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.capture.CaptureReader;
import dev.vprof.export.sqlite.SqliteWriter;
import dev.vprof.names.KernelNames;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code vprof export}'s entry point per format: each writes a capture's timeline to its files and
 * says what it wrote ({@link Exported}), so that the command only reads the capture, calls the one
 * for its format and prints what comes back.
 */
public final class TraceExports {
    private TraceExports() {}

    /**
     * What one export wrote and what the command says about it: a line per file on standard
     * output ({@code wrote ...}, aligned with {@code files}), how to open them, and what the format
     * itself has to say, in order.
     */
    public record Exported(List<Path> files, List<String> wrote, List<String> howToOpen, List<Said> said) {
        public Exported {
            files = List.copyOf(files);
            wrote = List.copyOf(wrote);
            howToOpen = List.copyOf(howToOpen);
            said = List.copyOf(said);
        }
    }

    /** A sentence for standard error: a warning (something may be wrong or lost) or a note. */
    public record Said(boolean warning, String sentence) {}

    /** The capture being exported: its reader (still open), its file and the timeline streamed from it. */
    public record Input(CaptureReader reader, Path file, CaptureTimeline.Result timeline) {}

    /** How the walk of {@code format} names kernels: SQLite writes every form itself, so it takes them as recorded. */
    public static KernelNames names(ExportFormat format, KernelNames chosen) {
        return format == ExportFormat.SQLITE ? KernelNames.asRecorded() : chosen;
    }

    /** Writes {@code in} to {@code out} in {@code format}; {@code steps} is Kineto's (null elsewhere). */
    public static Exported write(ExportFormat format, Input in, Path out, ProfilerSteps.Spec steps, boolean replace)
            throws IOException {
        return switch (format) {
            case PERFETTO -> perfetto(in, out, replace);
            case CHROME -> chrome(in, out, replace);
            case KINETO -> kineto(in, out, steps, replace);
            case SQLITE -> sqlite(in, out, replace);
        };
    }

    /** A Perfetto protobuf trace (.pftrace). */
    public static Exported perfetto(Input in, Path out, boolean replace) throws IOException {
        Exporter.writeAtomically(out, replace, s -> new PerfettoWriter().write(in.timeline().source(), s));
        return new Exported(List.of(out), List.of(wroteOne(out, ExportFormat.PERFETTO, in.timeline())), inPerfetto(out),
                List.of());
    }

    /** A Chrome trace JSON file, which Perfetto's UI opens too. */
    public static Exported chrome(Input in, Path out, boolean replace) throws IOException {
        Exporter.writeAtomically(out, replace, s -> new ChromeJsonWriter().write(in.timeline().source(), s));
        return new Exported(List.of(out), List.of(wroteOne(out, ExportFormat.CHROME, in.timeline())), inPerfetto(out),
                List.of());
    }

    /**
     * Kineto JSON, one file per process ({@link KinetoFiles}), for Holistic Trace Analysis; with
     * {@code steps}, each such NVTX range is a ProfilerStep#N. Says what the format leaves out.
     */
    public static Exported kineto(Input in, Path out, ProfilerSteps.Spec steps, boolean replace) throws IOException {
        CaptureTimeline.Result r = in.timeline();
        KinetoFiles.Result k = KinetoFiles.write(r.source(), out, steps, replace);
        List<Said> said = new ArrayList<>();
        int counters = r.timeline().counters().size();
        if (r.requests() > 0 || counters > 0) {
            // Kineto JSON has no place for them, so say what stayed behind and where it can be seen.
            said.add(new Said(false, "the Kineto export leaves out what the capture also holds: "
                    + (r.requests() > 0 ? r.requests() + " requests" : "")
                    + (r.requests() > 0 && counters > 0 ? " and " : "")
                    + (counters == 0 ? "" : counters + " metric counter tracks")
                    + "; export to .pftrace or .json (Perfetto, Chrome JSON) to see them on the same timeline"));
        }
        k.warnings().forEach(w -> said.add(new Said(true, w)));
        k.notes().forEach(n -> said.add(new Said(false, n)));
        List<String> wrote = new ArrayList<>();
        for (KinetoFiles.File f : k.files()) { // one process per file: what this file holds
            wrote.add(String.format(Locale.ROOT, "wrote %s (kineto, %s): %s", f.path(), size(f.path()),
                    f.summary(steps != null)));
        }
        List<String> open = new ArrayList<>();
        open.add("Holistic Trace Analysis: TraceAnalysis(trace_dir=\"" + k.paths().getFirst().toAbsolutePath().getParent()
                + "\"); Perfetto's UI also opens it (docs/viewers.md)");
        if (steps != null) {
            open.add("HTA leaves the last step out of its analyses unless you pass include_last_profiler_step=True");
        }
        return new Exported(k.paths(), wrote, open, said);
    }

    /**
     * An SQLite database in Nsight Systems' export schema; its VPROF_ tables take their numbers
     * from the report's own pass over the capture, so that they are what {@code vprof report} says.
     */
    public static Exported sqlite(Input in, Path out, boolean replace) throws IOException {
        CaptureReader reader = in.reader();
        Report report = CaptureReport.build(reader, 0);
        SqliteWriter.Facts facts = new SqliteWriter.Facts(in.file().toString(), reader.metadata().orElse(null), report,
                reader.warnings(), VprofVersion.get());
        SqliteWriter.write(in.timeline().source(), out, facts, replace);
        return new Exported(List.of(out), List.of(wroteOne(out, ExportFormat.SQLITE, in.timeline())),
                List.of("SQL in Nsight Systems' export schema: sqlite3 " + out
                        + " 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL' (tables: docs/sqlite.md)"),
                List.of());
    }

    private static String wroteOne(Path p, ExportFormat format, CaptureTimeline.Result r) {
        return String.format(Locale.ROOT, "wrote %s (%s, %s): %d GPU ops, %d processes, %d requests, %d counter tracks",
                p, format.name().toLowerCase(Locale.ROOT), size(p), r.gpuOps(), r.timeline().processes().size(),
                r.requests(), r.timeline().counters().size());
    }

    private static List<String> inPerfetto(Path p) {
        return List.of("open https://ui.perfetto.dev and drag " + p + " in",
                "offline: Perfetto's trace_processor (trace_processor_shell " + p + ") answers SQL over it");
    }

    /** A file's size as the command shows it (KiB below 1 MiB). */
    public static String size(Path p) {
        try {
            long b = Files.size(p);
            return b < 1 << 20 ? String.format(Locale.ROOT, "%.1f KiB", b / 1024.0)
                    : String.format(Locale.ROOT, "%.1f MiB", b / 1048576.0);
        } catch (IOException e) {
            return "size unknown";
        }
    }
}
