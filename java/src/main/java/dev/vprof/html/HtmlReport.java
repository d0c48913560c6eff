package dev.vprof.html;

import dev.vprof.analysis.Analyses;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.output.OutputFile;
import dev.vprof.report.Report;
import dev.vprof.time.CaptureWindow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Writes a capture's page: the report's numbers and the page's own pass ({@link PageData}), one file. */
public final class HtmlReport {
    private HtmlReport() {}

    /** The page of the whole capture {@code reader} holds, whose report is {@code report}, with its read health. */
    public static String render(CaptureReader reader, Report report, KernelNames names) {
        return render(reader, report, names, null);
    }

    /** The page of the report narrowed to {@code only} (a window or a request; null: the whole capture). */
    public static String render(CaptureReader reader, Report report, KernelNames names, CaptureWindow only) {
        return render(reader, report, names, only, only == null ? Analyses.run(reader, names) : null);
    }

    /** As above, with the {@code analyses} found already (by the report's pass: {@code Analyses.Pending}); null: none. */
    public static String render(CaptureReader reader, Report report, KernelNames names, CaptureWindow only,
                                Analyses.Result analyses) {
        PageData data = PageData.collect(reader, report, names, only);
        return CapturePage.render(report, data, reader.readStats(), analyses); // after the passes, which may meet damage
    }

    /**
     * Writes {@code html} to {@code out}: beside it first, then moved into place, so a reader never
     * sees half a page. Returns the bytes written.
     */
    public static long write(String html, Path out) throws IOException {
        return write(html, out, true);
    }

    /** As {@link #write(String, Path)}; {@code replace}: whether an existing {@code out} may be replaced. */
    public static long write(String html, Path out, boolean replace) throws IOException {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        try (OutputFile file = OutputFile.create(out, replace)) {
            file.stream().write(bytes);
            file.commit();
        }
        return bytes.length;
    }
}
