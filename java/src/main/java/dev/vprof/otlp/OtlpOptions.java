package dev.vprof.otlp;

import java.net.InetSocketAddress;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The receiver's command-line options, as a picocli mixin ({@code @Mixin OtlpOptions otlp;})
 * or built directly in code and tests. Any of the options turns the receiver on; the address
 * options only move a transport, and {@code off} turns one transport off.
 *
 * <pre>
 * --otlp                      gRPC on 127.0.0.1:4317 and HTTP on 127.0.0.1:4318
 * --otlp-grpc [HOST:]PORT|off gRPC elsewhere (e.g. 14317, 0.0.0.0:4317, [::1]:4317)
 * --otlp-http [HOST:]PORT|off HTTP elsewhere
 * --otlp-forward URL          pass every request on to the user's collector (see ForwardTarget)
 * --otlp-max-body BYTES       request size limit (suffixes k, m: 16m), default 16 MiB, at most 32 MiB
 * </pre>
 * A bare PORT binds the loopback address: receiving from other hosts must be asked for.
 */
public final class OtlpOptions {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_GRPC_PORT = 4317;
    public static final int DEFAULT_HTTP_PORT = 4318;
    public static final long DEFAULT_MAX_BODY_BYTES = 16L << 20;
    /**
     * The most {@code --otlp-max-body} may be: a capture stores each request as it arrived in one
     * chunk, whose payload is at most 64 MiB, so a request must stay well below that.
     */
    public static final long MAX_MAX_BODY_BYTES = 32L << 20;

    @Option(names = "--otlp", description = "Receive OpenTelemetry spans: OTLP/gRPC on 127.0.0.1:4317, OTLP/HTTP on 127.0.0.1:4318.")
    boolean otlp;

    @Option(names = "--otlp-grpc", paramLabel = "[HOST:]PORT", description = "OTLP/gRPC address (enables the receiver; 'off' disables gRPC).")
    String grpc;

    @Option(names = "--otlp-http", paramLabel = "[HOST:]PORT", description = "OTLP/HTTP address (enables the receiver; 'off' disables HTTP).")
    String http;

    @Option(names = "--otlp-forward", paramLabel = "URL", description = "Pass every OTLP request on, unchanged, to this collector (grpc://HOST:4317 or http://HOST:4318/v1/traces).")
    String forward;

    @Option(names = "--otlp-max-body", paramLabel = "BYTES", description = "Largest OTLP request accepted (default 16m, at most 32m).")
    String maxBody;

    public OtlpOptions() {}

    public OtlpOptions(boolean otlp, String grpc, String http, String forward, String maxBody) {
        this.otlp = otlp;
        this.grpc = grpc;
        this.http = http;
        this.forward = forward;
        this.maxBody = maxBody;
    }

    /** What to start. {@code grpc}/{@code http} are null when that transport is off; {@code forward} when not asked. */
    public record Config(InetSocketAddress grpc, InetSocketAddress http, ForwardTarget forward, long maxBodyBytes) {}

    public boolean enabled() {
        return otlp || grpc != null || http != null || forward != null;
    }

    /**
     * Resolves the options.
     *
     * @return null when the receiver is not enabled
     * @throws IllegalArgumentException with a message naming the option, for bad values
     */
    public Config resolve() {
        if (!enabled()) {
            return null;
        }
        InetSocketAddress g = grpc == null ? loopback(DEFAULT_GRPC_PORT) : parseAddress("--otlp-grpc", grpc);
        InetSocketAddress h = http == null ? loopback(DEFAULT_HTTP_PORT) : parseAddress("--otlp-http", http);
        if (g == null && h == null) {
            throw new IllegalArgumentException("--otlp-grpc off and --otlp-http off leave no way to receive spans");
        }
        ForwardTarget f = forward == null ? null : ForwardTarget.parse(forward);
        long max = maxBody == null ? DEFAULT_MAX_BODY_BYTES : parseSize("--otlp-max-body", maxBody);
        if (max > MAX_MAX_BODY_BYTES) {
            throw new IllegalArgumentException("--otlp-max-body " + maxBody + " is over the " + (MAX_MAX_BODY_BYTES >> 20)
                    + "m a capture stores in one piece; send smaller batches (the exporter's max batch size)");
        }
        return new Config(g, h, f, max);
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(DEFAULT_HOST, port);
    }

    /** Parses {@code [HOST:]PORT} ({@code [v6]:PORT} for IPv6), or {@code off} (null). */
    public static InetSocketAddress parseAddress(String option, String value) {
        String v = value.trim();
        if (v.equalsIgnoreCase("off")) {
            return null;
        }
        String host = DEFAULT_HOST;
        String port = v;
        if (v.startsWith("[")) {
            int close = v.indexOf("]:");
            if (close < 0) {
                throw new IllegalArgumentException(option + ": '" + value + "' must be [IPV6]:PORT");
            }
            host = v.substring(1, close);
            port = v.substring(close + 2);
        } else if (v.indexOf(':') >= 0) {
            int colon = v.lastIndexOf(':');
            if (v.indexOf(':') != colon) {
                throw new IllegalArgumentException(option + ": '" + value + "': write IPv6 hosts as [ADDRESS]:PORT");
            }
            host = v.substring(0, colon);
            port = v.substring(colon + 1);
            if (host.isEmpty()) {
                throw new IllegalArgumentException(option + ": '" + value + "' has an empty host; write PORT or HOST:PORT");
            }
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + port + "' is not a port number (expected [HOST:]PORT)");
        }
        if (p < 0 || p > 65535) {
            throw new IllegalArgumentException(option + ": port " + p + " is outside 0-65535");
        }
        InetSocketAddress a = new InetSocketAddress(host, p);
        if (a.isUnresolved()) {
            throw new IllegalArgumentException(option + ": cannot resolve host '" + host + "'");
        }
        return a;
    }

    static long parseSize(String option, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        if (v.endsWith("ib")) {
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("b")) {
            v = v.substring(0, v.length() - 1);
        }
        if (v.endsWith("k")) {
            mult = 1L << 10;
        } else if (v.endsWith("m")) {
            mult = 1L << 20;
        } else if (v.endsWith("g")) {
            mult = 1L << 30;
        }
        if (mult != 1) {
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v.trim()) * mult;
            if (n <= 0 || n > Integer.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + value + "' is not a size between 1 and 2g (e.g. 16m)");
        }
    }

    public static String format(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
