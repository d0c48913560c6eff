package dev.vprof.otlp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The request reader on its own, from bytes: what it takes from a well-formed request, and where it refuses. */
class HttpRequestReaderTest {
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();

    private HttpRequestReader reader(String bytes, long maxBody) {
        return new HttpRequestReader(new ByteArrayInputStream(bytes.getBytes(StandardCharsets.ISO_8859_1)), written, maxBody);
    }

    @Test
    void aChunkedBodyWithExtensionsAndTrailersIsJoined() throws Exception {
        HttpRequestReader r = reader("POST /v1/traces?x=1 HTTP/1.1\r\nTRANSFER-ENCODING: chunked\r\n\r\n"
                + "3;name=v\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n", 100);
        HttpRequestReader.Head h = r.readHead();
        assertEquals("POST", h.method());
        assertEquals("/v1/traces", h.path(), "the query is not part of the path");
        assertEquals("chunked", h.header("transfer-encoding"), "header names are case-insensitive");
        assertArrayEquals("abcde".getBytes(StandardCharsets.US_ASCII), r.readBody(h));
        assertNull(r.readHead(), "the stream's end after a whole request is no request, not an error");
    }

    @Test
    void bareLineFeedsAndABlankLineBeforeTheRequestAreTolerated() throws Exception {
        HttpRequestReader r = reader("\r\nPOST / HTTP/1.0\nContent-Length: 2\nConnection: keep-alive\n\nhi", 100);
        HttpRequestReader.Head h = r.readHead();
        assertEquals("HTTP/1.0", h.version());
        assertTrue(h.keepAlive(), "HTTP/1.0 keeps the connection only when asked");
        assertArrayEquals("hi".getBytes(StandardCharsets.US_ASCII), r.readBody(h));
    }

    @Test
    void keepAliveFollowsTheVersionAndTheConnectionHeader() throws Exception {
        assertTrue(reader("GET / HTTP/1.1\r\n\r\n", 1).readHead().keepAlive());
        assertFalse(reader("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 1).readHead().keepAlive());
        assertFalse(reader("GET / HTTP/1.0\r\n\r\n", 1).readHead().keepAlive());
    }

    @Test
    void aRepeatedHeaderKeepsItsFirstValue() throws Exception {
        HttpRequestReader.Head h = reader("POST / HTTP/1.1\r\nContent-Type: a\r\ncontent-type: b\r\n\r\n", 1).readHead();
        assertEquals("a", h.header("Content-Type"));
    }

    @Test
    void expectContinueIsAnsweredBeforeTheBodyIsReadAndNotWhenTheBodyIsRefused() throws Exception {
        HttpRequestReader r = reader("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx", 10);
        r.readBody(r.readHead());
        assertEquals("HTTP/1.1 100 Continue\r\n\r\n", written.toString(StandardCharsets.US_ASCII));
        written.reset();
        HttpRequestReader big = reader("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n", 10);
        HttpRequestReader.Refused e = assertThrows(HttpRequestReader.Refused.class, () -> big.readBody(big.readHead()));
        assertEquals(413, e.status);
        assertEquals(0, written.size(), "no 100 Continue for a body that will be refused");
    }

    /** What reading {@code request}'s body, once its head is read, is refused with. */
    private HttpRequestReader.Refused bodyRefused(String request, int limit) throws Exception {
        HttpRequestReader r = reader(request, limit);
        HttpRequestReader.Head h = r.readHead();
        return assertThrows(HttpRequestReader.Refused.class, () -> r.readBody(h));
    }

    @Test
    void chunksThatAddUpPastTheLimitAreRefusedBeforeTheyAreRead() throws Exception {
        HttpRequestReader.Refused e = bodyRefused(
                "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n", 10);
        assertEquals(413, e.status);
    }

    @Test
    void aBodyCutByTheStreamsEndSaysHowMuchCame() throws Exception {
        HttpRequestReader.Refused e = bodyRefused("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab", 10);
        assertEquals(400, e.status);
        assertEquals("the body ended after 2 of the 5 bytes its Content-Length declares", e.getMessage());
    }

    @Test
    void aNonAsciiByteInTheRequestLineIsRefusedAndShownAsItsValue() {
        HttpRequestReader.Refused e = assertThrows(HttpRequestReader.Refused.class,
                () -> reader("POST /\u00e9 HTTP/1.1\r\n\r\n", 1).readHead());
        assertEquals(400, e.status);
        assertTrue(e.getMessage().contains("byte 0xe9"), e.getMessage());
    }

    @Test
    void wireTextIsShownPrintableAndShort() {
        assertEquals("a?b", HttpRequestReader.printable("a\u001bb"));
        assertEquals("x".repeat(80) + "...", HttpRequestReader.printable("x".repeat(200)));
    }
}
