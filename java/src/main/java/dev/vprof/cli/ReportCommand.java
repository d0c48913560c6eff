package dev.vprof.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vprof.analysis.AnalysisJson;
import dev.vprof.analysis.AnalysisText;
import dev.vprof.analysis.Analyses;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ReadStats;
import dev.vprof.diff.DiffText;
import dev.vprof.engine.SpansFile;
import dev.vprof.html.HtmlReport;
import dev.vprof.names.KernelNames;
import dev.vprof.otlp.Span;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import dev.vprof.report.ReportJson;
import dev.vprof.report.TextReport;
import dev.vprof.source.CaptureSources;
import dev.vprof.time.CaptureWindow;
import dev.vprof.trace.TorchTraceOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `vprof report FILE [--json] [--top N]`: what a capture holds, per process and per range. */
@Command(name = "report", mixinStandardHelpOptions = true,
        header = "Summarize a capture file or PyTorch profiler traces: kernels, memcpys, GPU busy time, top kernels, "
                + "drops.",
        description = {"For a .vprof capture, a PyTorch profiler trace or a folder of rank traces: the triage verdict "
                + "over the capture window when it holds the "
                + "server's metrics; per-request latencies (exact from spans, or a histogram quantile shown as its "
                + "bucket); per process and per capture range, kernels, memcpy and memset, GPU busy time per device, "
                + "the top kernels by total time, and every record lost."},
        footer = {"", "Examples:",
                "  vprof report slow.vprof",
                "  vprof report --top 25 --mangled slow.vprof",
                "  vprof report ./vllm_profile --spans otel-spans.jsonl   # vLLM's torch traces and its request spans",

                "  vprof report ./ranks --section breakdown                   # idle/compute/communication/memory per rank",
                "  vprof report slow.vprof --section cuda_gpu_kern_sum,cuda_api_sum   # nsys stats' tables",
                "  vprof report slow.vprof --html slow.html                   # one file, opens offline in a browser",
                "  vprof report --json slow.vprof | jq '.latency.ttft.p99'     # fields: docs/report-json.md",
                "  vprof report --json slow.vprof | jq -r '.slowest_requests[] | [.request_id, .e2e_ns] | @tsv'"})
public final class ReportCommand extends VprofCommand {
    public ReportCommand() {
        super(ExitCode.OK, ExitCode.CANNOT, ExitCode.READ_PARTLY);
    }


    @Parameters(index = "0", paramLabel = "FILE", description = "a .vprof capture file, a PyTorch profiler trace (.json, .json.gz) or a folder of them")
    Path file;

    @Option(names = "--json", description = "write JSON instead of text")
    boolean json;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10",
            description = "kernels to list per range and overall (default: ${DEFAULT-VALUE}); with --section, rows per "
                    + "section (default 1000)")
    int top;

    @Mixin
    TraceInputOptions input = new TraceInputOptions();

    @Option(names = "--window", paramLabel = "A..B",
            description = "only the GPU work that starts in this window (from the capture's start, e.g. 10s..20s)")
    String window;

    @Option(names = "--request", paramLabel = "ID",
            description = "only the GPU work that starts while request ID runs (its llm_request span)")
    String request;

    @Mixin
    TraceInputOptions.Names naming = new TraceInputOptions.Names();

    /** --spans FILE. */
    @Mixin
    SpansOption spans = new SpansOption();

    @Option(names = "--html", paramLabel = "OUT.html",
            description = "also write the report as one self-contained HTML page (no network; open it in a browser)")
    Path html;

    @Option(names = "--force", description = "replace the --html file if it exists")
    boolean force;

    @Option(names = "--section", paramLabel = "NAME", split = ",",
            description = "print only these analyses of the whole input (comma-separated): breakdown, phases, ranks, stragglers, launch_queue, "
                    + "cuda_gpu_kern_sum, cuda_api_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, nvtx_sum, "
                    + "cpu_op_sum (docs/report-json.md)")
    List<String> sections;

    /** Rows a section lists at most unless --top says. */
    private static final int SECTION_ROWS = 1000;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (top < 0) {
            throw new CliException("--top must be 0 or more, not " + top);
        }
        if (sections != null) {
            return sections(out, err);
        }
        Report report;
        List<Span> extraSpans = SpansFile.read(spans.file, err).spans();
        if (html != null) {
            OutputPath.refuseInput(html, List.of(file), "report");
            OutputPath.refuseExisting(html, force, "HTML file", "--html");
        }
        String page = null;
        KernelNames names = naming.names();
        ReadStats health;
        try (CaptureReader reader = CaptureSources.open(file,
                input.torch(true))) {
            health = reader.readStats();
            boolean narrowed = window != null || request != null;
            // The page of the whole capture has its analyses fed by the report's own pass.
            Analyses.Pending analyses = html != null && !narrowed ? new Analyses.Pending(reader, names) : null;
            report = analyses != null ? CaptureReport.build(reader, top, names, extraSpans, analyses)
                    : CaptureReport.build(reader, top, names, extraSpans);
            CaptureWindow only = null;
            if (narrowed) {
                only = ReportWindows.choose(report, window, request);
                report = CaptureReport.build(reader, top, names, extraSpans, only);
            }
            if (html != null) {
                page = HtmlReport.render(reader, report, names, only, analyses == null ? null : analyses.result());
            }
        } catch (IOException e) {
            throw CaptureOpenError.of(file, e, null);
        }
        for (String w : report.warnings()) {
            ReadHealth.warn(err, w);
        }
        if (!json && (window != null || request != null)) {
            out.println("only the GPU work that starts in " + (window != null ? "the window " + window
                    : "request " + DiffText.escape(request)) + " of the capture:");
        }
        if (page != null) {
            OutputPath.writeHtml("report", page, html, force, err);
        }
        if (json) {
            out.print(ReportJson.render(report, health));
            // Lost records must be seen even when the JSON goes straight into another tool.
            TextReport.dropWarnings(report).forEach(w -> ReadHealth.warn(err, w));
        } else {
            out.print(TextReport.render(report));
        }
        out.flush();
        return ReadHealth.finish(err, "report", ExitCode.OK, List.of(health));
    }

    private int sections(PrintWriter out, PrintWriter err) {
        for (String name : sections) {
            if (!AnalysisText.sections().contains(name)) {
                throw new CliException("--section " + DiffText.escape(name) + " is not a section; choose from "
                        + String.join(", ", AnalysisText.sections()));
            }
        }
        if (window != null || request != null || html != null || spans.file != null) {
            throw new CliException("--section reads the whole input; drop --window, --request, --spans and --html, "
                    + "or run the report without --section");
        }
        ReadStats health;
        Analyses.Result result;
        int rows;
        try (CaptureReader reader = CaptureSources.open(file, input.torch(true))) {
            health = reader.readStats();
            rows = spec.commandLine().getParseResult().hasMatchedOption("--top") ? top : SECTION_ROWS;
            result = Analyses.run(reader, naming.names());
        } catch (IOException e) {
            throw CaptureOpenError.of(file, e, null);
        }
        if (json) {
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            ObjectNode tree = mapper.createObjectNode();
            for (String name : sections) {
                tree.set(name, AnalysisJson.render(result, name, rows));
            }
            tree.set("read_health", mapper.valueToTree(health.asMap()));
            out.print(tree.toPrettyString() + "\n");
        } else {
            for (String name : sections) {
                out.print(AnalysisText.render(result, name, rows));
                out.println();
            }
        }
        out.flush();
        return ReadHealth.finish(err, "report", ExitCode.OK, List.of(health));
    }
}
