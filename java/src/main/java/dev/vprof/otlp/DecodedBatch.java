package dev.vprof.otlp;

import java.util.List;

/**
 * The spans of one export request that were accepted, and how many were rejected with why.
 * A request whose structure is broken is not a batch at all: decoders throw
 * {@link OtlpFormatException} for it. A batch with rejections is answered with OTLP's
 * partial success (rejected_spans + error_message) and its good spans are kept.
 *
 * @param rejectReasons the first few reasons (at most {@link #MAX_REASONS}), for the response
 */
public record DecodedBatch(List<Span> spans, long rejected, List<String> rejectReasons) {
    static final int MAX_REASONS = 5;

    public DecodedBatch {
        spans = List.copyOf(spans);
        rejectReasons = List.copyOf(rejectReasons);
    }

    /** The partial-success error_message: empty when nothing was rejected. */
    public String errorMessage() {
        if (rejected == 0) {
            return "";
        }
        String more = rejected > rejectReasons.size() ? "; ..." : "";
        return "rejected " + rejected + " span(s): " + String.join("; ", rejectReasons) + more;
    }
}
