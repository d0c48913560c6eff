package dev.vprof.metrics;

import java.nio.charset.StandardCharsets;

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
 *
 * <p>A parse runs in stages, each its own class: {@link ExpositionCursor} cuts the text into
 * lines and scans within one; this class tells comment lines from sample lines and reads the
 * metadata ones ({@code # HELP}, {@code # TYPE}, {@code # UNIT}, {@code # EOF});
 * {@link SampleLine} reads a sample's name, labels, value, timestamp and exemplar, with
 * {@link ExpositionNumbers} for the numbers; {@link FamilyTable} keeps each family's metadata,
 * places every sample in its family and checks the values once all are read; OpenMetrics's own
 * rules are {@link OpenMetricsLines} (per line) and {@link OpenMetricsRules} (per family).
 */
public final class ExpositionParser {
    /** vLLM with many models/engines is a few MB; 32 MiB is far past any sane exposition. */
    public static final int DEFAULT_MAX_CHARS = 32 << 20;
    /** Long label values exist (info metrics carry whole configs), but not 64 KiB ones. */
    public static final int DEFAULT_MAX_LINE_LENGTH = 64 << 10;
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

    /** The state of one parse; confined to the calling thread. */
    private static final class Run {
        private final ExpositionFormat format;
        private final boolean openMetrics;
        private final int maxLineLength;
        private final ExpositionCursor c;
        private final FamilyTable families;
        private final SampleLine samples;

        Run(String s, ExpositionFormat format, int maxLineLength) {
            this.format = format;
            this.openMetrics = format == ExpositionFormat.OPENMETRICS;
            this.maxLineLength = maxLineLength;
            this.c = new ExpositionCursor(s);
            ExpositionNumbers numbers = new ExpositionNumbers();
            this.families = new FamilyTable(c, numbers, openMetrics);
            this.samples = new SampleLine(c, numbers, openMetrics);
        }

        Exposition run() {
            boolean eof = false;
            while (c.hasLine()) {
                c.nextLine();
                if (eof) {
                    if (!c.lineIsBlank()) {
                        c.error("text after '# EOF'; OpenMetrics requires '# EOF' to be the last line");
                        break;
                    }
                } else if (c.end - c.lineStart > maxLineLength) {
                    c.error("line is " + (c.end - c.lineStart) + " characters long; the limit is " + maxLineLength);
                } else {
                    String rule = openMetrics ? OpenMetricsLines.check(c.line()) : null;
                    if (rule != null) {
                        c.error(rule);
                    } else {
                        eof = parseLine();
                    }
                }
            }
            if (openMetrics && !eof) {
                c.errorAt(c.lineNo + 1, "OpenMetrics exposition does not end with '# EOF' (the response may have been cut short)");
            }
            for (FamilyTable.Family f : families.all()) {
                families.checkValues(f);
                if (openMetrics) {
                    OpenMetricsRules.check(f.name, f.type, f.unit, f.samples, f.lines, c::errorAt);
                }
            }
            return new Exposition(format, families.result(), c.errors);
        }

        /** Returns true for the {@code # EOF} line of an OpenMetrics exposition. */
        private boolean parseLine() {
            c.skipBlanks();
            if (c.atEnd()) {
                return false;
            }
            if (c.peek() == '#') {
                return parseComment();
            }
            SampleLine.Parsed p = samples.parse();
            if (p != null) {
                families.add(p);
            }
            return false;
        }

        // ---------------------------------------------------------------- comments and metadata

        private boolean parseComment() {
            c.pos++;
            if (!c.atEnd() && !c.atBlank()) {
                if (openMetrics) {
                    c.error("comment lines must be '# HELP', '# TYPE', '# UNIT' or '# EOF' in OpenMetrics");
                }
                return false;
            }
            c.skipBlanks();
            switch (c.token()) {
                case "HELP" -> parseHelp();
                case "TYPE" -> parseType();
                case "UNIT" -> {
                    if (openMetrics) {
                        parseUnit();
                    }
                }
                case "EOF" -> {
                    c.skipBlanks();
                    if (openMetrics) {
                        if (!c.atEnd()) {
                            c.error("unexpected text after '# EOF'");
                        }
                        return true;
                    }
                }
                default -> {
                    if (openMetrics) {
                        c.error("comment lines must be '# HELP', '# TYPE', '# UNIT' or '# EOF' in OpenMetrics");
                    }
                }
            }
            return false;
        }

        private String metadataName(String what) {
            if (!c.atBlank()) {
                c.error("'# " + what + "' needs a metric name");
                return null;
            }
            c.skipBlanks();
            String name = c.scanMetricName();
            if (name == null) {
                c.error("'# " + what + "' has an invalid metric name (names match [a-zA-Z_:][a-zA-Z0-9_:]*)");
            }
            return name;
        }

        private void parseType() {
            String name = metadataName("TYPE");
            if (name == null) {
                return;
            }
            c.skipBlanks();
            String word = c.token();
            MetricType type = MetricType.fromWord(word, format);
            if (type == null) {
                c.error("unknown metric type '" + word + "' for " + name + " (" + (openMetrics
                        ? "counter, gauge, histogram, gaugehistogram, summary, info, stateset or unknown"
                        : "counter, gauge, histogram, summary or untyped") + ")");
                return;
            }
            c.skipBlanks();
            if (!c.atEnd()) {
                c.error("unexpected text after the type of " + name);
                return;
            }
            families.type(name, type);
        }

        private void parseHelp() {
            String name = metadataName("HELP");
            if (name == null) {
                return;
            }
            // Exactly one blank separates the name from the text; the text keeps the rest.
            if (!c.atEnd()) {
                c.pos++;
            }
            families.help(name, unescapeHelp(c.text, c.pos, c.end, openMetrics));
        }

        private void parseUnit() {
            String name = metadataName("UNIT");
            if (name == null) {
                return;
            }
            c.skipBlanks();
            families.unit(name, c.text.substring(c.pos, c.end).strip());
        }
    }

    /**
     * HELP text with its escapes undone: {@code \\} and {@code \n}, and in OpenMetrics also
     * {@code \"}.
     */
    static String unescapeHelp(String s, int from, int to, boolean openMetrics) {
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
}
