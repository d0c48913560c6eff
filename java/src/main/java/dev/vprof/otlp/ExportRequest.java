package dev.vprof.otlp;

import java.util.List;

/**
 * One OTLP trace export request as it arrived: its body (after any gzip was undone), how the body
 * is encoded, and the spans vprof's decoder accepted from it. The capture keeps the body, so that
 * a later vprof reads the file with its own, perhaps corrected, decoder.
 */
public record ExportRequest(Encoding encoding, byte[] body, List<Span> spans) {
    /** How an ExportTraceServiceRequest body is encoded. */
    public enum Encoding { PROTOBUF, JSON }

    public ExportRequest {
        spans = List.copyOf(spans);
    }

    /** Decodes {@code body} with this vprof's decoder for {@code encoding}. */
    public static DecodedBatch decode(Encoding encoding, byte[] body) throws OtlpFormatException {
        return encoding == Encoding.JSON ? OtlpJson.decodeRequest(body) : OtlpProtobuf.decodeRequest(body);
    }

    /** Spans from elsewhere (an import that is not OTLP) as a request vprof encodes itself, in protobuf. */
    public static ExportRequest of(List<Span> spans) {
        return new ExportRequest(Encoding.PROTOBUF, OtlpProtobuf.encodeRequest(spans), spans);
    }
}
