package dev.vprof.otlp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HTTP/1.1 side of the OTLP/HTTP receiver: accepting connections, reading requests
 * ({@link HttpRequestReader}) and writing answers, with the limits that keep one client from
 * holding up another. The JDK's {@code com.sun.net.httpserver} served this before; it has no read
 * timeout, so four connections that sent headers and no body held its four handler threads and a
 * valid exporter got no answer, and a body shorter than its Content-Length, or bytes that are not
 * HTTP, were never answered.
 *
 * <ul>
 *   <li>Each connection has its own thread, so a slow or silent client holds only its own
 *       connection, never a thread another needs. A platform thread, not a virtual one: virtual
 *       threads share the JVM's few carrier threads (one per core) with every other virtual
 *       thread in the process, and a blocking call the JDK does not compensate for (open(2) of a
 *       FIFO no one reads; a native call) holds its carrier. With both carriers of a 2-core
 *       machine held that way, no connection was ever run: a malformed request was answered
 *       only when the capture ended and closed it. {@link #MAX_CONNECTIONS} bounds the threads.</li>
 *   <li>{@link #READ_TIMEOUT}: a request that stops arriving (headers without their end, a
 *       body shorter than it said) is answered 400 with what was missing and the connection is
 *       closed. Exporters write a request in one go, so a pause this long is a sender that
 *       stopped, not one that is slow.</li>
 *   <li>{@link #IDLE_TIMEOUT}: a kept-alive connection with no next request is closed quietly.
 *       It is longer than the gap between an exporter's batches (a few seconds), so exporters
 *       keep their connection.</li>
 *   <li>{@link #MAX_CONNECTIONS}: past it, a new connection is answered 503 (the sender retries)
 *       and closed at once, so idle connections cannot pile up without bound.</li>
 * </ul>
 */
final class HttpConnections implements AutoCloseable {
    static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
    static final int MAX_CONNECTIONS = 128;

    /** What the receiver does with requests. Called on the connection's thread; must be thread-safe. */
    interface Handler {
        /** The answer to a request read whole. */
        Response handle(HttpRequestReader.Head head, byte[] body);

        /**
         * The answer to a request that could not be read ({@code head} null when even its head was
         * not) or that this server refuses (too many connections): the status and the sentence why.
         */
        Response refused(HttpRequestReader.Head head, int status, String message);
    }

    /** An answer: status, Content-Type, body and any further headers (Allow). */
    record Response(int status, String contentType, byte[] body, Map<String, String> headers) {
        Response(int status, String contentType, byte[] body) {
            this(status, contentType, body, Map.of());
        }
    }

    private final ServerSocket listener;
    private final Handler handler;
    private final long maxBody;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean closed;

    private HttpConnections(ServerSocket listener, Handler handler, long maxBody) {
        this.listener = listener;
        this.handler = handler;
        this.maxBody = maxBody;
        this.acceptor = Thread.ofPlatform().daemon().name("vprof-otlp-http-accept").unstarted(this::acceptLoop);
    }

    /** Binds {@code address} and starts accepting; a port in use is a {@link BindException}. */
    static HttpConnections start(InetSocketAddress address, Handler handler, long maxBody) throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(address, 64);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        HttpConnections c = new HttpConnections(s, handler, maxBody);
        c.acceptor.start();
        return c;
    }

    InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue; // one failed accept (the client reset first): the next one may work
            }
            if (open.size() >= MAX_CONNECTIONS) {
                refuseBusy(s);
                continue;
            }
            open.add(s);
            Thread.ofPlatform().daemon().name("vprof-otlp-http-conn").start(() -> serve(s));
        }
    }

    /** A connection past the limit: answered on the accepting thread (a few bytes into an empty socket buffer) and closed. */
    private void refuseBusy(Socket s) {
        try (s) {
            s.setSoTimeout((int) READ_TIMEOUT.toMillis());
            write(s.getOutputStream(), handler.refused(null, 503, "the receiver has " + MAX_CONNECTIONS
                    + " connections open; retry later"), false);
        } catch (IOException e) {
            // the client is gone: nothing to answer
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            BufferedInputStream in = new BufferedInputStream(s.getInputStream(), 16384);
            OutputStream out = new BufferedOutputStream(s.getOutputStream(), 16384);
            HttpRequestReader reader = new HttpRequestReader(in, out, maxBody);
            while (!closed) {
                s.setSoTimeout((int) IDLE_TIMEOUT.toMillis());
                HttpRequestReader.Head head = null;
                Response answer;
                boolean keepAlive;
                try {
                    in.mark(1);
                    if (in.read() < 0) {
                        return; // the client closed between requests
                    }
                    in.reset();
                    s.setSoTimeout((int) READ_TIMEOUT.toMillis());
                    head = reader.readHead();
                    if (head == null) {
                        return;
                    }
                    byte[] body = reader.readBody(head);
                    answer = handler.handle(head, body);
                    keepAlive = head.keepAlive();
                } catch (HttpRequestReader.Refused r) {
                    // The rest of the request is not read, so the connection cannot carry another.
                    answer = handler.refused(head, r.status, r.getMessage());
                    keepAlive = false;
                }
                write(out, answer, keepAlive);
                if (!keepAlive) {
                    lingeringClose(s, in);
                    return;
                }
            }
        } catch (IOException e) {
            // the connection broke or timed out while idle: nothing more to answer on it
        } finally {
            open.remove(s);
        }
    }

    /**
     * Ends a connection whose request was not read to its end: closing with unread bytes makes
     * the kernel send a reset, which can reach the client before it has read the answer. So the
     * output is shut first and what the client is still sending is read and dropped for a moment
     * (a bounded amount), as web servers do on a "lingering close".
     */
    private static void lingeringClose(Socket s, BufferedInputStream in) throws IOException {
        s.shutdownOutput();
        s.setSoTimeout(LINGER_MILLIS);
        byte[] sink = new byte[16384];
        long deadline = System.nanoTime() + LINGER_MILLIS * 1_000_000L;
        for (long dropped = 0; dropped < LINGER_BYTES && System.nanoTime() < deadline; ) {
            int n = in.read(sink);
            if (n < 0) {
                return;
            }
            dropped += n;
        }
    }

    private static final int LINGER_MILLIS = 500;
    private static final long LINGER_BYTES = 4L << 20;

    private static void write(OutputStream out, Response r, boolean keepAlive) throws IOException {
        StringBuilder h = new StringBuilder("HTTP/1.1 ").append(r.status()).append(' ').append(reason(r.status()))
                .append("\r\nContent-Type: ").append(r.contentType())
                .append("\r\nContent-Length: ").append(r.body().length).append("\r\n");
        for (Map.Entry<String, String> e : r.headers().entrySet()) {
            h.append(e.getKey()).append(": ").append(e.getValue()).append("\r\n");
        }
        if (!keepAlive) {
            h.append("Connection: close\r\n");
        }
        out.write(h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(r.body());
        out.flush();
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 415 -> "Unsupported Media Type";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 503 -> "Service Unavailable";
            case 505 -> "HTTP Version Not Supported";
            default -> "Status";
        };
    }

    /** Stops accepting and closes every open connection (their threads end on the closed socket). */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closing: nothing to do about it
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException | RuntimeException e) {
                // already closed by its thread
            }
        }
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
