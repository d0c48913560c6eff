package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureFormat;
import dev.vprof.otlp.ForwardTarget;
import dev.vprof.otlp.OtlpReceiverConfig;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class OtlpOptionsTest {

    @CommandLine.Command(name = "t")
    static final class Cmd {
        @CommandLine.Mixin
        OtlpOptions otlp;
    }

    private static OtlpReceiverConfig parse(String... args) {
        Cmd c = new Cmd();
        new CommandLine(c).parseArgs(args);
        return c.otlp.resolve();
    }

    @Test
    void otlpAloneListensOnLoopbackStandardPorts() {
        OtlpReceiverConfig c = parse("--otlp");
        assertEquals(new InetSocketAddress("127.0.0.1", 4317), c.grpc());
        assertEquals(new InetSocketAddress("127.0.0.1", 4318), c.http());
        assertNull(c.forward());
        assertEquals(16L << 20, c.maxBodyBytes());
        assertNull(parse());
    }

    @Test
    void addressOptionsMoveOneTransportAndEnableTheReceiver() {
        OtlpReceiverConfig c = parse("--otlp-http", "0.0.0.0:14318", "--otlp-grpc", "off", "--otlp-max-body", "1m");
        assertNull(c.grpc());
        assertEquals(new InetSocketAddress("0.0.0.0", 14318), c.http());
        assertEquals(1 << 20, c.maxBodyBytes());
        assertEquals(new InetSocketAddress("127.0.0.1", 9999), parse("--otlp-grpc", "9999").grpc());
        assertEquals(new InetSocketAddress("::1", 4317), OtlpOptions.parseAddress("--otlp-grpc", "[::1]:4317"));
    }

    @Test
    void theBodyLimitStaysBelowWhatOneCaptureChunkHolds() {
        // A received request is stored as it arrived, in one SPANS chunk: no request may outgrow one.
        assertTrue(OtlpReceiverConfig.MAX_MAX_BODY_BYTES + 64 < CaptureFormat.MAX_PAYLOAD);
        assertEquals(OtlpReceiverConfig.MAX_MAX_BODY_BYTES, parse("--otlp", "--otlp-max-body", "32m").maxBodyBytes());
        var e = assertThrows(CliException.class, () -> parse("--otlp", "--otlp-max-body", "33m"));
        assertTrue(e.getMessage().startsWith("--otlp-max-body 33m is over the 32m"), e.getMessage());
    }

    @Test
    void theBodyLimitIsReadByTheCommandLinesOneSizeParser() {
        assertEquals(1L << 20, parse("--otlp", "--otlp-max-body", "1 MiB").maxBodyBytes());
        assertEquals(1L << 20, parse("--otlp", "--otlp-max-body", "1mb").maxBodyBytes());
        assertEquals(1L << 20, parse("--otlp", "--otlp-max-body", "1048576").maxBodyBytes());
        assertEquals(512L << 10, parse("--otlp", "--otlp-max-body", "512k").maxBodyBytes());
        var e = assertThrows(CliException.class, () -> parse("--otlp", "--otlp-max-body", "16x"));
        assertTrue(e.getMessage().startsWith("--otlp-max-body '16x' is not a size"), e.getMessage());
    }

    @Test
    void badValuesNameTheOption() {
        var e = assertThrows(CliException.class, () -> parse("--otlp-http", "localhost:http"));
        assertTrue(e.getMessage().startsWith("--otlp-http"), e.getMessage());
        assertThrows(CliException.class, () -> parse("--otlp-grpc", "70000"));
        assertThrows(CliException.class, () -> parse("--otlp-grpc", "off", "--otlp-http", "off"));
        assertThrows(CliException.class, () -> parse("--otlp-forward", "ftp://x"));
    }

    @Test
    void forwardUrlsChooseTheTransport() {
        assertEquals(ForwardTarget.Kind.GRPC, ForwardTarget.parse("grpc://collector").kind());
        assertEquals(4317, ForwardTarget.parse("grpc://collector").port());
        assertEquals(ForwardTarget.Kind.GRPC, ForwardTarget.parse("http://collector:4317").kind());
        ForwardTarget h = ForwardTarget.parse("http://collector:4318");
        assertEquals(ForwardTarget.Kind.HTTP, h.kind());
        assertEquals("http://collector:4318/v1/traces", h.httpUri().toString());
        assertEquals("http://c:4317/v1/traces", ForwardTarget.parse("http://c:4317/v1/traces").httpUri().toString());
        assertEquals("https://c/otlp/v1/traces", ForwardTarget.parse("https://c/otlp/").httpUri().toString());
    }
}
