package dev.vprof.report;

import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Selection;

/**
 * The part of a capture that a report of part of it covers, in epoch ns: a window {@code A..B}
 * parsed and placed by the time layer's one rule ({@link Selection#parseWindow},
 * {@link Selection#within}: offsets from the capture window's start, as {@code vprof diff} cuts the
 * same file), or one request's span. {@code vprof report --window/--request} and the MCP tool
 * {@code top_kernels} both ask here; each says a refusal in its own words around the sentence of
 * the {@link IllegalArgumentException}.
 */
public final class Narrowed {
    private Narrowed() {}

    /** The window {@code text} ({@code A..B} from {@code whole}'s start); {@code option} names it in a refusal. */
    public static CaptureWindow toWindow(Report whole, String option, String text) {
        Selection s = Selection.parseWindow(option, text);
        Report.WindowSummary w = whole.window();
        try {
            return s.within(new CaptureWindow(w.startNs(), w.endNs(), w.source()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " " + text + " " + e.getMessage(), e);
        }
    }

    /** The span of the request {@code id} of {@code whole}; refused when {@code whole} holds no such request. */
    public static CaptureWindow toRequest(Report whole, String id) {
        for (Report.RequestSummary r : whole.requests()) {
            if (id.equals(r.requestId())) {
                return new CaptureWindow(r.startNs(), r.startNs() + r.e2eNs(), "request");
            }
        }
        throw new IllegalArgumentException("the capture holds no request " + id
                + "; vprof report --json lists them (.requests[].request_id)");
    }
}
