package dev.vprof.otlp;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads one HTTP/1.x request from a connection, every part bounded: the request line and each
 * header line ({@link #MAX_LINE} bytes), the number of headers, the body ({@code maxBody}, by
 * Content-Length or chunked). Anything that is not a request this receiver can take is a
 * {@link Refused} with the status to answer and a sentence saying why, raised as soon as the
 * bytes show it: a byte that cannot be in a request line is refused when it arrives, not when
 * the line would have ended. The reader is given a stream whose reads time out (the socket's
 * read timeout), and a timeout mid-request is a refusal too: the sender stopped sending.
 */
final class HttpRequestReader {
    /** The longest request line or header line: OTLP's are a few dozen bytes. */
    static final int MAX_LINE = 8192;
    /** The most header lines one request may have. */
    static final int MAX_HEADERS = 100;

    /** A request that is refused: the HTTP status and why; the connection is closed after the answer. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /** What the reader knows of a request once its headers are in, so that a refusal of its body can be encoded as it asked. */
    record Head(String method, String path, String version, Map<String, String> headers) {
        /** A header's value (names are case-insensitive), or null. */
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /** Whether the connection stays open after the answer (HTTP/1.1 unless "close"; HTTP/1.0 only when asked). */
        boolean keepAlive() {
            String c = header("Connection");
            String connection = c == null ? "" : c.toLowerCase(Locale.ROOT);
            return version.equals("HTTP/1.1") ? !connection.contains("close") : connection.contains("keep-alive");
        }
    }

    private final InputStream in;
    private final OutputStream out;
    private final long maxBody;

    /**
     * @param in      the connection's input, buffered, its reads timing out
     * @param out     the connection's output, for {@code 100 Continue}
     * @param maxBody the largest body accepted, in bytes
     */
    HttpRequestReader(InputStream in, OutputStream out, long maxBody) {
        this.in = in;
        this.out = out;
        this.maxBody = maxBody;
    }

    /**
     * The next request's head, or null when the connection ended (or stayed silent past its read
     * timeout) before the first byte of one: a client that is done, not a malformed request.
     */
    Head readHead() throws IOException, Refused {
        int first;
        try {
            first = in.read();
        } catch (SocketTimeoutException e) {
            return null;
        }
        if (first < 0) {
            return null;
        }
        String line = requestLine(first);
        String[] parts = line.split(" ", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty()) {
            throw new Refused(400, "the request line '" + printable(line) + "' is not METHOD PATH HTTP/1.1");
        }
        String version = parts[2];
        if (version.equals("HTTP/2.0")) {
            throw new Refused(505, "this port speaks OTLP/HTTP over HTTP/1.1; send gRPC to the --otlp-grpc port");
        }
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
            throw new Refused(505, "'" + printable(version) + "' is not HTTP/1.0 or HTTP/1.1");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (int n = 0; ; n++) {
            String h = line("a header line");
            if (h.isEmpty()) {
                break;
            }
            if (n >= MAX_HEADERS) {
                throw new Refused(431, "more than " + MAX_HEADERS + " header lines");
            }
            int colon = h.indexOf(':');
            if (colon <= 0 || !isToken(h.substring(0, colon))) {
                throw new Refused(400, "the header line '" + printable(h) + "' is not NAME: VALUE");
            }
            // A repeated header keeps its first value, as the receiver reads only one of each.
            headers.putIfAbsent(h.substring(0, colon).toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
        }
        String path = parts[1];
        int query = path.indexOf('?');
        return new Head(parts[0], query < 0 ? path : path.substring(0, query), version, headers);
    }

    /** The body of a request whose head {@link #readHead} returned, by its Content-Length or chunked. */
    byte[] readBody(Head head) throws IOException, Refused {
        String te = head.header("Transfer-Encoding");
        String cl = head.header("Content-Length");
        if (te != null && cl != null) {
            throw new Refused(400, "the request has both Transfer-Encoding and Content-Length");
        }
        if (te != null && !te.equalsIgnoreCase("chunked")) {
            throw new Refused(501, "unsupported Transfer-Encoding '" + printable(te) + "': send chunked or a Content-Length");
        }
        long declared = -1;
        if (cl != null) {
            try {
                declared = Long.parseLong(cl);
            } catch (NumberFormatException e) {
                declared = -2;
            }
            if (declared < 0) {
                throw new Refused(400, "the Content-Length '" + printable(cl) + "' is not a number of bytes");
            }
            if (declared > maxBody) {
                throw new Refused(413, "request body of " + declared + " bytes exceeds the limit of " + maxBody
                        + " bytes; send smaller batches (the exporter's max batch size)");
            }
        }
        String expect = head.header("Expect");
        if (expect != null && expect.equalsIgnoreCase("100-continue") && head.version().equals("HTTP/1.1")) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        if (te != null) {
            return chunked();
        }
        return declared <= 0 ? new byte[0] : exactly((int) declared);
    }

    private byte[] exactly(int length) throws IOException, Refused {
        byte[] body = new byte[length];
        int got = 0;
        try {
            while (got < length) {
                int n = in.read(body, got, length - got);
                if (n < 0) {
                    throw new Refused(400, "the body ended after " + got + " of the " + length
                            + " bytes its Content-Length declares");
                }
                got += n;
            }
        } catch (SocketTimeoutException e) {
            throw new Refused(400, "the body stopped after " + got + " of the " + length
                    + " bytes its Content-Length declares (nothing more came)");
        }
        return body;
    }

    private byte[] chunked() throws IOException, Refused {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line("a chunk size");
            int semi = sizeLine.indexOf(';');
            String hex = (semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim();
            long size;
            try {
                size = hex.isEmpty() || hex.length() > 15 ? -1 : Long.parseLong(hex, 16);
            } catch (NumberFormatException e) {
                size = -1;
            }
            if (size < 0) {
                throw new Refused(400, "the chunk size '" + printable(sizeLine) + "' is not a hexadecimal number");
            }
            if (size == 0) {
                break;
            }
            if (body.size() + size > maxBody) {
                throw new Refused(413, "request body exceeds the limit of " + maxBody
                        + " bytes; send smaller batches (the exporter's max batch size)");
            }
            body.write(exactly((int) size));
            if (!line("the end of a chunk").isEmpty()) {
                throw new Refused(400, "a chunk is longer than its size says");
            }
        }
        for (int n = 0; !line("a trailer line").isEmpty(); n++) {
            if (n >= MAX_HEADERS) {
                throw new Refused(431, "more than " + MAX_HEADERS + " trailer lines");
            }
        }
        return body.toByteArray();
    }

    /**
     * The request line, from its first byte: only printable ASCII may be in one, so the first
     * byte that is not (binary data, TLS, an HTTP/2 frame) is refused as it arrives.
     */
    private String requestLine(int first) throws IOException, Refused {
        StringBuilder b = new StringBuilder();
        int c = first;
        try {
            while (true) {
                if (c < 0) {
                    throw new Refused(400, "the connection ended inside the request line");
                }
                if (c == '\n' || c == '\r') {
                    if (c == '\r' && in.read() != '\n') {
                        throw new Refused(400, "the request line does not end with CRLF");
                    }
                    if (b.isEmpty()) {
                        // A blank line before a request is tolerated (RFC 9112, section 2.2).
                        c = in.read();
                        continue;
                    }
                    return b.toString();
                }
                if (c < 0x20 || c > 0x7e) {
                    throw new Refused(400, "these bytes are not an HTTP request (byte 0x"
                            + String.format(Locale.ROOT, "%02x", c) + " in the request line)");
                }
                if (b.length() >= MAX_LINE) {
                    throw new Refused(414, "the request line is longer than " + MAX_LINE + " bytes");
                }
                b.append((char) c);
                c = in.read();
            }
        } catch (SocketTimeoutException e) {
            throw new Refused(400, "the request line did not end (nothing more came after '" + printable(b.toString()) + "')");
        }
    }

    /** One CRLF-ended line of the head or of the chunk framing, as ISO-8859-1 text. */
    private String line(String what) throws IOException, Refused {
        StringBuilder b = new StringBuilder();
        try {
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new Refused(400, "the connection ended inside " + what);
                }
                if (c == '\n') {
                    int end = b.length();
                    return end > 0 && b.charAt(end - 1) == '\r' ? b.substring(0, end - 1) : b.toString();
                }
                if (b.length() >= MAX_LINE) {
                    throw new Refused(431, what + " is longer than " + MAX_LINE + " bytes");
                }
                b.append((char) c);
            }
        } catch (SocketTimeoutException e) {
            throw new Refused(400, "the request stopped inside " + what + " (nothing more came)");
        } catch (EOFException e) {
            throw new Refused(400, "the connection ended inside " + what);
        }
    }

    private static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    /** A string from the wire as it may be shown: at most 80 characters, control and non-ASCII ones as '?'. */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && i < 80; i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return s.length() > 80 ? b + "..." : b.toString();
    }
}
