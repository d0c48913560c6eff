package dev.vprof.otlp;

import java.util.ArrayList;
import java.util.List;

/**
 * The checks that decide whether one decoded span is kept or rejected (partial success).
 * Shared by the protobuf, JSON and import decoders so that every path rejects the same spans.
 */
final class SpanCheck {
    private SpanCheck() {}

    /** Why the span cannot be kept, or null when it is fine. */
    static String problem(byte[] traceId, byte[] spanId, byte[] parentSpanId, long start, long end) {
        if (traceId == null || traceId.length != Span.TRACE_ID_BYTES) {
            return "trace id must be 16 bytes, got " + (traceId == null ? 0 : traceId.length);
        }
        if (spanId == null || spanId.length != Span.SPAN_ID_BYTES) {
            return "span id must be 8 bytes, got " + (spanId == null ? 0 : spanId.length);
        }
        if (parentSpanId != null && parentSpanId.length != 0 && parentSpanId.length != Span.SPAN_ID_BYTES) {
            return "parent span id must be empty or 8 bytes, got " + parentSpanId.length;
        }
        if (allZero(traceId)) {
            return "trace id is all zeroes (invalid per OTLP)";
        }
        if (allZero(spanId)) {
            return "span id is all zeroes (invalid per OTLP)";
        }
        if (start < 0 || end < 0) {
            // fixed64 nanoseconds at or past 2^63 (the year 2262): no clock gives them, and every
            // timeline compares times as signed longs, where they would sort before 1970.
            return "time " + Long.toUnsignedString(start < 0 ? start : end)
                    + " ns is past the year 2262; not a real timestamp";
        }
        if (end < start) {
            return "end time " + Long.toUnsignedString(end) + " is before start time " + Long.toUnsignedString(start);
        }
        return null;
    }

    /** Collects rejections while decoding one request. */
    static final class Rejections {
        long count;
        final List<String> reasons = new ArrayList<>();

        void add(String where, String reason) {
            count++;
            if (reasons.size() < DecodedBatch.MAX_REASONS) {
                reasons.add(where + ": " + reason);
            }
        }
    }

    /**
     * Whether an id is all zero bytes: invalid as a trace or span id, and how some senders write
     * "no parent" (every decoder then drops the parent).
     */
    static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
