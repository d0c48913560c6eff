package dev.vprof.cli;

import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.source.CaptureSources;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import dev.vprof.report.ReportJson;
import dev.vprof.report.TextReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `vprof report FILE [--json] [--top N]`: what a capture holds, per process and per range. */
@Command(name = "report", mixinStandardHelpOptions = true,
        header = "Summarize a capture file: kernels, memcpys, GPU busy time, top kernels, drops.",
        description = {"Summarize a capture file: the triage verdict over the capture window when it holds the "
                + "server's metrics; per-request latencies (exact from spans, or a histogram quantile shown as its "
                + "bucket); per process and per capture range, kernels, memcpy and memset, GPU busy time per device, "
                + "the top kernels by total time, and every record lost."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the report was written (warnings, if any, on stderr)",
                "2:the file is missing, unreadable or not a vprof capture file", ReadPartly.EXIT_CODE_LINE},
        footer = {"", "Examples:",
                "  vprof report slow.vprof",
                "  vprof report --top 25 --mangled slow.vprof",
                "  vprof report --json slow.vprof | jq '.latency.ttft.p99'     # fields: docs/report-json.md",
                "  vprof report --json slow.vprof | jq -r '.slowest_requests[] | [.request_id, .e2e_ns] | @tsv'"})
public final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "a .vprof capture file")
    Path file;

    @Option(names = "--json", description = "write JSON instead of text")
    boolean json;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10",
            description = "kernels to list per range and overall (default: ${DEFAULT-VALUE})")
    int top;

    @Option(names = "--mangled",
            description = "show kernel names as CUPTI reported them (_ZN4vllm15rms_norm_kernel...) instead of demangled")
    boolean mangled;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (top < 0) {
            err.println("vprof report: --top must be 0 or more, not " + top);
            err.flush();
            return 2;
        }
        Report report;
        String partly;
        try (CaptureReader reader = CaptureSources.open(file)) {
            report = CaptureReport.build(reader, top, KernelNames.of(mangled));
            partly = ReadPartly.sentence(reader, "vprof report");
        } catch (CaptureFormatException e) {
            err.println("vprof report: " + e.getMessage());
            err.flush();
            return 2;
        } catch (NoSuchFileException e) {
            err.println("vprof report: " + file + " does not exist");
            err.flush();
            return 2;
        } catch (AccessDeniedException e) {
            err.println("vprof report: cannot read " + file + ": permission denied");
            err.flush();
            return 2;
        } catch (IOException e) {
            String why = Files.isDirectory(file) ? "it is a directory" : e.getMessage();
            err.println("vprof report: cannot read " + file + ": " + why);
            err.flush();
            return 2;
        }
        for (String w : report.warnings()) {
            err.println("warning: " + w);
        }
        if (json) {
            out.print(ReportJson.render(report));
            // Lost records must be seen even when the JSON goes straight into another tool.
            TextReport.dropWarnings(report).forEach(err::println);
        } else {
            out.print(TextReport.render(report));
        }
        out.flush();
        if (partly != null) {
            err.println(partly);
            err.flush();
            return ReadPartly.EXIT_READ_PARTLY;
        }
        err.flush();
        return 0;
    }
}
