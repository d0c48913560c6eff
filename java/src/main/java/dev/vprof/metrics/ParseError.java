package dev.vprof.metrics;

/**
 * One problem in an exposition. {@code line} is 1-based; 0 means the exposition as a whole
 * (for example a missing {@code # EOF}). {@code excerpt} is the start of the offending line.
 */
public record ParseError(int line, String message, String excerpt) {
    private static final int EXCERPT_CHARS = 120;

    static ParseError at(int line, String message, CharSequence text, int lineStart, int lineEnd) {
        int end = Math.min(lineEnd, lineStart + EXCERPT_CHARS);
        String excerpt = text.subSequence(lineStart, end).toString();
        if (end < lineEnd) {
            excerpt += "...";
        }
        return new ParseError(line, message, excerpt);
    }

    @Override
    public String toString() {
        String where = line > 0 ? "line " + line + ": " : "";
        return excerpt == null || excerpt.isEmpty() ? where + message : where + message + ": " + excerpt;
    }
}
