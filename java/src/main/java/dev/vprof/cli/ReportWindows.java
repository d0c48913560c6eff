package dev.vprof.cli;

import dev.vprof.report.Narrowed;
import dev.vprof.report.Report;
import dev.vprof.time.CaptureWindow;

/**
 * The part of a capture {@code vprof report --window A..B} or {@code --request ID} narrows to, in
 * epoch ns, by {@link Narrowed}'s rule; a refusal is the command line's one sentence.
 */
final class ReportWindows {
    private ReportWindows() {}

    static CaptureWindow choose(Report whole, String window, String request) {
        if (window != null && request != null) {
            throw new CliException("choose one of --window and --request");
        }
        try {
            return window != null ? Narrowed.toWindow(whole, "--window", window) : Narrowed.toRequest(whole, request);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage());
        }
    }
}
