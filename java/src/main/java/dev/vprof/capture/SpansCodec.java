package dev.vprof.capture;

import dev.vprof.otlp.AnyValue;
import dev.vprof.otlp.Attribute;
import dev.vprof.otlp.ExportRequest;
import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.OtlpProtobuf;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanKind;
import dev.vprof.otlp.StatusCode;
import dev.vprof.wire.WireFormatException;
import dev.vprof.wire.WireReader;
import dev.vprof.wire.WireWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The payload of a SPANS chunk in a .vprof capture, in one of two versions told apart by the
 * first byte. Little-endian; varints are LEB128 as in protobuf.
 *
 * <p><b>Version 2: the OTLP requests as received</b> (what vprof writes). Spans are kept as the
 * bytes that arrived, so that a later vprof reads an old file with its own, perhaps corrected,
 * decoder; the capture decodes them only to count them and to answer the sender.
 * <pre>
 * u8      version (2)
 * u8      compression: 0 none, 1 DEFLATE (raw, RFC 1951) of what follows
 * [varint length of what follows once inflated, with compression 1]
 * varint  request count, then per request:
 *   u8      encoding: 1 OTLP protobuf ExportTraceServiceRequest, 2 OTLP JSON
 *   varint  body length, then the body (after any gzip was undone)
 * </pre>
 * Requests repeat their resource, scope and attribute keys, so the writer deflates them (at
 * zlib's fastest level, once a second on the drain thread) when that saves a tenth or more:
 * vLLM's OTLP JSON shrinks about eightfold. A request that this vprof cannot decode is left out
 * with a note; the others are read.
 *
 * <p><b>Version 1: spans as vprof decoded them</b> (files written before version 2, read and no
 * longer written). A batch with a per-batch string table, so the service, scope and attribute
 * keys that every span repeats are stored once.
 * <pre>
 * u8      version (1)
 * varint  string count, then per string: varint byte length, UTF-8 bytes
 * varint  span count, then per span:
 *   16 B trace id | 8 B span id | u8 parent length (0 or 8) | parent id
 *   varint name | u8 kind | u8 status code | varint status message
 *   varint service name | varint scope name | varint scope version      (string indices)
 *   fixed64 start epoch ns | varint duration ns (end - start, unsigned)
 *   varint attribute count, then per attribute: varint key, value
 * value:  u8 type, then 1 string: varint index | 2 int64: zigzag varint | 3 double: fixed64
 *         4 bool: u8 | 5 bytes: varint length, bytes | 6 array: varint n, n values
 *         7 key/value list: varint n, n (varint key, value)
 * </pre>
 *
 * Reading is bounded like the OTLP decoder: every count and length is checked against the
 * bytes left, so a corrupt chunk raises {@link OtlpFormatException} instead of allocating.
 */
public final class SpansCodec {
    private SpansCodec() {}

    /** Spans as vprof decoded them. */
    public static final int VERSION_DECODED = 1;
    /** The OTLP requests as received. */
    public static final int VERSION_REQUESTS = 2;

    private static final int ENCODING_PROTOBUF = 1;
    private static final int ENCODING_JSON = 2;
    private static final int STORED = 0;
    private static final int DEFLATED = 1;

    /** A version 2 chunk: {@code requests}' bodies as they arrived, deflated when that pays. */
    public static byte[] encodeRequests(List<ExportRequest> requests) {
        long bytes = 16;
        for (ExportRequest r : requests) {
            bytes += encodedSize(r);
        }
        WireWriter block = new WireWriter((int) Math.min(Integer.MAX_VALUE - 8, bytes));
        block.varint(requests.size());
        for (ExportRequest r : requests) {
            block.u8(r.encoding() == ExportRequest.Encoding.JSON ? ENCODING_JSON : ENCODING_PROTOBUF);
            block.varint(r.body().length);
            block.raw(r.body());
        }
        byte[] deflated = deflate(block);
        WireWriter out = new WireWriter(16 + Math.min(block.size(), deflated == null ? block.size() : deflated.length));
        out.u8(VERSION_REQUESTS);
        if (deflated != null && deflated.length <= block.size() - block.size() / 10) {
            out.u8(DEFLATED);
            out.varint(block.size());
            out.raw(deflated);
        } else {
            out.u8(STORED);
            out.append(block);
        }
        return out.toByteArray();
    }

    /** {@code block} deflated at zlib's fastest level, or null when it would not even fit its own size. */
    private static byte[] deflate(WireWriter block) {
        Deflater d = new Deflater(Deflater.BEST_SPEED, true);
        try {
            d.setInput(block.array(), 0, block.size());
            d.finish();
            byte[] out = new byte[block.size()];
            int n = 0;
            while (!d.finished() && n < out.length) {
                n += d.deflate(out, n, out.length - n);
            }
            return d.finished() ? Arrays.copyOf(out, n) : null;
        } finally {
            d.end();
        }
    }

    /** Inflates exactly {@code length} bytes from the rest of {@code r}: more, fewer or garbage is corrupt. */
    private static byte[] inflate(WireReader r, long length) throws WireFormatException {
        if (length < 0 || length > CaptureFormat.MAX_PAYLOAD) {
            throw r.error("inflated length " + length + " is over the " + CaptureFormat.MAX_PAYLOAD + "-byte limit");
        }
        byte[] in = r.readRaw(r.remaining());
        byte[] out = new byte[(int) length];
        Inflater inf = new Inflater(true);
        try {
            inf.setInput(in);
            int n = 0;
            while (n < out.length && !inf.finished()) {
                int got = inf.inflate(out, n, out.length - n);
                if (got == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    break;
                }
                n += got;
            }
            boolean more = !inf.finished() && inf.inflate(new byte[1]) > 0;
            if (n != out.length || more || !inf.finished()) {
                throw r.error("the deflated requests do not inflate to the " + length + " bytes announced");
            }
            return out;
        } catch (DataFormatException e) {
            throw r.error("the deflated requests are damaged (" + e.getMessage() + ")");
        } finally {
            inf.end();
        }
    }

    /** Bytes a request takes in a version 2 chunk. */
    public static long encodedSize(ExportRequest r) {
        return 1 + WireWriter.varintSize(r.body().length) + (long) r.body().length;
    }

    /**
     * The spans of a chunk of either version. {@code notes} hears about each request of a
     * version 2 chunk that this vprof cannot decode (the rest are kept); structural damage to
     * the chunk itself throws.
     */
    public static List<Span> decode(byte[] chunk, Consumer<String> notes) throws OtlpFormatException {
        if (chunk.length > 0 && (chunk[0] & 0xff) == VERSION_REQUESTS) {
            try {
                return readRequests(chunk, notes);
            } catch (WireFormatException e) {
                throw new OtlpFormatException(e.getMessage(), e);
            }
        }
        return decode(chunk);
    }

    /** A request as a version 2 chunk stores it. */
    record Stored(ExportRequest.Encoding encoding, byte[] body) {}

    /** The requests of a version 2 chunk, undecoded. */
    static List<Stored> stored(byte[] chunk) throws WireFormatException {
        WireReader r = new WireReader(chunk, "corrupt SPANS chunk");
        int version = r.readByte();
        if (version != VERSION_REQUESTS) {
            throw r.error("version " + version + " holds no requests");
        }
        int compression = r.readByte();
        if (compression == DEFLATED) {
            r = new WireReader(inflate(r, r.readVarint()), "corrupt SPANS chunk (inflated)");
        } else if (compression != STORED) {
            throw r.error("unknown compression " + compression);
        }
        int n = r.readCount(2);
        List<Stored> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int encoding = r.readByte();
            byte[] body = r.readRaw(r.readCount(1));
            out.add(new Stored(switch (encoding) {
                case ENCODING_PROTOBUF -> ExportRequest.Encoding.PROTOBUF;
                case ENCODING_JSON -> ExportRequest.Encoding.JSON;
                default -> throw r.error("unknown request encoding " + encoding);
            }, body));
        }
        if (!r.atEnd()) {
            throw r.error(r.remaining() + " bytes after the last request");
        }
        return out;
    }

    private static List<Span> readRequests(byte[] chunk, Consumer<String> notes) throws WireFormatException {
        List<Stored> requests = stored(chunk);
        List<Span> spans = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            Stored s = requests.get(i);
            try {
                spans.addAll(ExportRequest.decode(s.encoding(), s.body()).spans());
            } catch (OtlpFormatException bad) {
                notes.accept("request " + (i + 1) + " of " + requests.size() + " ("
                        + s.encoding().name().toLowerCase(Locale.ROOT) + ", " + s.body().length
                        + " bytes) cannot be decoded: " + bad.getMessage());
            }
        }
        return spans;
    }

    static final int T_STRING = 1;
    static final int T_INT = 2;
    static final int T_DOUBLE = 3;
    static final int T_BOOL = 4;
    static final int T_BYTES = 5;
    static final int T_ARRAY = 6;
    static final int T_KVLIST = 7;

    /** The spans of a version 1 chunk. */
    public static List<Span> decode(byte[] chunk) throws OtlpFormatException {
        try {
            return read(chunk);
        } catch (WireFormatException e) {
            throw new OtlpFormatException(e.getMessage(), e);
        }
    }

    private static List<Span> read(byte[] chunk) throws WireFormatException {
        WireReader r = new WireReader(chunk, "corrupt SPANS chunk");
        int version = r.readByte();
        if (version != VERSION_DECODED) {
            throw r.error("unsupported SPANS chunk version " + version + " (this vprof reads versions "
                    + VERSION_DECODED + " and " + VERSION_REQUESTS + ")");
        }
        String[] strings = ChunkStrings.read(r, 0);
        int nSpans = r.readCount(Span.TRACE_ID_BYTES + Span.SPAN_ID_BYTES);
        List<Span> spans = new ArrayList<>(nSpans);
        for (int i = 0; i < nSpans; i++) {
            byte[] trace = r.readRaw(Span.TRACE_ID_BYTES);
            byte[] id = r.readRaw(Span.SPAN_ID_BYTES);
            int parentLen = r.readByte();
            if (parentLen != 0 && parentLen != Span.SPAN_ID_BYTES) {
                throw r.error("parent id length " + parentLen);
            }
            byte[] parent = r.readRaw(parentLen);
            String name = ChunkStrings.lookup(r, strings);
            SpanKind kind = SpanKind.of(r.readByte());
            StatusCode status = StatusCode.of(r.readByte());
            String statusMessage = ChunkStrings.lookup(r, strings);
            String service = ChunkStrings.lookup(r, strings);
            String scopeName = ChunkStrings.lookup(r, strings);
            String scopeVersion = ChunkStrings.lookup(r, strings);
            long start = r.readFixed64();
            long end = start + r.readVarint();
            int nAttrs = r.readCount(2);
            List<Attribute> attrs = new ArrayList<>(nAttrs);
            for (int a = 0; a < nAttrs; a++) {
                attrs.add(new Attribute(ChunkStrings.lookup(r, strings), readValue(r, strings, 0)));
            }
            spans.add(new Span(trace, id, parent, name, kind, start, end, attrs, status, statusMessage,
                    service, scopeName, scopeVersion));
        }
        if (!r.atEnd()) {
            throw r.error(r.remaining() + " bytes after the last span");
        }
        return spans;
    }

    private static AnyValue readValue(WireReader r, String[] strings, int depth) throws WireFormatException {
        if (depth > OtlpProtobuf.MAX_VALUE_DEPTH) {
            throw r.error("attribute values nested deeper than " + OtlpProtobuf.MAX_VALUE_DEPTH);
        }
        int type = r.readByte();
        switch (type) {
            case T_STRING: return new AnyValue.StringValue(ChunkStrings.lookup(r, strings));
            case T_INT: { long z = r.readVarint(); return new AnyValue.LongValue((z >>> 1) ^ -(z & 1)); }
            case T_DOUBLE: return new AnyValue.DoubleValue(Double.longBitsToDouble(r.readFixed64()));
            case T_BOOL: return new AnyValue.BoolValue(r.readByte() != 0);
            case T_BYTES: return new AnyValue.BytesValue(r.readRaw(r.readCount(1)));
            case T_ARRAY: {
                int n = r.readCount(1);
                List<AnyValue> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(readValue(r, strings, depth + 1));
                }
                return new AnyValue.ArrayValue(values);
            }
            case T_KVLIST: {
                int n = r.readCount(2);
                List<Attribute> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(new Attribute(ChunkStrings.lookup(r, strings), readValue(r, strings, depth + 1)));
                }
                return new AnyValue.KeyValueList(values);
            }
            default: throw r.error("unknown attribute value type " + type);
        }
    }
}
