package dev.vprof.names;

import java.util.Locale;

/**
 * Text from a capture (a kernel's, range's or call's name, a step's label) made safe to print on
 * a terminal: here, low in the package map, so that every reader that prints a name (the diff,
 * the analyses, the nsys reader's warnings) escapes it the one same way.
 */
public final class TerminalText {
    private TerminalText() {}

    /** Control and non-printable characters as \\uXXXX, so a name cannot move the cursor or hide text. */
    public static String escape(String s) {
        if (s == null) return "";
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean bad = c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029'
                    || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
            if (bad) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }
}
