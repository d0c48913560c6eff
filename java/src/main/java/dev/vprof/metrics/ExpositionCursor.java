package dev.vprof.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * The first stage of reading an exposition: its text cut into lines ({@code \n}, or {@code \r\n}),
 * a position within the current line, the scanning every later stage shares (blanks, tokens,
 * metric names) and the errors, each naming its line. Confined to one parse.
 */
final class ExpositionCursor {
    final String text;
    final List<ParseError> errors = new ArrayList<>();
    /** The current line: 1-based number, where it starts, where it ends (before any \r\n). */
    int lineNo;
    int lineStart;
    int end;
    /** The next character to read, from lineStart to end. */
    int pos;
    private int next;

    ExpositionCursor(String text) {
        this.text = text;
    }

    /** Whether a line is left to read. */
    boolean hasLine() {
        return next < text.length();
    }

    /** Moves to the next line (call only while {@link #hasLine}), at its start. */
    void nextLine() {
        int nl = text.indexOf('\n', next);
        int lineEnd = nl < 0 ? text.length() : nl;
        lineNo++;
        lineStart = next;
        end = lineEnd;
        if (end > lineStart && text.charAt(end - 1) == '\r') {
            end--;
        }
        pos = lineStart;
        next = lineEnd + 1;
    }

    /** The current line, without its line end. */
    String line() {
        return text.substring(lineStart, end);
    }

    boolean atEnd() {
        return pos >= end;
    }

    /** The character at the position; only while not {@link #atEnd}. */
    char peek() {
        return text.charAt(pos);
    }

    /** Whether the character at the position is {@code c}. */
    boolean at(char c) {
        return pos < end && text.charAt(pos) == c;
    }

    /** Whether the position is at a blank (space or tab). */
    boolean atBlank() {
        return pos < end && isBlank(text.charAt(pos));
    }

    /** The text from {@code from} to the position. */
    String since(int from) {
        return text.substring(from, pos);
    }

    void skipBlanks() {
        while (pos < end && isBlank(text.charAt(pos))) {
            pos++;
        }
    }

    /** Moves past the next run of characters that are not blanks. */
    void skipToken() {
        while (pos < end && !isBlank(text.charAt(pos))) {
            pos++;
        }
    }

    /** The token at the position (up to the next blank), moving past it. */
    String token() {
        int from = pos;
        skipToken();
        return since(from);
    }

    /** A metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) at the position, moving past it; null when none starts there. */
    String scanMetricName() {
        if (pos >= end || !isNameStart(text.charAt(pos))) {
            return null;
        }
        int st = pos++;
        while (pos < end && isNameChar(text.charAt(pos))) {
            pos++;
        }
        return text.substring(st, pos);
    }

    /** Whether the current line holds only blanks. */
    boolean lineIsBlank() {
        for (int i = lineStart; i < end; i++) {
            if (!isBlank(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** An error on the current line, with the line's start as its excerpt. */
    void error(String message) {
        errors.add(ParseError.at(lineNo, message, text, lineStart, end));
    }

    /** An error found after the line was read (a family checked whole), at {@code line}. */
    void errorAt(int line, String message) {
        errors.add(new ParseError(line, message, ""));
    }

    static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    }

    static boolean isNameChar(char c) {
        return isNameStart(c) || (c >= '0' && c <= '9');
    }

    static boolean isLabelNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static boolean isLabelNameChar(char c) {
        return isLabelNameStart(c) || (c >= '0' && c <= '9');
    }
}
