package dev.vprof.metrics;

/**
 * What OpenMetrics 1.0 asks of a line's whitespace, which the Prometheus text format leaves
 * loose: no blank line, tokens separated by exactly one space (no tab, no run of spaces, nothing
 * trailing) outside quoted label values and HELP text, and metadata lines whole
 * ({@code # HELP name TEXT} and {@code # UNIT name UNIT} with their one space even when the text
 * is empty). Checked before a line is parsed; the OpenMetrics project's parser test cases
 * (src/test/resources/openmetrics-parsers) are the reference.
 */
final class OpenMetricsLines {
    private OpenMetricsLines() {}

    /** Why {@code line} (without its newline) breaks these rules, or null when it keeps them. */
    static String check(String line) {
        if (line.isEmpty()) {
            return "blank line (OpenMetrics allows none)";
        }
        if (line.startsWith("# HELP ") || line.startsWith("# UNIT ") || line.startsWith("# TYPE ")) {
            return metadata(line);
        }
        if (line.startsWith("#")) {
            return null; // # EOF and other comments are the parser's
        }
        return separators(line, 0, "sample");
    }

    private static String metadata(String line) {
        String kind = line.substring(2, 6);
        int nameEnd = 7;
        while (nameEnd < line.length() && line.charAt(nameEnd) != ' ' && line.charAt(nameEnd) != '\t') {
            nameEnd++;
        }
        if (nameEnd == 7) {
            return null; // no name: the parser says so
        }
        if (nameEnd == line.length()) {
            return kind.equals("TYPE") ? null // the parser says a type is missing
                    : "'# " + kind + " NAME' needs one space and its text after the name, even when the text is empty";
        }
        if (line.charAt(nameEnd) != ' ') {
            return "'# " + kind + "' separates the name from its text with one space, not a tab";
        }
        if (kind.equals("HELP")) {
            return null; // the text is free
        }
        String rest = line.substring(nameEnd + 1);
        if (kind.equals("UNIT") && rest.isEmpty()) {
            return null;
        }
        if (rest.isEmpty() || rest.indexOf(' ') >= 0 || rest.indexOf('\t') >= 0) {
            return "'# " + kind + "' takes one word after the name, with no other whitespace";
        }
        return null;
    }

    /** Outside quotes: no tab, no two spaces in a row, no space at the start or the end. */
    private static String separators(String line, int from, String what) {
        boolean quoted = false;
        char prev = 0;
        for (int i = from; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
                prev = c;
                continue;
            }
            if (c == '"') {
                quoted = true;
            } else if (c == '\t') {
                return "a tab in a " + what + " line (OpenMetrics separates tokens with one space)";
            } else if (c == ' ' && (prev == ' ' || i == from)) {
                return "two spaces in a row in a " + what + " line (OpenMetrics separates tokens with one space)";
            }
            prev = c;
        }
        if (prev == ' ') {
            return "a space at the end of a " + what + " line";
        }
        return null;
    }
}
