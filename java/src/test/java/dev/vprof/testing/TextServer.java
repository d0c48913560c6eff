package dev.vprof.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/** A started loopback HTTP server for tests that answers one path with a text the test makes per request. */
public final class TextServer {
    /** What a Prometheus exposition is served as. */
    public static final String EXPOSITION = "text/plain; version=0.0.4; charset=utf-8";

    private TextServer() {}

    /** Answers {@code path} (and every path below it) with {@code status} and {@code body}'s text as {@code contentType}; stop it with {@code stop(0)}. */
    public static HttpServer start(String path, int status, String contentType, Supplier<String> body)
            throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.createContext(path, ex -> {
            byte[] b = body.get().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", contentType);
            ex.sendResponseHeaders(status, b.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(b);
            }
        });
        s.start();
        return s;
    }

    /** A {@code /metrics} endpoint answering 200 with {@code body}'s exposition. */
    public static HttpServer metrics(Supplier<String> body) throws IOException {
        return start("/metrics", 200, EXPOSITION, body);
    }
}
