package dev.vprof.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * The page's shell and its one escaping rule. Every string from a capture (kernel names, span
 * attributes, metric labels, command lines, file names) reaches the page through {@link #text},
 * as text in an element or in a double-quoted attribute, never as markup. The shell's
 * Content-Security-Policy allows no network access of any kind, no inline event handler and no
 * script or style but the page's own, named by their SHA-256 hashes, and requires Trusted Types
 * (so even the page's own script cannot turn a string into markup).
 */
public final class Html {
    private Html() {}

    static final String CSS = resource("page.css");
    static final String JS = resource("page.js");

    /** The policy: nothing from anywhere, except this page's own script and style by hash. */
    static String contentSecurityPolicy() {
        return "default-src 'none'; script-src '" + sha256(JS) + "'; style-src '" + sha256(CSS) + "'; "
                + "img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; "
                + "frame-src 'none'; worker-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'; "
                + "require-trusted-types-for 'script'; trusted-types 'none'";
    }

    /** A whole page: the head (policy, title, style) and body, with the script last. */
    static String page(String title, String body) {
        StringBuilder out = new StringBuilder(body.length() + CSS.length() + JS.length() + 1024);
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(text(contentSecurityPolicy()))
                .append("\">\n<meta name=\"referrer\" content=\"no-referrer\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
                .append(text(title)).append("</title>\n<style>").append(CSS).append("</style>\n</head>\n<body>\n")
                .append(body)
                .append("<script>").append(JS).append("</script>\n</body>\n</html>\n");
        return out.toString();
    }

    /** A list of strings as text, one {@code <li>} each, between {@code open} and {@code close}; nothing when empty. */
    static void list(StringBuilder b, String open, List<String> items, String close) {
        if (items.isEmpty()) {
            return;
        }
        b.append(open);
        for (String item : items) {
            b.append("<li>").append(text(item)).append("</li>");
        }
        b.append(close);
    }

    /** The string as text: safe between tags and inside a double-quoted attribute. */
    public static String text(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> hidden(c) ? "\uFFFD" : null;
            };
            if (r == null && out == null) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (r == null) {
                out.append(c);
            } else {
                out.append(r);
            }
        }
        return out == null ? s : out.toString();
    }

    /**
     * Control characters, and the bidirectional overrides and isolates that would let a name show
     * text in another order than it has (U+202A..U+202E, U+2066..U+2069), besides line separators.
     */
    private static boolean hidden(char c) {
        return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c < 0xa0) || c == '\u2028' || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }

        /** A number for SVG coordinates: at most one decimal, no exponent, '.' whatever the locale. */
    static String n(double v) {
        if (!Double.isFinite(v)) {
            return "0";
        }
        long tenths = Math.round(v * 10);
        return tenths % 10 == 0 ? Long.toString(tenths / 10) : String.format(Locale.ROOT, "%.1f", tenths / 10.0);
    }

    static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    static String sha256(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    private static String resource(String name) {
        try (InputStream in = Html.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks dev/vprof/html/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
