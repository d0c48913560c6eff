package dev.vprof.otlp;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One span as vprof keeps it: the fields of an OTLP trace.v1.Span that the timeline uses,
 * plus the resource's {@code service.name} and the instrumentation scope. Events and links
 * are not kept. Times are epoch nanoseconds in the sender's clock.
 *
 * @param traceId      16 bytes
 * @param spanId       8 bytes
 * @param parentSpanId 8 bytes, or empty for a root span
 * @param serviceName  the resource attribute {@code service.name}, "" when absent
 */
public record Span(
        byte[] traceId,
        byte[] spanId,
        byte[] parentSpanId,
        String name,
        SpanKind kind,
        long startEpochNs,
        long endEpochNs,
        List<Attribute> attributes,
        StatusCode status,
        String statusMessage,
        String serviceName,
        String scopeName,
        String scopeVersion) {

    public static final int TRACE_ID_BYTES = 16;
    public static final int SPAN_ID_BYTES = 8;
    private static final byte[] NO_PARENT = new byte[0];

    public Span {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(spanId, "spanId");
        if (traceId.length != TRACE_ID_BYTES) {
            throw new IllegalArgumentException("trace id must be 16 bytes, got " + traceId.length);
        }
        if (spanId.length != SPAN_ID_BYTES) {
            throw new IllegalArgumentException("span id must be 8 bytes, got " + spanId.length);
        }
        parentSpanId = parentSpanId == null ? NO_PARENT : parentSpanId;
        if (parentSpanId.length != 0 && parentSpanId.length != SPAN_ID_BYTES) {
            throw new IllegalArgumentException("parent span id must be empty or 8 bytes, got " + parentSpanId.length);
        }
        name = name == null ? "" : name;
        kind = kind == null ? SpanKind.UNSPECIFIED : kind;
        attributes = List.copyOf(attributes);
        status = status == null ? StatusCode.UNSET : status;
        statusMessage = statusMessage == null ? "" : statusMessage;
        serviceName = serviceName == null ? "" : serviceName;
        scopeName = scopeName == null ? "" : scopeName;
        scopeVersion = scopeVersion == null ? "" : scopeVersion;
    }

    public boolean isRoot() {
        return parentSpanId.length == 0;
    }

    public long durationNs() {
        return endEpochNs - startEpochNs;
    }

    /** The attribute {@code key}, or null. */
    public AnyValue attribute(String key) {
        return Attribute.find(attributes, key);
    }

    public String traceIdHex() {
        return HexFormat.of().formatHex(traceId);
    }

    public String spanIdHex() {
        return HexFormat.of().formatHex(spanId);
    }

    public String parentSpanIdHex() {
        return HexFormat.of().formatHex(parentSpanId);
    }

    /** A copy with other times (window clipping and clock alignment use this). */
    public Span withTimes(long start, long end) {
        return new Span(traceId, spanId, parentSpanId, name, kind, start, end, attributes,
                status, statusMessage, serviceName, scopeName, scopeVersion);
    }

    // The ids are arrays: compare them by content, as the rest of the record already is.
    @Override
    public boolean equals(Object o) {
        return o instanceof Span s
                && Arrays.equals(traceId, s.traceId)
                && Arrays.equals(spanId, s.spanId)
                && Arrays.equals(parentSpanId, s.parentSpanId)
                && name.equals(s.name)
                && kind == s.kind
                && startEpochNs == s.startEpochNs
                && endEpochNs == s.endEpochNs
                && attributes.equals(s.attributes)
                && status == s.status
                && statusMessage.equals(s.statusMessage)
                && serviceName.equals(s.serviceName)
                && scopeName.equals(s.scopeName)
                && scopeVersion.equals(s.scopeVersion);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(traceId), Arrays.hashCode(spanId), name, startEpochNs, endEpochNs);
    }

    @Override
    public String toString() {
        return "Span[" + serviceName + "/" + name + " trace=" + traceIdHex() + " span=" + spanIdHex()
                + " parent=" + parentSpanIdHex() + " kind=" + kind + " " + startEpochNs + ".." + endEpochNs
                + " status=" + status + (statusMessage.isEmpty() ? "" : "(" + statusMessage + ")")
                + " scope=" + scopeName + "@" + scopeVersion + " attrs=" + attributes + "]";
    }

    @Override
    public byte[] traceId() {
        return traceId.clone();
    }

    @Override
    public byte[] spanId() {
        return spanId.clone();
    }

    @Override
    public byte[] parentSpanId() {
        return parentSpanId.clone();
    }

    /** Package-private zero-copy access for the encoders. */
    byte[] traceIdRaw() {
        return traceId;
    }

    byte[] spanIdRaw() {
        return spanId;
    }

    byte[] parentSpanIdRaw() {
        return parentSpanId;
    }
}
