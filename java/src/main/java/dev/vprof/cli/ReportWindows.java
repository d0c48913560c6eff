package dev.vprof.cli;

import dev.vprof.adapt.Selection;
import dev.vprof.report.Report;
import dev.vprof.time.CaptureWindow;
import java.util.Locale;

/**
 * The part of a capture {@code vprof report --window A..B} or {@code --request ID} narrows to, in
 * epoch ns: a window read with the same piece {@code vprof diff} uses ({@link Selection}, offsets
 * from the capture window's start), or one request's span.
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
            long from = s.startEpochNs(capture);
            long to = Math.min(s.endEpochNs(capture), capture.endNs() + 1);
            if (from >= to) {
                throw new CliException("--window " + window + " starts after the capture ends (it is "
                        + String.format(Locale.ROOT, "%.3f", capture.durationNs() / 1e9) + " s long)");
            }
            return new CaptureWindow(from, to, "window");
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
