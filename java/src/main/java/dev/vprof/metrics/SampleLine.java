package dev.vprof.metrics;

import java.util.Arrays;

/**
 * A sample line read into its parts, before its family is known: {@code name{label="value",...}
 * value [timestamp] [# {labels} value [timestamp]]}, the name also inside the braces as a quoted
 * string (the UTF-8 name syntax of newer Prometheus servers), label values escaping {@code \\},
 * {@code \"} and {@code \n}. Each method records an error on the cursor's line and returns null
 * when the line cannot be read. Confined to one parse.
 */
final class SampleLine {
    /** OpenMetrics limits an exemplar's label set to 128 UTF-8 characters. */
    static final int MAX_EXEMPLAR_LABEL_CHARS = 128;

    /** What a sample line holds. */
    record Parsed(String name, Labels labels, double value, long timestampNs, Exemplar exemplar) {}

    private final ExpositionCursor c;
    private final ExpositionNumbers numbers;
    private final boolean openMetrics;
    /** Set by a label parse that found {@code {"quoted.name", ...}}. */
    private String quotedName;
    private String[] labelBuf = new String[16];

    SampleLine(ExpositionCursor cursor, ExpositionNumbers numbers, boolean openMetrics) {
        this.c = cursor;
        this.numbers = numbers;
        this.openMetrics = openMetrics;
    }

    /** The sample line at the cursor (its first character not blank); null after an error. */
    Parsed parse() {
        String name = null;
        Labels labels = Labels.EMPTY;
        char first = c.peek();
        if (ExpositionCursor.isNameStart(first)) {
            name = c.scanMetricName();
        } else if (first != '{') {
            c.error("expected a metric name, found '" + first + "'");
            return null;
        }
        int afterName = c.pos;
        c.skipBlanks();
        if (c.at('{')) {
            quotedName = null;
            labels = labels(true);
            if (labels == null) {
                return null;
            }
            if (quotedName != null) {
                if (name != null) {
                    c.error("metric name given twice (before the braces and quoted inside them)");
                    return null;
                }
                name = quotedName;
            }
        }
        if (name == null) {
            c.error("sample has no metric name");
            return null;
        }
        if (c.atEnd()) {
            c.error("no value after " + name);
            return null;
        }
        if (c.pos == afterName && !c.atBlank()) {
            c.error("unexpected character '" + c.peek() + "' in metric name " + name);
            return null;
        }
        c.skipBlanks();
        int tokenStart = c.pos;
        c.skipToken();
        if (c.pos == tokenStart) {
            c.error("no value after " + name);
            return null;
        }
        double value = numbers.parse(c.text, tokenStart, c.pos);
        if (numbers.bad) {
            c.error("invalid value '" + c.since(tokenStart) + "' for " + name + " (a float, NaN, +Inf or -Inf)");
            return null;
        }
        c.skipBlanks();
        long timestampNs = Sample.NO_TIMESTAMP;
        if (!c.atEnd() && !c.at('#')) {
            tokenStart = c.pos;
            c.skipToken();
            timestampNs = openMetrics ? numbers.secondsToNanos(c.text, tokenStart, c.pos)
                    : ExpositionNumbers.millisToNanos(c.text, tokenStart, c.pos);
            if (timestampNs == Sample.NO_TIMESTAMP) {
                c.error("invalid timestamp '" + c.since(tokenStart) + "' for " + name + (openMetrics
                        ? " (OpenMetrics timestamps are seconds since the epoch)"
                        : " (Prometheus text timestamps are integer milliseconds since the epoch)"));
                return null;
            }
            c.skipBlanks();
        }
        Exemplar exemplar = null;
        boolean exemplarError = false;
        if (c.at('#')) {
            int before = c.errors.size();
            exemplar = exemplar();
            exemplarError = c.errors.size() > before;
            c.skipBlanks();
        }
        if (!exemplarError && !c.atEnd()) {
            c.error("unexpected text after the value of " + name);
            return null;
        }
        return new Parsed(name, labels, value, timestampNs, exemplar);
    }

    /** An exemplar, from its '#'; null after an error. */
    Exemplar exemplar() {
        c.pos++; // '#'
        if (!c.atBlank()) {
            c.error("expected ' # {labels} value' for an exemplar");
            return null;
        }
        c.skipBlanks();
        if (!c.at('{')) {
            c.error("exemplar must start with a label set in braces");
            return null;
        }
        int labelsStart = c.pos;
        Labels labels = labels(false);
        if (labels == null) {
            return null;
        }
        int labelChars = 0;
        for (int i = 0; i < labels.size(); i++) {
            labelChars += labels.name(i).length() + labels.value(i).length();
        }
        if (labelChars > MAX_EXEMPLAR_LABEL_CHARS) {
            c.error("exemplar label set is " + labelChars + " characters; OpenMetrics allows " + MAX_EXEMPLAR_LABEL_CHARS);
            return null;
        }
        if (!c.atBlank()) {
            c.error("exemplar " + c.since(labelsStart) + " has no value");
            return null;
        }
        c.skipBlanks();
        int tokenStart = c.pos;
        c.skipToken();
        double value = numbers.parse(c.text, tokenStart, c.pos);
        if (numbers.bad || tokenStart == c.pos) {
            c.error("invalid exemplar value '" + c.since(tokenStart) + "'");
            return null;
        }
        c.skipBlanks();
        long ts = Sample.NO_TIMESTAMP;
        if (!c.atEnd()) {
            tokenStart = c.pos;
            c.skipToken();
            ts = numbers.secondsToNanos(c.text, tokenStart, c.pos);
            if (ts == Sample.NO_TIMESTAMP) {
                c.error("invalid exemplar timestamp '" + c.since(tokenStart) + "' (seconds since the epoch)");
                return null;
            }
        }
        return new Exemplar(labels, value, ts);
    }

    /**
     * Parses {@code {name="value",...}} starting at '{'. Returns null after recording an
     * error. With {@code allowQuotedName}, a bare quoted string is the metric name.
     */
    Labels labels(boolean allowQuotedName) {
        c.pos++; // '{'
        int count = 0;
        while (true) {
            c.skipBlanks();
            if (c.atEnd()) {
                c.error("label set is not closed with '}'");
                return null;
            }
            char ch = c.peek();
            if (ch == '}') {
                c.pos++;
                break;
            }
            String labelName;
            if (ch == '"') {
                String quoted = quoted();
                if (quoted == null) {
                    return null;
                }
                c.skipBlanks();
                char next = c.atEnd() ? '}' : c.peek();
                if (allowQuotedName && quotedName == null && count == 0 && (next == ',' || next == '}')) {
                    quotedName = quoted;
                    if (next == ',') {
                        c.pos++;
                    }
                    continue;
                }
                labelName = quoted;
            } else if (ExpositionCursor.isLabelNameStart(ch)) {
                int st = c.pos;
                c.pos++;
                while (!c.atEnd() && ExpositionCursor.isLabelNameChar(c.peek())) {
                    c.pos++;
                }
                labelName = c.since(st);
            } else {
                c.error("invalid label name starting at '" + ch + "' (names match [a-zA-Z_][a-zA-Z0-9_]*)");
                return null;
            }
            c.skipBlanks();
            if (!c.at('=')) {
                c.error("expected '=' after label name " + labelName);
                return null;
            }
            c.pos++;
            c.skipBlanks();
            if (!c.at('"')) {
                c.error("value of label " + labelName + " must be in double quotes");
                return null;
            }
            String value = quoted();
            if (value == null) {
                return null;
            }
            if (2 * count + 2 > labelBuf.length) {
                labelBuf = Arrays.copyOf(labelBuf, labelBuf.length * 2);
            }
            labelBuf[2 * count] = labelName;
            labelBuf[2 * count + 1] = value;
            count++;
            c.skipBlanks();
            if (c.at(',')) {
                c.pos++;
            } else if (c.at('}')) {
                c.pos++;
                break;
            } else {
                c.error("expected ',' or '}' after the value of label " + labelName);
                return null;
            }
        }
        if (count == 0) {
            return Labels.EMPTY;
        }
        String[] pairs = Arrays.copyOf(labelBuf, 2 * count);
        Labels labels = Labels.fromPairs(pairs, count);
        if (labels == null) {
            c.error("a label name appears twice in one label set");
        }
        return labels;
    }

    /** A double-quoted string at the cursor with escapes \\, \" and \n; null after an error. */
    String quoted() {
        String s = c.text;
        int end = c.end;
        int pos = c.pos + 1; // past the opening quote
        int st = pos;
        while (pos < end) {
            char ch = s.charAt(pos);
            if (ch == '"') {
                c.pos = pos + 1;
                return s.substring(st, pos);
            }
            if (ch == '\\') {
                break;
            }
            pos++;
        }
        StringBuilder sb = new StringBuilder().append(s, st, pos);
        while (pos < end) {
            char ch = s.charAt(pos);
            if (ch == '"') {
                c.pos = pos + 1;
                return sb.toString();
            }
            if (ch == '\\') {
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
                            c.pos = pos;
                            c.error("invalid escape '\\" + e + "' in a label value (allowed: \\\\, \\\" and \\n)");
                            return null;
                        }
                        // OpenMetrics: \t, \f... kept as written, as its project's parser does
                        sb.append('\\').append(e);
                    }
                }
                pos += 2;
            } else {
                sb.append(ch);
                pos++;
            }
        }
        c.pos = pos;
        c.error("label value is not closed with '\"'");
        return null;
    }
}
