package dev.vprof.trace;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.vprof.capture.ArgsCodec;
import dev.vprof.capture.CaptureFormatException;
import java.io.BufferedInputStream;
import java.io.CharConversionException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The first stage of reading a PyTorch profiler trace: the file's bytes (gzip checked whole: see
 * {@link GzipStream}) through Jackson's streaming parser, bounded, into one {@link KinetoEvent}
 * at a time for a {@link Handler}, and the top-level fields. Every error is one sentence naming
 * the file. It knows JSON and Kineto's field names, nothing of ring records.
 */
final class TraceTokenizer {
    /** The longest string value of an event's fields that may be kept in a STRING record of its own. */
    static final int MAX_SHARED_VALUE = 64;
    /** The longest string token read at all: a longer one (a name of more than this) ends the read. */
    static final int MAX_TOKEN_CHARS = 32 << 20;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_TOKEN_CHARS).build())
            .build();

    /** Where the events go, and the STRING ids of the keys the encoded fields use. */
    interface Handler {
        void event(KinetoEvent e) throws IOException;

        /** The id of {@code key} among the process's records (keys of an event's fields). */
        int key(String key) throws IOException;

        /** The id of {@code key} among the records that come first (keys of the top-level fields). */
        int headKey(String key) throws IOException;

        /**
         * The STRING id a short string value of an event's fields is kept under (it repeats, as
         * {@code "PyTorch Profiler"} does on every CPU op), or 0 to write it inline.
         */
        default int valueId(char[] c, int off, int len) throws IOException {
            return 0;
        }

        /**
         * Whether an event read so far ({@code ph} and {@code cat}, which Kineto writes first) may be
         * kept: when not (a flow, a metadata event, a CPU op not asked for), its other fields are
         * skipped rather than encoded.
         */
        default boolean mayKeep(KinetoEvent e) {
            return true;
        }
    }

    /**
     * What the top level held besides its events: every field, encoded (key ids from
     * {@link Handler#headKey}) and decoded, and the names of fields too large to keep.
     */
    record Top(byte[] encoded, Map<String, Object> fields, List<String> lost) {}

    private final Path file;
    private final long maxBytes;
    private final Handler handler;
    private final NameTable names = new NameTable();
    private final KinetoEvent ev = new KinetoEvent();
    private final Map<Integer, String> headNames = new HashMap<>();
    private final ArgsCodec.Encoder top = new ArgsCodec.Encoder();
    private final List<String> lostTop = new ArrayList<>();
    private boolean fractionalTimes;
    private long jsonBytes;
    private long eventsSeen;

    TraceTokenizer(Path file, long maxBytes, Handler handler) {
        this.file = file;
        this.maxBytes = maxBytes;
        this.handler = handler;
        this.eventKeys = handler::key;
        this.headNamesKeys = this::headKey;
    }

    /** Whether a time had sub-microsecond decimals (the trace is ns-precise). */
    boolean fractionalTimes() {
        return fractionalTimes;
    }

    /** The JSON bytes read (after decompression). */
    long jsonBytes() {
        return jsonBytes;
    }

    /** Objects read from {@code traceEvents}. */
    long eventsSeen() {
        return eventsSeen;
    }

    /** Reads the whole file, handing each event on; then the top level. */
    Top read() throws IOException {
        try (InputStream raw = Files.newInputStream(file)) {
            BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
            in.mark(2);
            int b0 = in.read();
            int b1 = in.read();
            in.reset();
            InputStream json = (b0 == 0x1f && b1 == 0x8b) ? new GzipStream(in) : in;
            BoundedInputStream bounded = new BoundedInputStream(json, maxBytes);
            try (JsonParser p = FACTORY.createParser(bounded)) {
                readTop(p);
                if (p.nextToken() != null) { // reads on to the end, so gzip's trailer is checked too
                    throw new CaptureFormatException(file + " has more JSON after its top-level object; "
                            + "it is not a PyTorch profiler trace");
                }
            } finally {
                jsonBytes = bounded.count();
            }
        } catch (BoundedInputStream.LimitException e) {
            throw new CaptureFormatException(file + " holds more than " + maxBytes
                    + " bytes of JSON (--max-bytes); raise --max-bytes if the trace is really that large");
        } catch (StreamConstraintsException e) {
            throw new CaptureFormatException(file + " has a JSON token over the reader's bounds ("
                    + firstLine(e.getOriginalMessage()) + "); it is not a trace vprof reads");
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new CaptureFormatException(file + " is not valid JSON" + where + " ("
                    + firstLine(e.getOriginalMessage()) + "); check that the file is whole");
        } catch (CharConversionException e) {
            // Jackson guesses UTF-16/32 from zero bytes at the start; a PyTorch trace is UTF-8, so
            // such a file is not one, and the decoder's complaint is about bytes, not JSON.
            throw new CaptureFormatException(file + " is not UTF-8 JSON text (" + firstLine(e.getMessage())
                    + "); it is not a trace vprof reads");
        } catch (GzipStream.Damaged e) {
            throw new CaptureFormatException(file + " is damaged: " + e.getMessage() + "; copy the trace again");
        } catch (EOFException e) {
            throw new CaptureFormatException(file + " is cut short or damaged (gzip: "
                    + firstLine(e.getMessage()) + "); copy the trace again");
        }
        Map<String, Object> fields;
        try {
            fields = ArgsCodec.decodeObject(MemorySegment.ofArray(top.buffer()), 0, top.length(), headNames::get);
        } catch (ArgsCodec.Malformed e) {
            throw new IllegalStateException("the top level did not decode: " + e.getMessage(), e);
        }
        return new Top(Arrays.copyOf(top.buffer(), top.length()), fields, List.copyOf(lostTop));
    }

    static String firstLine(String s) {
        if (s == null) {
            return "no detail";
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    private void readTop(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.START_ARRAY) {
            throw new CaptureFormatException(file + " is a JSON array of trace events (Chrome's array form), "
                    + "not a PyTorch profiler trace (an object with traceEvents)");
        }
        if (t != JsonToken.START_OBJECT) {
            throw new CaptureFormatException(file + " is not a PyTorch profiler trace (it does not start with a "
                    + "JSON object)");
        }
        boolean sawEvents = false;
        top.reset();
        top.beginObject();
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            t = p.nextToken();
            if (field.equals("traceEvents")) {
                if (t != JsonToken.START_ARRAY) {
                    throw new CaptureFormatException(file + ": traceEvents is not an array");
                }
                sawEvents = true;
                readEvents(p);
                continue;
            }
            int mark = top.length();
            int depth = top.depth();
            top.key(headKey(field));
            if (!copy(p, t, top, headNamesKeys, 1) || top.overflowed()) {
                top.truncate(mark, depth);
                lostTop.add(field);
            }
        }
        top.end();
        if (t != JsonToken.END_OBJECT) {
            throw new CaptureFormatException(file + " is not a PyTorch profiler trace (unexpected " + t + ")");
        }
        if (!sawEvents) {
            throw new CaptureFormatException(file + " has no traceEvents: it is not a PyTorch profiler trace");
        }
    }

    private int headKey(String key) throws IOException {
        int id = handler.headKey(key);
        headNames.put(id, key);
        return id;
    }

    /** How {@link #copy} names keys: the records' ids, or the top level's. */
    private interface Keys {
        int id(String key) throws IOException;
    }

    private final Keys eventKeys;
    private final Keys headNamesKeys;

    /**
     * Encodes the value whose first token {@code t} is current, consuming it whole. False (the
     * value skipped) when it nests deeper than {@link ArgsCodec#MAX_DEPTH}.
     */
    private boolean copy(JsonParser p, JsonToken t, ArgsCodec.Encoder enc, Keys keys, int depth) throws IOException {
        switch (t) {
            case VALUE_STRING -> {
                char[] c = p.getTextCharacters();
                int off = p.getTextOffset();
                int len = p.getTextLength();
                int id = keys == eventKeys && len <= MAX_SHARED_VALUE ? handler.valueId(c, off, len) : 0;
                if (id > 0) {
                    enc.stringRef(id);
                } else {
                    enc.string(c, off, len);
                }
            }
            case VALUE_NUMBER_INT -> {
                if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    enc.number(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                } else {
                    enc.integer(p.getLongValue());
                }
            }
            case VALUE_NUMBER_FLOAT -> enc.number(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            case VALUE_TRUE -> enc.bool(true);
            case VALUE_FALSE -> enc.bool(false);
            case VALUE_NULL -> enc.nullValue();
            case START_ARRAY -> {
                if (depth >= ArgsCodec.MAX_DEPTH - 1) {
                    p.skipChildren();
                    return false;
                }
                enc.beginArray();
                boolean ok = true;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == null) {
                        throw new EOFException("the JSON ends inside an array");
                    }
                    ok &= copy(p, t, enc, keys, depth + 1);
                }
                enc.end();
                return ok;
            }
            case START_OBJECT -> {
                if (depth >= ArgsCodec.MAX_DEPTH - 1) {
                    p.skipChildren();
                    return false;
                }
                enc.beginObject();
                boolean ok = true;
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    enc.key(keys.id(p.currentName()));
                    ok &= copy(p, p.nextToken(), enc, keys, depth + 1);
                }
                if (t != JsonToken.END_OBJECT) {
                    throw new EOFException("the JSON ends inside an object");
                }
                enc.end();
                return ok;
            }
            default -> throw new EOFException("the JSON ends inside a value");
        }
        return true;
    }

    // ---- events ----

    private void readEvents(JsonParser p) throws IOException {
        JsonToken t;
        KinetoEvent e = ev;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.START_OBJECT) {
                if (t == null) {
                    throw new EOFException("the JSON ends inside traceEvents");
                }
                p.skipChildren();
                continue;
            }
            e.reset();
            eventsSeen++;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                t = p.nextToken();
                switch (f) {
                    case "ph" -> {
                        if (t == JsonToken.VALUE_STRING) {
                            e.ph = p.getTextLength() == 1 ? p.getTextCharacters()[p.getTextOffset()] : '?';
                        } else {
                            e.ph = '?';
                            p.skipChildren();
                        }
                    }
                    case "cat" -> {
                        if (t == JsonToken.VALUE_STRING) {
                            e.kind = TraceCategory.of(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), e);
                        } else {
                            e.kind = TraceCategory.OTHER;
                            p.skipChildren();
                        }
                    }
                    case "name" -> {
                        if (t == JsonToken.VALUE_STRING) {
                            e.name = names.of(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                        } else {
                            other(p, t, f, e);
                        }
                    }
                    case "pid" -> {
                        if (t == JsonToken.VALUE_NUMBER_INT) {
                            e.pid = p.getLongValue();
                            e.pidIsInt = true;
                        } else {
                            other(p, t, f, e);
                        }
                    }
                    case "tid" -> {
                        if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                            e.tid = p.getLongValue();
                            e.tidIsInt = true;
                        } else if (t == JsonToken.VALUE_STRING) {
                            e.tidText = p.getText();
                        } else {
                            other(p, t, f, e);
                        }
                    }
                    case "ts" -> {
                        if (t.isNumeric()) {
                            e.ts = microsToNs(p);
                            e.hasTs = true;
                            e.tsText = moreThanNs ? p.getText() : null;
                        } else {
                            other(p, t, f, e);
                        }
                    }
                    case "dur" -> {
                        if (t.isNumeric()) {
                            e.dur = microsToNs(p);
                            e.hasDur = true;
                            e.durText = moreThanNs ? p.getText() : null;
                        } else {
                            other(p, t, f, e);
                        }
                    }
                    case "args" -> {
                        if (t == JsonToken.START_OBJECT) {
                            if (handler.mayKeep(e)) {
                                readArgs(p, e);
                            } else {
                                readNames(p, e);
                            }
                        } else {
                            other(p, t, f, e);
                        }
                    }
                    default -> {
                        if (handler.mayKeep(e)) {
                            other(p, t, f, e);
                        } else {
                            p.skipChildren();
                        }
                    }
                }
            }
            if (t != JsonToken.END_OBJECT) {
                throw new EOFException("the JSON ends inside an event");
            }
            handler.event(e);
        }
    }

    /** A top-level field of an event that the mapping does not read: kept encoded. */
    private void other(JsonParser p, JsonToken t, String key, KinetoEvent e) throws IOException {
        int mark = e.other.length();
        int depth = e.other.depth();
        e.other.key(handler.key(key));
        if (copy(p, t, e.other, eventKeys, 2) && !e.other.overflowed()) {
            e.others++;
        } else {
            e.other.truncate(mark, depth);
            e.fieldsLost = true;
        }
    }

    /**
     * The args of an event. Those a record may hold exactly (an integer in its field's range: see
     * {@link KinetoEvent.Arg#fromRecord}) are read into the event and not encoded, since most of a
     * kernel's args are such and most are left out of its ARGS; the mapper encodes one from the
     * event where its record does not hold it after all. Every other arg is encoded with its span.
     */
    private void readArgs(JsonParser p, KinetoEvent e) throws IOException {
        JsonToken t;
        ArgsCodec.Encoder enc = e.args;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            t = p.nextToken();
            int slot = argSlot(f);
            KinetoEvent.Arg a = argOf[slot];
            int from = enc.length();
            int depth = enc.depth();
            boolean ok;
            switch (a) {
                case GRID, BLOCK -> {
                    enc.key(argKey(slot, f));
                    ok = a == KinetoEvent.Arg.GRID ? triple(p, t, e, e.grid, a, enc, 0x7fff_ffffL, 0xffffL, 0xffffL)
                            : triple(p, t, e, e.block, a, enc, 0x7ffL, 0x7ffL, 0x7fL);
                    if (e.isExact(a)) {
                        enc.truncate(from, depth); // read into the event: not encoded
                        continue;
                    }
                }
                case OTHER -> {
                    enc.key(argKey(slot, f));
                    ok = copy(p, t, enc, eventKeys, 2);
                }
                default -> {
                    scalar(p, t, e, a);
                    if (a.fromRecord && e.isExact(a)) {
                        continue; // read into the event: not encoded
                    }
                    enc.key(argKey(slot, f));
                    ok = copy(p, t, enc, eventKeys, 2);
                }
            }
            if (ok && !enc.overflowed()) {
                e.span();
            } else {
                enc.truncate(from, depth);
                e.fieldsLost = true;
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new EOFException("the JSON ends inside an event's args");
        }
    }

    /** The args of an event that is not kept: only a metadata event's {@code name} and {@code labels}. */
    private void readNames(JsonParser p, KinetoEvent e) throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            t = p.nextToken();
            KinetoEvent.Arg a = argOf[argSlot(f)];
            if (a == KinetoEvent.Arg.NAME || a == KinetoEvent.Arg.LABELS) {
                scalar(p, t, e, a);
            }
            p.skipChildren();
        }
        if (t != JsonToken.END_OBJECT) {
            throw new EOFException("the JSON ends inside an event's args");
        }
    }

    // Arg keys by the identity of the parser's canonical field-name Strings: an event's dozen args
    // then cost no hashing of their text (the reader's largest cost after parsing, measured).
    private static final int ARG_SLOTS = 256;
    private final String[] argName = new String[ARG_SLOTS];
    private final KinetoEvent.Arg[] argOf = new KinetoEvent.Arg[ARG_SLOTS];
    private final int[] argId = new int[ARG_SLOTS];

    /** The cache slot of arg key {@code f}, filled on a miss (a key that collides replaces the last one). */
    // Keyed by identity on purpose: a key seen again is the same String; an equal copy only refills the slot.
    @SuppressWarnings("ReferenceEquality")
    private int argSlot(String f) {
        int i = System.identityHashCode(f) & (ARG_SLOTS - 1);
        if (argName[i] != f) {
            argName[i] = f;
            argOf[i] = KinetoEvent.Arg.of(f);
            argId[i] = 0;
        }
        return i;
    }

    /** The STRING id of the key in {@code slot}, interned on first use. */
    private int argKey(int slot, String f) throws IOException {
        int id = argId[slot];
        if (id == 0) {
            id = handler.key(f);
            argId[slot] = id;
        }
        return id;
    }

    /** One of the scalar args the mapping reads, and whether a record holds it exactly. */
    private static void scalar(JsonParser p, JsonToken t, KinetoEvent e, KinetoEvent.Arg a) throws IOException {
        boolean isInt = t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
        long v = isInt ? p.getLongValue() : 0;
        long max = switch (a) {
            case BYTES -> Long.MAX_VALUE;
            case REGISTERS -> 0xff;
            case SHARED_MEMORY -> 0xff_ffff;
            case GRAPH_ID, GRAPH_NODE_ID, NAME, LABELS -> -1; // never given back from a record
            default -> Integer.MAX_VALUE;
        };
        if (isInt && v >= 0 && v <= max) {
            e.exact |= a.bit();
        }
        switch (a) {
            case DEVICE -> e.device = p.getValueAsLong(-1);
            case STREAM -> e.stream = p.getValueAsLong(-1);
            case CORRELATION -> e.correlation = p.getValueAsLong(-1);
            case CONTEXT -> e.context = p.getValueAsLong(-1);
            case CBID -> e.cbid = p.getValueAsLong(-1);
            case BYTES -> e.bytes = p.getValueAsLong(-1);
            case REGISTERS -> e.registers = p.getValueAsLong(0);
            case SHARED_MEMORY -> e.sharedMemory = p.getValueAsLong(0);
            case GRAPH_ID -> e.graphId = p.getValueAsLong(0);
            case GRAPH_NODE_ID -> e.graphNodeId = p.getValueAsLong(0);
            case NAME -> e.argName = t == JsonToken.VALUE_STRING ? p.getText() : null;
            case LABELS -> e.argLabels = t == JsonToken.VALUE_STRING ? p.getText() : null;
            default -> { }
        }
    }

    /**
     * {@code grid} or {@code block}: up to three numbers into {@code into}, and the whole value
     * encoded; exact when it is three integers within the bounds a record keeps.
     */
    private boolean triple(JsonParser p, JsonToken t, KinetoEvent e, long[] into, KinetoEvent.Arg a,
                           ArgsCodec.Encoder enc, long maxX, long maxY, long maxZ) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            return copy(p, t, enc, eventKeys, 2);
        }
        enc.beginArray();
        int i = 0;
        boolean exact = true;
        boolean ok = true;
        long[] max = {maxX, maxY, maxZ};
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == null) {
                throw new EOFException("the JSON ends inside an array");
            }
            if (i < 3 && t.isNumeric()) {
                into[i] = p.getValueAsLong(0);
            }
            boolean isInt = t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
            exact &= i < 3 && isInt && p.getLongValue() >= 0 && p.getLongValue() <= max[i];
            ok &= copy(p, t, enc, eventKeys, 3);
            i++;
        }
        enc.end();
        if (exact && i == 3) {
            e.exact |= a.bit();
        }
        return ok;
    }

    /** Set by {@link #microsToNs}: the number held more than a ns (kept as its text). */
    private boolean moreThanNs;

    /**
     * A {@code ts} or {@code dur} in µs as ns, exactly from the number's text (a double cannot hold
     * an epoch µs with its ns decimals): 3 decimals are ns, a 4th rounds half up.
     */
    private long microsToNs(JsonParser p) throws IOException {
        moreThanNs = false;
        char[] buf = p.getTextCharacters();
        int off = p.getTextOffset();
        int len = p.getTextLength();
        int end = off + len;
        int i = off;
        boolean negative = false;
        if (i < end && (buf[i] == '-' || buf[i] == '+')) {
            negative = buf[i] == '-';
            i++;
        }
        long whole = 0;
        int digits = 0;
        while (i < end && buf[i] >= '0' && buf[i] <= '9') {
            // 16 digits: an epoch in µs (Kineto's ts), whose ns still fit a long below 9.2e15 µs
            if (++digits > 16 || (digits == 16 && whole >= 922_337_203_685_477L)) {
                return slowMicrosToNs(p);
            }
            whole = whole * 10 + (buf[i] - '0');
            i++;
        }
        long frac = 0;
        int fracDigits = 0;
        boolean roundUp = false;
        if (i < end && buf[i] == '.') {
            i++;
            while (i < end && buf[i] >= '0' && buf[i] <= '9') {
                int d = buf[i] - '0';
                if (fracDigits < 3) {
                    frac = frac * 10 + d;
                    fracDigits++;
                } else {
                    if (fracDigits == 3) {
                        roundUp = d >= 5;
                        fracDigits++;
                    }
                    if (d != 0) {
                        moreThanNs = true;
                    }
                }
                if (d != 0) {
                    fractionalTimes = true;
                }
                i++;
            }
        }
        if (i != end) {
            return slowMicrosToNs(p); // an exponent
        }
        for (int k = Math.min(fracDigits, 3); k < 3; k++) {
            frac *= 10;
        }
        long ns = whole * 1000 + frac + (roundUp ? 1 : 0);
        return negative ? -ns : ns;
    }

    /** The largest time in µs whose ns a long holds. */
    private static final BigDecimal MAX_MICROS = BigDecimal.valueOf(Long.MAX_VALUE).movePointLeft(3);
    /** Half a ns in µs: a time nearer zero rounds to 0 ns. */
    private static final BigDecimal HALF_NS_IN_MICROS = new BigDecimal("0.0005");

    private long slowMicrosToNs(JsonParser p) throws IOException {
        String text = p.getText();
        String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        BigDecimal us;
        try {
            us = new BigDecimal(text);
        } catch (NumberFormatException e) { // an exponent past what an int holds: 1e99999999999
            throw new CaptureFormatException(file + " has a time of " + shown
                    + " µs, outside what 64-bit ns hold; it is not a trace vprof reads");
        }
        // Compared before any scaling: an exponent such as 1e999999999 is cheap to compare but
        // would take a billion-digit number to scale.
        if (us.abs().compareTo(MAX_MICROS) > 0) {
            throw new CaptureFormatException(file + " has a time of " + shown
                    + " µs, outside what 64-bit ns hold; it is not a trace vprof reads");
        }
        if (us.signum() != 0 && us.abs().compareTo(HALF_NS_IN_MICROS) < 0) {
            fractionalTimes = true;
            moreThanNs = true;
            return 0;
        }
        BigDecimal ns = us.movePointRight(3).setScale(0, RoundingMode.HALF_UP);
        if (us.stripTrailingZeros().scale() > 0) {
            fractionalTimes = true;
        }
        moreThanNs = us.movePointRight(3).stripTrailingZeros().scale() > 0;
        return ns.longValueExact();
    }
}
