package dev.vprof.capture;

import dev.vprof.metrics.Exemplar;
import dev.vprof.metrics.Labels;
import dev.vprof.metrics.MetricFamily;
import dev.vprof.metrics.MetricType;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.ParseError;
import dev.vprof.metrics.Sample;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.wire.WireReader;
import dev.vprof.wire.WireWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The compact form of a run of scrapes, as the capture file stores it in a METRICS chunk.
 *
 * <pre>
 * chunk   := magic "VPM1" | strings | varint entryCount | entry*
 * strings := varint count | (varint utf8Length | utf8Bytes)*      ids start at 1; 0 is null
 * entry   := u8 kind (1 scrape, 2 gap) | zigzag varlong (epochNs - previous entry's epochNs)
 *            scrape: varlong durationNs | varint errors | (varint line | str msg | str excerpt)*
 *                    | varint families | family*
 *            gap:    str error
 * family  := str name | u8 type | str help | str unit | varint samples | sample*
 * sample  := str name | labels | u8 flags | value | [zigzag varlong timestampNs] | [exemplar]
 * labels  := varint count | (str name | str value)*
 * flags   := 1 timestamp, 2 exemplar, 4 integral value (zigzag varlong, else 8-byte IEEE),
 *            8 exemplar timestamp
 * exemplar:= labels | 8-byte IEEE value | [zigzag varlong timestampNs]
 * </pre>
 * Every string (metric names, label names and values, help) is stored once per chunk, so a
 * chunk of many scrapes of the same server costs little more than its values. Integral values
 * (counts, most counters) take one to three bytes instead of eight.
 */
public final class MetricsCodec {
    private static final byte[] MAGIC = {'V', 'P', 'M', '1'};
    private static final int KIND_SCRAPE = 1;
    private static final int KIND_GAP = 2;
    private static final int F_TIMESTAMP = 1;
    private static final int F_EXEMPLAR = 2;
    private static final int F_INTEGRAL = 4;
    private static final int F_EXEMPLAR_TIMESTAMP = 8;
    private static final MetricType[] TYPES = MetricType.values();

    private MetricsCodec() {
    }

    /** Encodes scrapes and gaps, in order. */
    public static byte[] encode(List<? extends ScrapeResult> results) {
        WireWriter body = new WireWriter(4096);
        ChunkStrings strings = new ChunkStrings(1);
        long previous = 0;
        body.varint(results.size());
        for (ScrapeResult r : results) {
            body.u8(r instanceof ScrapeResult.Scrape ? KIND_SCRAPE : KIND_GAP);
            body.zigzag(r.epochNs() - previous);
            previous = r.epochNs();
            switch (r) {
                case ScrapeResult.Gap g -> body.varint(strings.id(g.error()));
                case ScrapeResult.Scrape s -> {
                    body.varint(s.durationNs());
                    body.varint(s.errors().size());
                    for (ParseError e : s.errors()) {
                        body.varint(e.line());
                        body.varint(strings.id(e.message()));
                        body.varint(strings.id(e.excerpt()));
                    }
                    List<MetricFamily> families = s.snapshot().families();
                    body.varint(families.size());
                    for (MetricFamily f : families) {
                        body.varint(strings.id(f.name()));
                        body.u8(f.type().ordinal());
                        body.varint(strings.id(f.help()));
                        body.varint(strings.id(f.unit()));
                        body.varint(f.samples().size());
                        for (Sample sample : f.samples()) {
                            writeSample(body, sample, strings);
                        }
                    }
                }
            }
        }
        return strings.chunk(MAGIC, body);
    }

    private static void writeSample(WireWriter body, Sample sample, ChunkStrings strings) {
        body.varint(strings.id(sample.name()));
        writeLabels(body, sample.labels(), strings);
        double v = sample.value();
        boolean integral = v == Math.rint(v) && Math.abs(v) < 0x1p53 && !(v == 0 && 1 / v < 0);
        Exemplar ex = sample.exemplar();
        int flags = (sample.hasTimestamp() ? F_TIMESTAMP : 0) | (ex != null ? F_EXEMPLAR : 0)
                | (integral ? F_INTEGRAL : 0) | (ex != null && ex.hasTimestamp() ? F_EXEMPLAR_TIMESTAMP : 0);
        body.u8(flags);
        if (integral) {
            body.zigzag((long) v);
        } else {
            body.fixed64(Double.doubleToRawLongBits(v));
        }
        if (sample.hasTimestamp()) {
            body.zigzag(sample.timestampNs());
        }
        if (ex != null) {
            writeLabels(body, ex.labels(), strings);
            body.fixed64(Double.doubleToRawLongBits(ex.value()));
            if (ex.hasTimestamp()) {
                body.zigzag(ex.timestampNs());
            }
        }
    }

    private static void writeLabels(WireWriter body, Labels labels, ChunkStrings strings) {
        body.varint(labels.size());
        for (int i = 0; i < labels.size(); i++) {
            body.varint(strings.id(labels.name(i)));
            body.varint(strings.id(labels.value(i)));
        }
    }

    /**
     * Decodes a chunk written by {@link #encode}.
     *
     * @throws IOException naming what is wrong when the bytes are not a whole, valid chunk
     */
    public static List<ScrapeResult> decode(byte[] chunk) throws IOException {
        WireReader in = new WireReader(chunk, "METRICS chunk is corrupt");
        for (byte b : MAGIC) {
            if (in.readByte() != (b & 0xff)) {
                throw new IOException("METRICS chunk does not start with 'VPM1' (not a metrics chunk, or a newer format)");
            }
        }
        String[] strings = ChunkStrings.read(in, 1);
        int entries = in.readCount(1);
        List<ScrapeResult> out = new ArrayList<>(entries);
        long epoch = 0;
        for (int e = 0; e < entries; e++) {
            int kind = in.readByte();
            epoch += in.readZigzag();
            if (kind == KIND_GAP) {
                out.add(new ScrapeResult.Gap(epoch, ChunkStrings.lookup(in, strings)));
            } else if (kind == KIND_SCRAPE) {
                long duration = in.readVarint();
                int nErrors = in.readCount(1);
                List<ParseError> errors = new ArrayList<>(nErrors);
                for (int i = 0; i < nErrors; i++) {
                    errors.add(new ParseError(lineNumber(in), ChunkStrings.lookup(in, strings), ChunkStrings.lookup(in, strings)));
                }
                int nFamilies = in.readCount(1);
                List<MetricFamily> families = new ArrayList<>(nFamilies);
                for (int i = 0; i < nFamilies; i++) {
                    String name = ChunkStrings.lookup(in, strings);
                    int type = in.readByte();
                    if (type >= TYPES.length || name == null) {
                        throw in.error("invalid metric family");
                    }
                    String help = ChunkStrings.lookup(in, strings);
                    String unit = ChunkStrings.lookup(in, strings);
                    int nSamples = in.readCount(1);
                    List<Sample> samples = new ArrayList<>(nSamples);
                    for (int k = 0; k < nSamples; k++) {
                        samples.add(readSample(in, strings));
                    }
                    families.add(new MetricFamily(name, TYPES[type], help, unit, samples));
                }
                out.add(new ScrapeResult.Scrape(new MetricsSnapshot(epoch, families), duration, errors));
            } else {
                throw in.error("unknown entry kind " + kind);
            }
        }
        if (!in.atEnd()) {
            throw in.error(in.remaining() + " bytes left over after the last entry");
        }
        return out;
    }

    private static Sample readSample(WireReader in, String[] strings) throws IOException {
        String name = ChunkStrings.lookup(in, strings);
        if (name == null) {
            throw in.error("sample without a name");
        }
        Labels labels = readLabels(in, strings);
        int flags = in.readByte();
        double value = (flags & F_INTEGRAL) != 0 ? (double) in.readZigzag() : Double.longBitsToDouble(in.readFixed64());
        long ts = (flags & F_TIMESTAMP) != 0 ? in.readZigzag() : Sample.NO_TIMESTAMP;
        Exemplar ex = null;
        if ((flags & F_EXEMPLAR) != 0) {
            Labels exLabels = readLabels(in, strings);
            double exValue = Double.longBitsToDouble(in.readFixed64());
            long exTs = (flags & F_EXEMPLAR_TIMESTAMP) != 0 ? in.readZigzag() : Sample.NO_TIMESTAMP;
            ex = new Exemplar(exLabels, exValue, exTs);
        }
        return new Sample(name, labels, value, ts, ex);
    }

    private static Labels readLabels(WireReader in, String[] strings) throws IOException {
        int n = in.readCount(1);
        String[] pairs = new String[2 * n];
        for (int i = 0; i < 2 * n; i++) {
            pairs[i] = ChunkStrings.lookup(in, strings);
            if (pairs[i] == null) {
                throw in.error("null label name or value");
            }
        }
        Labels labels = Labels.fromPairs(pairs, n);
        if (labels == null) {
            throw in.error("repeated label name");
        }
        return labels;
    }

    /** A line number is not a count: it may exceed the bytes left in the chunk. */
    private static int lineNumber(WireReader in) throws IOException {
        long line = in.readVarint();
        if (line < 0 || line > Integer.MAX_VALUE) {
            throw in.error("line number " + line + " out of range");
        }
        return (int) line;
    }
}
