package dev.vprof.cli;

import dev.vprof.report.Report;
import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Selection;

/**
 * The part of a capture {@code vprof report --window A..B} or {@code --request ID} narrows to, in
 * epoch ns: a window parsed and placed by the time layer's one rule ({@link Selection#parseWindow},
 * {@link Selection#within}: offsets from the capture window's start, as {@code vprof diff} cuts the
 * same file), or one request's span.
 */
final class ReportWindows {
    private ReportWindows() {}

    static CaptureWindow choose(Report whole, String window, String request) {
        if (window != null && request != null) {
            throw new CliException("choose one of --window and --request");
        }
        Report.WindowSummary w = whole.window();
        CaptureWindow capture = new CaptureWindow(w.startNs(), w.endNs(), w.source());
        if (window != null) {
            Selection s = DiffCommand.window("--window", window);
            try {
                return s.within(capture);
            } catch (IllegalArgumentException e) {
                throw new CliException("--window " + window + " " + e.getMessage());
            }
        }
        for (Report.RequestSummary r : whole.requests()) {
            if (request.equals(r.requestId())) {
                return new CaptureWindow(r.startNs(), r.startNs() + r.e2eNs(), "request");
            }
        }
        throw new CliException("the capture holds no request " + request + "; vprof report --json lists them"
                + " (.requests[].request_id)");
    }
}
