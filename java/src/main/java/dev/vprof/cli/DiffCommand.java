package dev.vprof.cli;

import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.ReadStats;
import dev.vprof.diff.Baselines;
import dev.vprof.diff.CaptureDiff;
import dev.vprof.diff.Categories;
import dev.vprof.diff.DiffException;
import dev.vprof.diff.DiffJson;
import dev.vprof.diff.DiffOptions;
import dev.vprof.diff.DiffResult;
import dev.vprof.diff.DiffText;
import dev.vprof.export.ProfilerSteps;
import dev.vprof.html.DiffPage;
import dev.vprof.names.KernelNames;
import dev.vprof.time.Selection;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `vprof diff BASE NEW` and `vprof diff FILE --split-at T`: what changed, with a verdict first. */
@Command(name = "diff", mixinStandardHelpOptions = true,
        header = "Compare two captures (or two parts of one): per kernel, category, step and request phase, with a verdict.",
        description = {"Compare two captures, or two windows or request sets of one: every kernel of both sides "
                + "(an outer join by exact name, base name, category, and with --by-shape launch shape), normalised "
                + "per step, per request or per second, with 95 %% bootstrap intervals; requests' TTFT, queue, prefill "
                + "and decode and their GPU time; the server's metrics; and a comparability gate (GPU, world size, "
                + "versions, record kinds, CUDA graphs, workload). The first line is the verdict: REGRESSED, IMPROVED, "
                + "NO CHANGE or NOT COMPARABLE. JSON keys and exit codes: docs/diff.md."},
        footer = {"", "Examples:",
                "  vprof diff before.vprof after.vprof",
                "  vprof diff --fail-on-regression --json base.vprof new.vprof > diff.json",
                "  vprof diff --baseline main-h100 --fail-on-regression new.vprof   # against a stored baseline",
                "  vprof diff demo/capture.vprof --split-at 7s          # the steady minutes against the burst",
                "  vprof diff capture.vprof --base-window 0s..10s --new-window 20s..30s",
                "  vprof diff capture.vprof --slow-requests 10          # the slowest tenth of the requests against the rest",
                "  vprof diff --step 1010 base/ test/                   # PyTorch traces, one ProfilerStep"})
public final class DiffCommand extends VprofCommand {
    public DiffCommand() {
        super(ExitCode.OK, ExitCode.REGRESSED, ExitCode.CANNOT, ExitCode.READ_PARTLY, ExitCode.NOT_COMPARABLE);
    }


    @Parameters(arity = "1..2", paramLabel = "FILE",
            description = "BASE and NEW (a .vprof capture, a PyTorch trace or a folder of rank traces); one FILE with "
                    + "--split-at, --base-window/--new-window or --slow-requests")
    List<Path> files = new ArrayList<>();

    @Option(names = "--split-at", paramLabel = "T", description = "one file: before T (from the capture's start) against after")
    String splitAt;

    @Option(names = "--base-window", paramLabel = "A..B", description = "the base side: this window of the capture")
    String baseWindow;

    @Option(names = "--new-window", paramLabel = "C..D", description = "the new side: this window of the capture")
    String newWindow;

    @Option(names = "--slow-requests", paramLabel = "P",
            description = "one file with spans: the slowest P %% of requests (new) against the rest (base)")
    Double slowRequests;

    @Option(names = "--step", paramLabel = "N", description = "only step N (ProfilerStep#N) on both sides")
    Long step;

    @Option(names = "--rank", paramLabel = "R", description = "only the processes of rank R on both sides")
    Integer rank;

    @Option(names = "--steps", paramLabel = "nvtx:NAME", defaultValue = "nvtx:step",
            description = "the NVTX range that marks a step (default: ${DEFAULT-VALUE}; ProfilerStep#N always counts)")
    String steps;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10", description = "rows shown (default: ${DEFAULT-VALUE})")
    int top;

    @Option(names = "--noise-floor", paramLabel = "PCT", defaultValue = "2",
            description = "a row's change below PCT %% is noise (default: ${DEFAULT-VALUE})")
    double noiseFloor;

    @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5",
            description = "GPU time (or request latency) change of PCT %% makes a verdict (default: ${DEFAULT-VALUE})")
    double threshold;

    @Option(names = "--by-shape", description = "also compare by launch shape (grid and block)")
    boolean byShape;

    @Option(names = "--categories", paramLabel = "FILE",
            description = "kernel categories: 'CATEGORY REGEX' a line, first match wins (default map: docs/diff.md)")
    Path categories;

    @Option(names = "--force", description = "compare even when the sides are NOT COMPARABLE")
    boolean force;

    @Option(names = "--fail-on-regression", description = "exit 1 when the verdict is REGRESSED")
    boolean failOnRegression;

    @Option(names = "--baseline", paramLabel = "NAME",
            description = "the base side is the stored baseline NAME (vprof baseline save NAME FILE); give only NEW")
    String baseline;

    @Option(names = "--accept-loss",
            description = "compare even when a side was read only partly (damaged, cut short, never closed): the "
                    + "verdict covers what could be read, the loss is still printed and the exit code is still 3")
    boolean acceptLoss;

    @Option(names = "--json", description = "write JSON instead of text (keys: docs/diff.md)")
    boolean json;

    @Option(names = "--mangled", description = "show kernel names as CUPTI reported them")
    boolean mangled;

    @Option(names = "--long", description = "show every kernel name in full in the text (--json and --html always"
            + " hold full names; by default a long name is cut, keeping visible where two rows' names differ)")
    boolean longNames;

    @Option(names = "--html", paramLabel = "OUT.html",
            description = "also write the comparison as one self-contained HTML page; an existing one is replaced only with --force (which also compares NOT COMPARABLE sides)")
    Path html;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DiffOptions options = options();
        if (html != null) {
            OutputPath.refuseExisting(html, force, "HTML file", "--html");
        }
        DiffResult result;
        ReadStats[] sides = new ReadStats[2];
        try {
            result = CaptureDiff.run(options, (b, n) -> {
                sides[0] = b;
                sides[1] = n;
                if (!acceptLoss && (b.readPartly() || n.readPartly())) {
                    throw new SideReadPartly();
                }
            });
        } catch (SideReadPartly e) {
            return refused(out, err, sides[0], sides[1]);
        } catch (DiffException e) {
            throw new CliException(e.getMessage(), e);
        } catch (CaptureFormatException e) {
            throw CaptureOpenError.of(null, e, "give two vprof captures or PyTorch traces");
        } catch (NoSuchFileException e) {
            throw CaptureOpenError.of(null, e, "give the path of a capture");
        } catch (IOException e) {
            throw CaptureOpenError.of(null, e, null);
        }
        for (String w : result.warnings()) {
            ReadHealth.warn(err, w);
        }
        out.print(json ? DiffJson.render(result, sides[0], sides[1]) : DiffText.render(result, longNames));
        if (html != null) {
            OutputPath.writeHtml("diff", DiffPage.render(result), html, force, err);
        }
        out.flush();
        if (sideLines(err, sides[0], sides[1], "the verdict covers what could be read (--accept-loss)")) {
            err.flush();
            return ExitCode.READ_PARTLY.code();
        }
        err.flush();
        if (DiffResult.NOT_COMPARABLE.equals(result.verdict())) {
            return ExitCode.NOT_COMPARABLE.code();
        }
        return failOnRegression && DiffResult.REGRESSED.equals(result.verdict()) ? ExitCode.REGRESSED.code() : ExitCode.OK.code();
    }

    /** Thrown from the sides' check: a side was read partly and the loss was not accepted. */
    private static final class SideReadPartly extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SideReadPartly() {
            super(null, null, false, false);
        }
    }

    /**
     * No verdict from a side read partly: what the readers noted, one sentence per side saying what
     * was lost, JSON with no verdict and both sides' read health, exit 3.
     */
    private int refused(PrintWriter out, PrintWriter err, ReadStats base, ReadStats next) {
        ReadHealth.warnings(err, base);
        if (next != base) {
            ReadHealth.warnings(err, next);
        }
        sideLines(err, base, next, "no verdict was given (a side read partly can make any verdict wrong); "
                + "pass --accept-loss to compare what could be read");
        if (json) {
            out.print(DiffJson.render(null, base, next));
        }
        out.flush();
        err.flush();
        return ExitCode.READ_PARTLY.code();
    }

    /** The line of each side read partly; true when there was one. */
    private static boolean sideLines(PrintWriter err, ReadStats base, ReadStats next, String whatFollows) {
        List<String> lines = new ArrayList<>();
        if (base == next) {
            lines.add(ReadHealth.side("diff", "capture both sides come from", base, whatFollows));
        } else {
            lines.add(ReadHealth.side("diff", "base side", base, whatFollows));
            lines.add(ReadHealth.side("diff", "new side", next, whatFollows));
        }
        boolean any = false;
        for (String l : lines) {
            if (l != null) {
                err.println(l);
                any = true;
            }
        }
        return any;
    }

    private DiffOptions options() {
        if (top < 1) {
            throw new CliException("--top must be 1 or more, not " + top);
        }
        if (!(noiseFloor >= 0 && noiseFloor < 100) || !(threshold > 0 && threshold < 1000)) {
            throw new CliException("--noise-floor and --threshold are percentages (2 means 2 %): noise floor 0 to 100,"
                    + " threshold above 0");
        }
        boolean windows = baseWindow != null || newWindow != null;
        int modes = (splitAt != null ? 1 : 0) + (windows ? 1 : 0) + (slowRequests != null ? 1 : 0);
        if (modes > 1) {
            throw new CliException("choose one of --split-at, --base-window/--new-window and --slow-requests");
        }
        if (baseline != null && modes > 0) {
            throw new CliException("--baseline compares a stored capture with NEW; it does not go with --split-at,"
                    + " the windows or --slow-requests");
        }
        if (windows && (baseWindow == null || newWindow == null)) {
            throw new CliException("--base-window and --new-window go together; give both, e.g. --base-window 0s..10s"
                    + " --new-window 20s..30s");
        }
        Path base, next;
        Selection bs = Selection.ALL, ns = Selection.ALL;
        if (modes == 1) {
            if (files.size() != 1) {
                throw new CliException("--split-at, the windows and --slow-requests compare parts of one capture; give"
                        + " one FILE, not " + files.size());
            }
            base = next = files.getFirst();
            try {
                if (splitAt != null) {
                    List<Selection> parts = Selection.parseSplitAt("--split-at", splitAt);
                    bs = parts.get(0);
                    ns = parts.get(1);
                } else if (windows) {
                    bs = window("--base-window", baseWindow);
                    ns = window("--new-window", newWindow);
                } else {
                    bs = Selection.rest(slowRequests);
                    ns = Selection.slowest(slowRequests);
                }
            } catch (IllegalArgumentException e) {
                throw new CliException(e.getMessage());
            }
        } else if (baseline != null) {
            if (files.size() != 1) {
                throw new CliException("with --baseline give only NEW (the base is the stored baseline), not "
                        + files.size() + " files");
            }
            try {
                base = Baselines.resolve(BaselineCommand.folder(), baseline);
            } catch (DiffException e) {
                throw new CliException(e.getMessage(), e);
            } catch (IOException e) {
                throw new CliException("cannot read the baseline " + baseline + ": " + e.getMessage(), e);
            }
            next = files.getFirst();
        } else {
            if (files.size() != 2) {
                throw new CliException("give BASE and NEW (two captures), or one capture with --split-at T");
            }
            base = files.get(0);
            next = files.get(1);
        }
        for (Path f : List.of(base, next)) {
            if (!Files.exists(f)) {
                throw new CliException(f + " does not exist; give the path of a capture");
            }
        }
        String stepRange;
        try {
            stepRange = ProfilerSteps.Spec.parse(steps).rangeName();
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage());
        }
        Categories cats = Categories.defaults();
        if (categories != null) {
            try {
                cats = Categories.load(categories);
            } catch (IOException e) {
                throw new CliException("cannot read --categories " + categories + ": " + e.getMessage(), e);
            } catch (IllegalArgumentException e) {
                throw new CliException(e.getMessage());
            }
        }
        return new DiffOptions(base, bs, next, ns, noiseFloor / 100, threshold / 100, top, byShape, force, stepRange,
                step, rank, cats, KernelNames.of(mangled));
    }

    /** {@code A..B} (durations from the capture's start; B may be empty for "to the end"). */
    static Selection window(String option, String text) {
        try {
            return Selection.parseWindow(option, text);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage());
        }
    }
}
