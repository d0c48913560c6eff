package dev.vprof.mcp;

/** Text from a call or a capture, shortened before it is quoted back in a sentence. */
final class Text {
    private Text() {}

    /** Characters of an argument quoted back in an error. */
    static final int QUOTED = 120;

    static String clip(String s) {
        return s.length() <= QUOTED ? s : s.substring(0, QUOTED) + "...";
    }
}
