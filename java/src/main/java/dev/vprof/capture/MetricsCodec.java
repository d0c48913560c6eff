package dev.vprof.capture;

import dev.vprof.metrics.Exemplar;
import dev.vprof.metrics.Labels;
import dev.vprof.metrics.MetricFamily;
import dev.vprof.metrics.MetricType;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.ParseError;
import dev.vprof.metrics.Sample;
import dev.vprof.metrics.ScrapeResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
        Sink body = new Sink(4096);
        Map<String, Integer> ids = new HashMap<>();
        List<String> table = new ArrayList<>();
        long previous = 0;
        body.varint(results.size());
        for (ScrapeResult r : results) {
            body.u8(r instanceof ScrapeResult.Scrape ? KIND_SCRAPE : KIND_GAP);
            body.zigzag(r.epochNs() - previous);
            previous = r.epochNs();
            switch (r) {
                case ScrapeResult.Gap g -> body.varint(id(g.error(), ids, table));
                case ScrapeResult.Scrape s -> {
                    body.varlong(s.durationNs());
                    body.varint(s.errors().size());
                    for (ParseError e : s.errors()) {
                        body.varint(e.line());
                        body.varint(id(e.message(), ids, table));
                        body.varint(id(e.excerpt(), ids, table));
                    }
                    List<MetricFamily> families = s.snapshot().families();
                    body.varint(families.size());
                    for (MetricFamily f : families) {
                        body.varint(id(f.name(), ids, table));
                        body.u8(f.type().ordinal());
                        body.varint(id(f.help(), ids, table));
                        body.varint(id(f.unit(), ids, table));
                        body.varint(f.samples().size());
                        for (Sample sample : f.samples()) {
                            writeSample(body, sample, ids, table);
                        }
                    }
                }
            }
        }
        Sink out = new Sink(body.size + table.size() * 16 + 16);
        out.bytes(MAGIC, MAGIC.length);
        out.varint(table.size());
        for (String str : table) {
            byte[] utf8 = str.getBytes(StandardCharsets.UTF_8);
            out.varint(utf8.length);
            out.bytes(utf8, utf8.length);
        }
        out.bytes(body.buf, body.size);
        return Arrays.copyOf(out.buf, out.size);
    }

    private static void writeSample(Sink body, Sample sample, Map<String, Integer> ids, List<String> table) {
        body.varint(id(sample.name(), ids, table));
        writeLabels(body, sample.labels(), ids, table);
        double v = sample.value();
        boolean integral = v == Math.rint(v) && Math.abs(v) < 0x1p53 && !(v == 0 && 1 / v < 0);
        Exemplar ex = sample.exemplar();
        int flags = (sample.hasTimestamp() ? F_TIMESTAMP : 0) | (ex != null ? F_EXEMPLAR : 0)
                | (integral ? F_INTEGRAL : 0) | (ex != null && ex.hasTimestamp() ? F_EXEMPLAR_TIMESTAMP : 0);
        body.u8(flags);
        if (integral) {
            body.zigzag((long) v);
        } else {
            body.i64(Double.doubleToRawLongBits(v));
        }
        if (sample.hasTimestamp()) {
            body.zigzag(sample.timestampNs());
        }
        if (ex != null) {
            writeLabels(body, ex.labels(), ids, table);
            body.i64(Double.doubleToRawLongBits(ex.value()));
            if (ex.hasTimestamp()) {
                body.zigzag(ex.timestampNs());
            }
        }
    }

    private static void writeLabels(Sink body, Labels labels, Map<String, Integer> ids, List<String> table) {
        body.varint(labels.size());
        for (int i = 0; i < labels.size(); i++) {
            body.varint(id(labels.name(i), ids, table));
            body.varint(id(labels.value(i), ids, table));
        }
    }

    private static int id(String s, Map<String, Integer> ids, List<String> table) {
        if (s == null) {
            return 0;
        }
        Integer id = ids.get(s);
        if (id == null) {
            table.add(s);
            id = table.size();
            ids.put(s, id);
        }
        return id;
    }

    /**
     * Decodes a chunk written by {@link #encode}.
     *
     * @throws IOException naming what is wrong when the bytes are not a whole, valid chunk
     */
    public static List<ScrapeResult> decode(byte[] chunk) throws IOException {
        Source in = new Source(chunk);
        for (byte b : MAGIC) {
            if (in.u8() != (b & 0xff)) {
                throw new IOException("METRICS chunk does not start with 'VPM1' (not a metrics chunk, or a newer format)");
            }
        }
        int count = in.count();
        String[] strings = new String[count + 1];
        for (int i = 1; i <= count; i++) {
            int len = in.count();
            strings[i] = new String(chunk, in.take(len), len, StandardCharsets.UTF_8);
        }
        int entries = in.count();
        List<ScrapeResult> out = new ArrayList<>(entries);
        long epoch = 0;
        for (int e = 0; e < entries; e++) {
            int kind = in.u8();
            epoch += in.zigzag();
            if (kind == KIND_GAP) {
                out.add(new ScrapeResult.Gap(epoch, in.string(strings)));
            } else if (kind == KIND_SCRAPE) {
                long duration = in.varlong();
                int nErrors = in.count();
                List<ParseError> errors = new ArrayList<>(nErrors);
                for (int i = 0; i < nErrors; i++) {
                    errors.add(new ParseError(in.count(), in.string(strings), in.string(strings)));
                }
                int nFamilies = in.count();
                List<MetricFamily> families = new ArrayList<>(nFamilies);
                for (int i = 0; i < nFamilies; i++) {
                    String name = in.string(strings);
                    int type = in.u8();
                    if (type >= TYPES.length || name == null) {
                        throw in.corrupt("invalid metric family");
                    }
                    String help = in.string(strings);
                    String unit = in.string(strings);
                    int nSamples = in.count();
                    List<Sample> samples = new ArrayList<>(nSamples);
                    for (int k = 0; k < nSamples; k++) {
                        samples.add(readSample(in, strings));
                    }
                    families.add(new MetricFamily(name, TYPES[type], help, unit, samples));
                }
                out.add(new ScrapeResult.Scrape(new MetricsSnapshot(epoch, families), duration, errors));
            } else {
                throw in.corrupt("unknown entry kind " + kind);
            }
        }
        if (in.pos != chunk.length) {
            throw in.corrupt((chunk.length - in.pos) + " bytes left over after the last entry");
        }
        return out;
    }

    private static Sample readSample(Source in, String[] strings) throws IOException {
        String name = in.string(strings);
        if (name == null) {
            throw in.corrupt("sample without a name");
        }
        Labels labels = readLabels(in, strings);
        int flags = in.u8();
        double value = (flags & F_INTEGRAL) != 0 ? (double) in.zigzag() : Double.longBitsToDouble(in.i64());
        long ts = (flags & F_TIMESTAMP) != 0 ? in.zigzag() : Sample.NO_TIMESTAMP;
        Exemplar ex = null;
        if ((flags & F_EXEMPLAR) != 0) {
            Labels exLabels = readLabels(in, strings);
            double exValue = Double.longBitsToDouble(in.i64());
            long exTs = (flags & F_EXEMPLAR_TIMESTAMP) != 0 ? in.zigzag() : Sample.NO_TIMESTAMP;
            ex = new Exemplar(exLabels, exValue, exTs);
        }
        return new Sample(name, labels, value, ts, ex);
    }

    private static Labels readLabels(Source in, String[] strings) throws IOException {
        int n = in.count();
        String[] pairs = new String[2 * n];
        for (int i = 0; i < 2 * n; i++) {
            pairs[i] = in.string(strings);
            if (pairs[i] == null) {
                throw in.corrupt("null label name or value");
            }
        }
        Labels labels = Labels.fromPairs(pairs, n);
        if (labels == null) {
            throw in.corrupt("repeated label name");
        }
        return labels;
    }

    /** A growable little-endian byte buffer with LEB128 varints. */
    private static final class Sink {
        byte[] buf;
        int size;

        Sink(int capacity) {
            buf = new byte[Math.max(16, capacity)];
        }

        private void ensure(int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        void u8(int v) {
            ensure(1);
            buf[size++] = (byte) v;
        }

        void varint(int v) {
            varlong(v & 0xffffffffL);
        }

        void varlong(long v) {
            ensure(10);
            while ((v & ~0x7fL) != 0) {
                buf[size++] = (byte) ((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            buf[size++] = (byte) v;
        }

        void zigzag(long v) {
            varlong((v << 1) ^ (v >> 63));
        }

        void i64(long v) {
            ensure(8);
            for (int i = 0; i < 8; i++) {
                buf[size++] = (byte) (v >>> (8 * i));
            }
        }

        void bytes(byte[] b, int len) {
            ensure(len);
            System.arraycopy(b, 0, buf, size, len);
            size += len;
        }
    }

    /** A bounds-checked reader: a corrupt chunk becomes an IOException, never an index error. */
    private static final class Source {
        final byte[] b;
        int pos;

        Source(byte[] b) {
            this.b = b;
        }

        IOException corrupt(String what) {
            return new IOException("METRICS chunk is corrupt at byte " + pos + ": " + what);
        }

        int u8() throws IOException {
            if (pos >= b.length) {
                throw corrupt("cut short");
            }
            return b[pos++] & 0xff;
        }

        long varlong() throws IOException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int x = u8();
                v |= (long) (x & 0x7f) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw corrupt("varint longer than 10 bytes");
        }

        long zigzag() throws IOException {
            long v = varlong();
            return (v >>> 1) ^ -(v & 1);
        }

        /** A count or length, which can never exceed the bytes left. */
        int count() throws IOException {
            long v = varlong();
            if (v < 0 || v > b.length - pos) {
                throw corrupt("count " + v + " is larger than the " + (b.length - pos) + " bytes left");
            }
            return (int) v;
        }

        int take(int len) throws IOException {
            if (len > b.length - pos) {
                throw corrupt("cut short");
            }
            int at = pos;
            pos += len;
            return at;
        }

        long i64() throws IOException {
            int at = take(8);
            long v = 0;
            for (int i = 7; i >= 0; i--) {
                v = (v << 8) | (b[at + i] & 0xff);
            }
            return v;
        }

        String string(String[] strings) throws IOException {
            long id = varlong();
            if (id < 0 || id >= strings.length) {
                throw corrupt("string id " + id + " outside the table of " + (strings.length - 1));
            }
            return strings[(int) id];
        }
    }
}
