package dev.vprof.metrics;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Prometheus text format 0.0.4 and OpenMetrics 1.0.
 *
 * <p>What the two formats share: {@code # HELP} and {@code # TYPE} lines, samples
 * {@code name{label="value",...} value [timestamp]}, label values escaping {@code \\},
 * {@code \"} and {@code \n}, values {@code NaN}, {@code +Inf}, {@code -Inf}. Where they differ:
 * <ul>
 * <li>timestamps are integer milliseconds in Prometheus text and (fractional) seconds in
 *     OpenMetrics; both become epoch nanoseconds here;</li>
 * <li>HELP text escapes only {@code \\} and {@code \n} in Prometheus text, and also {@code \"}
 *     in OpenMetrics;</li>
 * <li>OpenMetrics adds {@code # UNIT}, the types gaugehistogram, info, stateset and unknown,
 *     exemplars after {@code " # "}, names a counter family without its {@code _total}, and
 *     requires {@code # EOF} as the last line; other comment lines are errors there.</li>
 * </ul>
 * Parsing is lenient where it loses nothing (runs of blanks, a trailing comma in a label set,
 * {@code \r\n} line ends, exemplars in the classic format) and strict where a value could be
 * misread. Every line that cannot be read yields one {@link ParseError} naming the line; the
 * other lines are kept. Instances are immutable and thread-safe.
 */
public final class ExpositionParser {
    /** vLLM with many models/engines is a few MB; 32 MiB is far past any sane exposition. */
    public static final int DEFAULT_MAX_CHARS = 32 << 20;
    /** Long label values exist (info metrics carry whole configs), but not 64 KiB ones. */
    public static final int DEFAULT_MAX_LINE_LENGTH = 64 << 10;
    /** OpenMetrics limits an exemplar's label set to 128 UTF-8 characters. */
    static final int MAX_EXEMPLAR_LABEL_CHARS = 128;

    private static final String[] SUFFIXES = {
        "_total", "_created", "_bucket", "_sum", "_count", "_info", "_gbucket", "_gsum", "_gcount"
    };

    private final int maxChars;
    private final int maxLineLength;

    public ExpositionParser() {
        this(DEFAULT_MAX_CHARS, DEFAULT_MAX_LINE_LENGTH);
    }

    public ExpositionParser(int maxChars, int maxLineLength) {
        if (maxChars <= 0 || maxLineLength <= 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
        this.maxChars = maxChars;
        this.maxLineLength = maxLineLength;
    }

    /**
     * Parses a UTF-8 body.
     *
     * @throws ExpositionRejectedException when the body is larger than the size limit
     */
    public Exposition parse(byte[] body, ExpositionFormat format) {
        if (body.length > maxChars) {
            throw tooLarge(body.length, "bytes");
        }
        return parse(new String(body, StandardCharsets.UTF_8), format);
    }

    /**
     * Parses an exposition.
     *
     * @throws ExpositionRejectedException when the text is longer than the size limit
     */
    public Exposition parse(String text, ExpositionFormat format) {
        if (text.length() > maxChars) {
            throw tooLarge(text.length(), "characters");
        }
        return new Run(text, format, maxLineLength).run();
    }

    private ExpositionRejectedException tooLarge(int size, String unit) {
        return new ExpositionRejectedException("exposition is " + size + " " + unit + "; the limit is "
                + maxChars + " (is this really a /metrics endpoint?)");
    }

    private static final class FamilyBuilder {
        final String name;
        MetricType type = MetricType.UNKNOWN;
        boolean typed;
        String help;
        String unit;
        final List<Sample> samples = new ArrayList<>();
        /** The line of each sample, for errors found once the whole family is read. */
        final List<Integer> lines = new ArrayList<>();

        FamilyBuilder(String name) {
            this.name = name;
        }

        /** The suffix of {@code sampleName} after this family's name, or null if it does not fit. */
        String suffixOf(String sampleName) {
            if (!sampleName.startsWith(name)) {
                return null;
            }
            String suffix = sampleName.length() == name.length() ? "" : sampleName.substring(name.length());
            return type.acceptsSuffix(suffix) ? suffix : null;
        }
    }

    /** The state of one parse; confined to the calling thread. */
    private static final class Run {
        private final String s;
        private final ExpositionFormat format;
        private final boolean openMetrics;
        private final int maxLineLength;
        private final List<ParseError> errors = new ArrayList<>();
        private final Map<String, FamilyBuilder> families = new LinkedHashMap<>();
        private FamilyBuilder current;

        private int lineNo;
        private int lineStart;
        private int end;
        private int pos;
        /** Set by a label parse that found {@code {"quoted.name", ...}}. */
        private String quotedName;
        private String[] labelBuf = new String[16];
        /** Set when a number token fails to parse. */
        private boolean badNumber;

        Run(String s, ExpositionFormat format, int maxLineLength) {
            this.s = s;
            this.format = format;
            this.openMetrics = format == ExpositionFormat.OPENMETRICS;
            this.maxLineLength = maxLineLength;
        }

        Exposition run() {
            int n = s.length();
            int start = 0;
            boolean eof = false;
            while (start < n) {
                int nl = s.indexOf('\n', start);
                int lineEnd = nl < 0 ? n : nl;
                lineNo++;
                lineStart = start;
                end = lineEnd;
                if (end > start && s.charAt(end - 1) == '\r') {
                    end--;
                }
                if (eof) {
                    if (!isBlank(start, end)) {
                        error("text after '# EOF'; OpenMetrics requires '# EOF' to be the last line");
                        break;
                    }
                } else if (end - start > maxLineLength) {
                    error("line is " + (end - start) + " characters long; the limit is " + maxLineLength);
                } else {
                    String rule = openMetrics ? OpenMetricsLines.check(s.substring(start, end)) : null;
                    if (rule != null && !(start == n)) {
                        error(rule);
                    } else {
                        eof = parseLine();
                    }
                }
                start = lineEnd + 1;
            }
            if (openMetrics && !eof) {
                errors.add(new ParseError(lineNo + 1,
                        "OpenMetrics exposition does not end with '# EOF' (the response may have been cut short)", ""));
            }
            for (FamilyBuilder f : families.values()) {
                checkValues(f);
                if (openMetrics) {
                    OpenMetricsRules.check(f.name, f.type, f.unit, f.samples, f.lines,
                            (line, message) -> errors.add(new ParseError(line, message, "")));
                }
            }
            List<MetricFamily> out = new ArrayList<>(families.size());
            for (FamilyBuilder f : families.values()) {
                out.add(new MetricFamily(f.name, f.type, f.help, f.unit, f.samples));
            }
            return new Exposition(format, out, errors);
        }

        /** Returns true for the {@code # EOF} line of an OpenMetrics exposition. */
        private boolean parseLine() {
            pos = lineStart;
            skipBlanks();
            if (pos >= end) {
                return false;
            }
            if (s.charAt(pos) == '#') {
                return parseComment();
            }
            parseSample();
            return false;
        }

        // ---------------------------------------------------------------- comments and metadata

        private boolean parseComment() {
            pos++;
            if (pos < end && !isBlank(s.charAt(pos))) {
                if (openMetrics) {
                    error("comment lines must be '# HELP', '# TYPE', '# UNIT' or '# EOF' in OpenMetrics");
                }
                return false;
            }
            skipBlanks();
            int wordStart = pos;
            while (pos < end && !isBlank(s.charAt(pos))) {
                pos++;
            }
            String word = s.substring(wordStart, pos);
            switch (word) {
                case "HELP" -> parseHelp();
                case "TYPE" -> parseType();
                case "UNIT" -> {
                    if (openMetrics) {
                        parseUnit();
                    }
                }
                case "EOF" -> {
                    skipBlanks();
                    if (openMetrics) {
                        if (pos < end) {
                            error("unexpected text after '# EOF'");
                        }
                        return true;
                    }
                }
                default -> {
                    if (openMetrics) {
                        error("comment lines must be '# HELP', '# TYPE', '# UNIT' or '# EOF' in OpenMetrics");
                    }
                }
            }
            return false;
        }

        private String metadataName(String what) {
            if (pos >= end || !isBlank(s.charAt(pos))) {
                error("'# " + what + "' needs a metric name");
                return null;
            }
            skipBlanks();
            String name = scanMetricName();
            if (name == null) {
                error("'# " + what + "' has an invalid metric name (names match [a-zA-Z_:][a-zA-Z0-9_:]*)");
            }
            return name;
        }

        private FamilyBuilder family(String name) {
            FamilyBuilder f = families.get(name);
            if (f == null) {
                f = new FamilyBuilder(name);
                families.put(name, f);
            }
            return f;
        }

        private void parseType() {
            String name = metadataName("TYPE");
            if (name == null) {
                return;
            }
            skipBlanks();
            int wordStart = pos;
            while (pos < end && !isBlank(s.charAt(pos))) {
                pos++;
            }
            String word = s.substring(wordStart, pos);
            MetricType type = MetricType.fromWord(word, format);
            if (type == null) {
                error("unknown metric type '" + word + "' for " + name + " (" + (openMetrics
                        ? "counter, gauge, histogram, gaugehistogram, summary, info, stateset or unknown"
                        : "counter, gauge, histogram, summary or untyped") + ")");
                return;
            }
            skipBlanks();
            if (pos < end) {
                error("unexpected text after the type of " + name);
                return;
            }
            FamilyBuilder f = family(name);
            if (f.typed) {
                error("second TYPE line for " + name);
                return;
            }
            if (!f.samples.isEmpty()) {
                error("TYPE line for " + name + " comes after its samples; it must come first");
                return;
            }
            f.type = type;
            f.typed = true;
            current = f;
        }

        private void parseHelp() {
            String name = metadataName("HELP");
            if (name == null) {
                return;
            }
            // Exactly one blank separates the name from the text; the text keeps the rest.
            if (pos < end) {
                pos++;
            }
            String help = unescapeHelp(pos, end);
            if (help == null) {
                return;
            }
            FamilyBuilder f = family(name);
            if (f.help != null) {
                error("second HELP line for " + name);
                return;
            }
            if (openMetrics && !f.samples.isEmpty()) {
                error("HELP line for " + name + " comes after its samples; it must come first");
                return;
            }
            f.help = help;
            current = f;
        }

        private void parseUnit() {
            String name = metadataName("UNIT");
            if (name == null) {
                return;
            }
            skipBlanks();
            String unit = s.substring(pos, end).strip();
            FamilyBuilder f = family(name);
            if (f.unit != null) {
                error("second UNIT line for " + name);
                return;
            }
            if (!f.samples.isEmpty()) {
                error("UNIT line for " + name + " comes after its samples; it must come first");
                return;
            }
            f.unit = unit;
            current = f;
        }

        private String unescapeHelp(int from, int to) {
            int bs = s.indexOf('\\', from);
            if (bs < 0 || bs >= to) {
                return s.substring(from, to);
            }
            StringBuilder sb = new StringBuilder(to - from);
            for (int i = from; i < to; i++) {
                char c = s.charAt(i);
                if (c != '\\' || i + 1 >= to) {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(i + 1);
                if (e == '\\') {
                    sb.append('\\');
                    i++;
                } else if (e == 'n') {
                    sb.append('\n');
                    i++;
                } else if (e == '"' && openMetrics) {
                    sb.append('"');
                    i++;
                } else {
                    // Any other escape (\t, \f) is kept as written, as the OpenMetrics project's
                    // own parser does and its test cases expect; Prometheus text does the same.
                    sb.append(c);
                }
            }
            return sb.toString();
        }

        // ---------------------------------------------------------------- samples

        private void parseSample() {
            String name = null;
            Labels labels = Labels.EMPTY;
            char c = s.charAt(pos);
            if (isNameStart(c)) {
                name = scanMetricName();
            } else if (c != '{') {
                error("expected a metric name, found '" + c + "'");
                return;
            }
            int afterName = pos;
            skipBlanks();
            if (pos < end && s.charAt(pos) == '{') {
                quotedName = null;
                labels = parseLabels(true);
                if (labels == null) {
                    return;
                }
                if (quotedName != null) {
                    if (name != null) {
                        error("metric name given twice (before the braces and quoted inside them)");
                        return;
                    }
                    name = quotedName;
                }
            }
            if (name == null) {
                error("sample has no metric name");
                return;
            }
            if (pos >= end) {
                error("no value after " + name);
                return;
            }
            if (pos == afterName && !isBlank(s.charAt(pos))) {
                error("unexpected character '" + s.charAt(pos) + "' in metric name " + name);
                return;
            }
            skipBlanks();
            int tokenStart = pos;
            skipToken();
            if (pos == tokenStart) {
                error("no value after " + name);
                return;
            }
            double value = parseNumber(s, tokenStart, pos);
            if (badNumber) {
                error("invalid value '" + s.substring(tokenStart, pos) + "' for " + name
                        + " (a float, NaN, +Inf or -Inf)");
                return;
            }
            skipBlanks();
            long timestampNs = Sample.NO_TIMESTAMP;
            if (pos < end && s.charAt(pos) != '#') {
                tokenStart = pos;
                skipToken();
                timestampNs = openMetrics ? parseSecondsToNanos(tokenStart, pos) : parseMillisToNanos(tokenStart, pos);
                if (timestampNs == Sample.NO_TIMESTAMP) {
                    error("invalid timestamp '" + s.substring(tokenStart, pos) + "' for " + name + (openMetrics
                            ? " (OpenMetrics timestamps are seconds since the epoch)"
                            : " (Prometheus text timestamps are integer milliseconds since the epoch)"));
                    return;
                }
                skipBlanks();
            }
            Exemplar exemplar = null;
            boolean exemplarError = false;
            if (pos < end && s.charAt(pos) == '#') {
                int before = errors.size();
                exemplar = parseExemplar();
                exemplarError = errors.size() > before;
                skipBlanks();
            }
            if (!exemplarError && pos < end) {
                error("unexpected text after the value of " + name);
                return;
            }
            FamilyBuilder f = resolveFamily(name);
            if (f == null) {
                return;
            }
            String suffix = name.length() == f.name.length() ? "" : name.substring(f.name.length());
            if (!checkStructure(f, suffix, name, labels)) {
                return;
            }
            if (exemplar != null && !exemplarAllowed(f.type, suffix)) {
                error("exemplar on " + name + " dropped: exemplars belong on counter _total and histogram"
                        + " _bucket samples");
                exemplar = null;
            }
            f.samples.add(new Sample(name, labels, value, timestampNs, exemplar));
            f.lines.add(lineNo);
            current = f;
        }

        private FamilyBuilder resolveFamily(String name) {
            if (current != null && current.suffixOf(name) != null) {
                return current;
            }
            FamilyBuilder f = families.get(name);
            if (f != null) {
                if (f.type.acceptsSuffix("")) {
                    return f;
                }
                error("sample " + name + " does not fit its family, which is a " + f.type.word()
                        + " (expected one of its suffixed series)");
                return null;
            }
            for (String suffix : SUFFIXES) {
                if (name.endsWith(suffix) && name.length() > suffix.length()) {
                    FamilyBuilder base = families.get(name.substring(0, name.length() - suffix.length()));
                    if (base != null && base.type.acceptsSuffix(suffix)) {
                        return base;
                    }
                }
            }
            // Untyped sample: its own family, as the Prometheus server treats it.
            return family(name);
        }

        private boolean checkStructure(FamilyBuilder f, String suffix, String name, Labels labels) {
            switch (f.type) {
                case HISTOGRAM, GAUGEHISTOGRAM -> {
                    if (suffix.equals("_bucket") || suffix.equals("_gbucket")) {
                        String le = labels.get("le");
                        if (le == null) {
                            error("histogram bucket " + name + " has no 'le' label");
                            return false;
                        }
                        if (Double.isNaN(parseLabelNumber(le))) {
                            error("histogram bucket " + name + " has an invalid le=\"" + le + "\"");
                            return false;
                        }
                    }
                }
                case SUMMARY -> {
                    if (suffix.isEmpty()) {
                        String q = labels.get("quantile");
                        if (q == null) {
                            error("summary sample " + name + " has no 'quantile' label");
                            return false;
                        }
                        double qv = parseLabelNumber(q);
                        if (!(qv >= 0 && qv <= 1)) {
                            error("summary sample " + name + " has an invalid quantile=\"" + q + "\" (0 to 1)");
                            return false;
                        }
                    }
                }
                default -> {
                }
            }
            return true;
        }

        /**
         * Flags each histogram and counter series whose values break the format's rules (see
         * {@link SeriesRules}); its samples are kept, as read, and the metric math leaves it out.
         */
        private void checkValues(FamilyBuilder f) {
            switch (f.type) {
                case HISTOGRAM, GAUGEHISTOGRAM -> {
                    boolean gauge = f.type == MetricType.GAUGEHISTOGRAM;
                    String bucket = f.name + "_bucket";
                    // OpenMetrics 1.0 names gauge histogram buckets _bucket; its drafts said _gbucket
                    String draftBucket = f.name + "_gbucket";
                    String countName = f.name + (gauge ? "_gcount" : "_count");
                    String sumName = f.name + (gauge ? "_gsum" : "_sum");
                    Map<Labels, List<Sample>> buckets = new LinkedHashMap<>();
                    Map<Labels, Integer> lastLine = new LinkedHashMap<>();
                    Map<Labels, Double> counts = new LinkedHashMap<>();
                    Map<Labels, Double> sums = new LinkedHashMap<>();
                    for (int i = 0; i < f.samples.size(); i++) {
                        Sample smp = f.samples.get(i);
                        Labels series = smp.labels().without("le");
                        if (smp.name().equals(bucket) || gauge && smp.name().equals(draftBucket)) {
                            buckets.computeIfAbsent(series, k -> new ArrayList<>()).add(smp);
                        } else if (smp.name().equals(countName)) {
                            counts.put(series, smp.value());
                        } else if (smp.name().equals(sumName)) {
                            sums.put(series, smp.value());
                        } else {
                            continue;
                        }
                        lastLine.merge(series, f.lines.get(i), Math::max);
                    }
                    for (Map.Entry<Labels, Integer> e : lastLine.entrySet()) {
                        Labels series = e.getKey();
                        String problem = SeriesRules.histogram(buckets.getOrDefault(series, List.of()),
                                counts.getOrDefault(series, Double.NaN), counts.containsKey(series),
                                sums.getOrDefault(series, Double.NaN), sums.containsKey(series), gauge);
                        if (problem != null) {
                            errors.add(new ParseError(e.getValue(), f.type.word() + " " + f.name + series
                                    + " breaks the exposition format's rules: " + problem
                                    + "; it is kept as read but gives no quantile", ""));
                        }
                    }
                }
                case COUNTER -> {
                    for (int i = 0; i < f.samples.size(); i++) {
                        Sample smp = f.samples.get(i);
                        if (smp.name().endsWith("_created")) {
                            continue;
                        }
                        String problem = SeriesRules.counter(smp.value());
                        if (problem != null) {
                            errors.add(new ParseError(f.lines.get(i), "counter " + smp.name() + smp.labels()
                                    + " breaks the exposition format's rules: " + problem
                                    + "; it is kept as read but gives no rate", ""));
                        }
                    }
                }
                default -> {
                }
            }
        }

        private static boolean exemplarAllowed(MetricType type, String suffix) {
            return switch (type) {
                case COUNTER -> suffix.equals("_total") || suffix.isEmpty();
                case HISTOGRAM -> suffix.equals("_bucket");
                case GAUGEHISTOGRAM -> suffix.equals("_bucket") || suffix.equals("_gbucket");
                default -> false;
            };
        }

        private Exemplar parseExemplar() {
            pos++; // '#'
            if (pos >= end || !isBlank(s.charAt(pos))) {
                error("expected ' # {labels} value' for an exemplar");
                return null;
            }
            skipBlanks();
            if (pos >= end || s.charAt(pos) != '{') {
                error("exemplar must start with a label set in braces");
                return null;
            }
            int labelsStart = pos;
            Labels labels = parseLabels(false);
            if (labels == null) {
                return null;
            }
            int labelChars = 0;
            for (int i = 0; i < labels.size(); i++) {
                labelChars += labels.name(i).length() + labels.value(i).length();
            }
            if (labelChars > MAX_EXEMPLAR_LABEL_CHARS) {
                error("exemplar label set is " + labelChars + " characters; OpenMetrics allows "
                        + MAX_EXEMPLAR_LABEL_CHARS);
                return null;
            }
            if (pos >= end || !isBlank(s.charAt(pos))) {
                error("exemplar " + s.substring(labelsStart, pos) + " has no value");
                return null;
            }
            skipBlanks();
            int tokenStart = pos;
            skipToken();
            double value = parseNumber(s, tokenStart, pos);
            if (badNumber || tokenStart == pos) {
                error("invalid exemplar value '" + s.substring(tokenStart, pos) + "'");
                return null;
            }
            skipBlanks();
            long ts = Sample.NO_TIMESTAMP;
            if (pos < end) {
                tokenStart = pos;
                skipToken();
                ts = parseSecondsToNanos(tokenStart, pos);
                if (ts == Sample.NO_TIMESTAMP) {
                    error("invalid exemplar timestamp '" + s.substring(tokenStart, pos) + "' (seconds since the epoch)");
                    return null;
                }
            }
            return new Exemplar(labels, value, ts);
        }

        /**
         * Parses {@code {name="value",...}} starting at '{'. Returns null after recording an
         * error. With {@code allowQuotedName}, a bare quoted string is the metric name
         * (the UTF-8 name syntax of newer Prometheus servers).
         */
        private Labels parseLabels(boolean allowQuotedName) {
            pos++; // '{'
            int count = 0;
            while (true) {
                skipBlanks();
                if (pos >= end) {
                    error("label set is not closed with '}'");
                    return null;
                }
                char c = s.charAt(pos);
                if (c == '}') {
                    pos++;
                    break;
                }
                String labelName;
                if (c == '"') {
                    String quoted = parseQuoted();
                    if (quoted == null) {
                        return null;
                    }
                    skipBlanks();
                    char next = pos < end ? s.charAt(pos) : '}';
                    if (allowQuotedName && quotedName == null && count == 0 && (next == ',' || next == '}')) {
                        quotedName = quoted;
                        if (next == ',') {
                            pos++;
                        }
                        continue;
                    }
                    labelName = quoted;
                } else if (isLabelNameStart(c)) {
                    int st = pos;
                    pos++;
                    while (pos < end && isLabelNameChar(s.charAt(pos))) {
                        pos++;
                    }
                    labelName = s.substring(st, pos);
                } else {
                    error("invalid label name starting at '" + c + "' (names match [a-zA-Z_][a-zA-Z0-9_]*)");
                    return null;
                }
                skipBlanks();
                if (pos >= end || s.charAt(pos) != '=') {
                    error("expected '=' after label name " + labelName);
                    return null;
                }
                pos++;
                skipBlanks();
                if (pos >= end || s.charAt(pos) != '"') {
                    error("value of label " + labelName + " must be in double quotes");
                    return null;
                }
                String value = parseQuoted();
                if (value == null) {
                    return null;
                }
                if (2 * count + 2 > labelBuf.length) {
                    labelBuf = Arrays.copyOf(labelBuf, labelBuf.length * 2);
                }
                labelBuf[2 * count] = labelName;
                labelBuf[2 * count + 1] = value;
                count++;
                skipBlanks();
                if (pos < end && s.charAt(pos) == ',') {
                    pos++;
                } else if (pos < end && s.charAt(pos) == '}') {
                    pos++;
                    break;
                } else {
                    error("expected ',' or '}' after the value of label " + labelName);
                    return null;
                }
            }
            if (count == 0) {
                return Labels.EMPTY;
            }
            String[] pairs = Arrays.copyOf(labelBuf, 2 * count);
            Labels labels = Labels.fromPairs(pairs, count);
            if (labels == null) {
                error("a label name appears twice in one label set");
            }
            return labels;
        }

        /** Parses a double-quoted string at pos with escapes \\, \" and \n; null after an error. */
        private String parseQuoted() {
            pos++; // opening quote
            int st = pos;
            while (pos < end) {
                char c = s.charAt(pos);
                if (c == '"') {
                    return s.substring(st, pos++);
                }
                if (c == '\\') {
                    break;
                }
                pos++;
            }
            StringBuilder sb = new StringBuilder().append(s, st, pos);
            while (pos < end) {
                char c = s.charAt(pos);
                if (c == '"') {
                    pos++;
                    return sb.toString();
                }
                if (c == '\\') {
                    if (pos + 1 >= end) {
                        break;
                    }
                    char e = s.charAt(pos + 1);
                    switch (e) {
                        case '\\' -> sb.append('\\');
                        case '"' -> sb.append('"');
                        case 'n' -> sb.append('\n');
                        default -> {
                            if (!openMetrics) { // the Prometheus server's own text parser refuses it
                                error("invalid escape '\\" + e + "' in a label value (allowed: \\\\, \\\" and \\n)");
                                return null;
                            }
                            // OpenMetrics: \t, \f... kept as written, as its project's parser does
                            sb.append('\\').append(e);
                        }
                    }
                    pos += 2;
                } else {
                    sb.append(c);
                    pos++;
                }
            }
            error("label value is not closed with '\"'");
            return null;
        }

        // ---------------------------------------------------------------- numbers

        /**
         * Parses a float token; sets {@link #badNumber} instead of throwing. The format's own
         * spellings of the special values (NaN, +Inf, -Inf, Inf, any case, "Infinity" too) are read
         * here; everything else is digits, a point, an exponent and signs, which Double.parseDouble
         * reads exactly; it would also take "1d", "0x1p3" or blanks around the number, so any other
         * character is refused before it sees the token.
         */
        private double parseNumber(String str, int from, int to) {
            badNumber = false;
            int len = to - from;
            if (len == 0) {
                badNumber = true;
                return Double.NaN;
            }
            char c0 = str.charAt(from);
            if (c0 == 'N' || c0 == 'n' || c0 == 'I' || c0 == 'i' || ((c0 == '+' || c0 == '-') && len > 1
                    && (str.charAt(from + 1) == 'I' || str.charAt(from + 1) == 'i'))) {
                return parseSpecial(str, from, to);
            }
            for (int i = from; i < to; i++) {
                char c = str.charAt(i);
                if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
                    badNumber = true;
                    return Double.NaN;
                }
            }
            try {
                return Double.parseDouble(str.substring(from, to));
            } catch (NumberFormatException e) {
                badNumber = true;
                return Double.NaN;
            }
        }

        private double parseSpecial(String str, int from, int to) {
            int i = from;
            boolean negative = false;
            if (str.charAt(i) == '+' || str.charAt(i) == '-') {
                negative = str.charAt(i) == '-';
                i++;
            }
            String word = str.substring(i, to);
            if (i == from && word.equalsIgnoreCase("nan")) {
                return Double.NaN;
            }
            if (word.equalsIgnoreCase("inf") || word.equalsIgnoreCase("infinity")) {
                return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            badNumber = true;
            return Double.NaN;
        }

        private double parseLabelNumber(String v) {
            double d = parseNumber(v, 0, v.length());
            return badNumber ? Double.NaN : d;
        }

        /**
         * Integer milliseconds to nanoseconds; NO_TIMESTAMP when not an integer. Any size is valid:
         * one beyond what nanoseconds in a long hold (about 292 years from 1970) is kept at the
         * nearest end of that range ({@link #saturated}).
         */
        private long parseMillisToNanos(int from, int to) {
            int i = from;
            boolean negative = false;
            if (i < to && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                negative = s.charAt(i) == '-';
                i++;
            }
            if (i == to) {
                return Sample.NO_TIMESTAMP;
            }
            long ms = 0;
            boolean overflow = false;
            for (; i < to; i++) {
                char c = s.charAt(i);
                if (c < '0' || c > '9') {
                    return Sample.NO_TIMESTAMP;
                }
                if (ms > 9_223_372_036_854L / 10) {
                    overflow = true;
                } else {
                    ms = ms * 10 + (c - '0');
                }
            }
            if (overflow || ms > 9_223_372_036_854L) {
                return saturated(negative);
            }
            return (negative ? -ms : ms) * 1_000_000L;
        }

        /**
         * The end of the nanosecond range a timestamp too large for it is kept at; never
         * {@link Sample#NO_TIMESTAMP}, which is {@link Long#MIN_VALUE}.
         */
        private static long saturated(boolean negative) {
            return negative ? Long.MIN_VALUE + 1 : Long.MAX_VALUE;
        }

        /** Decimal seconds to nanoseconds, exact for up to 9 fraction digits; NO_TIMESTAMP when invalid. */
        private long parseSecondsToNanos(int from, int to) {
            int i = from;
            boolean negative = false;
            if (i < to && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                negative = s.charAt(i) == '-';
                i++;
            }
            long secs = 0;
            int intDigits = 0;
            boolean huge = false;
            boolean sawDigit = false;
            while (i < to && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                sawDigit = true;
                if (secs != 0 || s.charAt(i) != '0') {
                    intDigits++;
                }
                if (intDigits > 10) {
                    huge = true; // 10^10 s is past year 2286; the exact path would overflow
                } else {
                    secs = secs * 10 + (s.charAt(i) - '0');
                }
                i++;
            }
            huge |= secs > Long.MAX_VALUE / 1_000_000_000L - 1;
            long nanos = 0;
            int fracDigits = 0;
            if (i < to && s.charAt(i) == '.') {
                i++;
                while (i < to && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                    sawDigit = true;
                    if (fracDigits < 9) {
                        nanos = nanos * 10 + (s.charAt(i) - '0');
                        fracDigits++;
                    }
                    i++;
                }
            }
            if (i == to && !huge && sawDigit) {
                for (int k = fracDigits; k < 9; k++) {
                    nanos *= 10;
                }
                long total = secs * 1_000_000_000L + nanos;
                return negative ? -total : total;
            }
            // Exponent form ("1.7e9") or a huge one: through a double, to the precision a double
            // has; any finite size is a valid timestamp, kept at the end of the range past it.
            double d = parseNumber(s, from, to);
            boolean word = !s.substring(from, to).matches(".*[0-9].*"); // NaN, Inf: not timestamps
            if (badNumber || Double.isNaN(d) || word) {
                return Sample.NO_TIMESTAMP;
            }
            if (Math.abs(d) >= 9.2e9) {
                return saturated(d < 0); // 1e400 too: a valid number, past every clock
            }
            return Math.round(d * 1e9);
        }

        // ---------------------------------------------------------------- scanning helpers

        private String scanMetricName() {
            if (pos >= end || !isNameStart(s.charAt(pos))) {
                return null;
            }
            int st = pos++;
            while (pos < end && isNameChar(s.charAt(pos))) {
                pos++;
            }
            return s.substring(st, pos);
        }

        private void skipBlanks() {
            while (pos < end && isBlank(s.charAt(pos))) {
                pos++;
            }
        }

        private void skipToken() {
            while (pos < end && !isBlank(s.charAt(pos))) {
                pos++;
            }
        }

        private boolean isBlank(int from, int to) {
            for (int i = from; i < to; i++) {
                if (!isBlank(s.charAt(i))) {
                    return false;
                }
            }
            return true;
        }

        private void error(String message) {
            errors.add(ParseError.at(lineNo, message, s, lineStart, end));
        }

        private static boolean isBlank(char c) {
            return c == ' ' || c == '\t';
        }

        private static boolean isNameStart(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
        }

        private static boolean isNameChar(char c) {
            return isNameStart(c) || (c >= '0' && c <= '9');
        }

        private static boolean isLabelNameStart(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        }

        private static boolean isLabelNameChar(char c) {
            return isLabelNameStart(c) || (c >= '0' && c <= '9');
        }
    }
}
