package dev.vprof.cli;

import dev.vprof.otlp.ForwardTarget;
import dev.vprof.otlp.OtlpReceiverConfig;
import java.net.InetSocketAddress;
import picocli.CommandLine.Option;

/**
 * The OTLP receiver's command-line options, as a picocli mixin ({@code @Mixin OtlpOptions otlp;})
 * or built directly in code and tests; {@link #resolve} turns them into the
 * {@link OtlpReceiverConfig} the receiver starts from. Any of the options turns the receiver on;
 * the address options only move a transport, and {@code off} turns one transport off.
 *
 * <pre>
 * --otlp                      gRPC on 127.0.0.1:4317 and HTTP on 127.0.0.1:4318
 * --otlp-grpc [HOST:]PORT|off gRPC elsewhere (e.g. 14317, 0.0.0.0:4317, [::1]:4317)
 * --otlp-http [HOST:]PORT|off HTTP elsewhere
 * --otlp-forward URL          pass every request on to the user's collector (see ForwardTarget)
 * --otlp-max-body BYTES       request size limit (a size as {@link Units#size} reads it: 16m), default 16 MiB, at most 32 MiB
 * </pre>
 * A bare PORT binds the loopback address: receiving from other hosts must be asked for.
 */
final class OtlpOptions {
    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_GRPC_PORT = 4317;
    static final int DEFAULT_HTTP_PORT = 4318;

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

    OtlpOptions() {}

    OtlpOptions(boolean otlp, String grpc, String http, String forward, String maxBody) {
        this.otlp = otlp;
        this.grpc = grpc;
        this.http = http;
        this.forward = forward;
        this.maxBody = maxBody;
    }

    boolean enabled() {
        return otlp || grpc != null || http != null || forward != null;
    }

    /**
     * Resolves the options.
     *
     * @return null when the receiver is not enabled
     * @throws CliException with a message naming the option, for bad values
     */
    OtlpReceiverConfig resolve() {
        if (!enabled()) {
            return null;
        }
        InetSocketAddress g = grpc == null ? loopback(DEFAULT_GRPC_PORT) : parseAddress("--otlp-grpc", grpc);
        InetSocketAddress h = http == null ? loopback(DEFAULT_HTTP_PORT) : parseAddress("--otlp-http", http);
        if (g == null && h == null) {
            throw new CliException("--otlp-grpc off and --otlp-http off leave no way to receive spans");
        }
        ForwardTarget f;
        try {
            f = forward == null ? null : ForwardTarget.parse(forward);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), e);
        }
        long max = maxBody == null ? OtlpReceiverConfig.DEFAULT_MAX_BODY_BYTES : Units.size("--otlp-max-body", maxBody);
        if (max > OtlpReceiverConfig.MAX_MAX_BODY_BYTES) {
            throw new CliException("--otlp-max-body " + maxBody + " is over the " + (OtlpReceiverConfig.MAX_MAX_BODY_BYTES >> 20)
                    + "m a capture stores in one piece; send smaller batches (the exporter's max batch size)");
        }
        return new OtlpReceiverConfig(g, h, f, max);
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(DEFAULT_HOST, port);
    }

    /** Parses {@code [HOST:]PORT} ({@code [v6]:PORT} for IPv6), or {@code off} (null). */
    static InetSocketAddress parseAddress(String option, String value) {
        String v = value.trim();
        if (v.equalsIgnoreCase("off")) {
            return null;
        }
        String host = DEFAULT_HOST;
        String port = v;
        if (v.startsWith("[")) {
            int close = v.indexOf("]:");
            if (close < 0) {
                throw new CliException(option + ": '" + value + "' must be [IPV6]:PORT");
            }
            host = v.substring(1, close);
            port = v.substring(close + 2);
        } else if (v.indexOf(':') >= 0) {
            int colon = v.lastIndexOf(':');
            if (v.indexOf(':') != colon) {
                throw new CliException(option + ": '" + value + "': write IPv6 hosts as [ADDRESS]:PORT");
            }
            host = v.substring(0, colon);
            port = v.substring(colon + 1);
            if (host.isEmpty()) {
                throw new CliException(option + ": '" + value + "' has an empty host; write PORT or HOST:PORT");
            }
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new CliException(option + ": '" + port + "' is not a port number (expected [HOST:]PORT)");
        }
        if (p < 0 || p > 65535) {
            throw new CliException(option + ": port " + p + " is outside 0-65535");
        }
        InetSocketAddress a = new InetSocketAddress(host, p);
        if (a.isUnresolved()) {
            throw new CliException(option + ": cannot resolve host '" + host + "'");
        }
        return a;
    }
}
