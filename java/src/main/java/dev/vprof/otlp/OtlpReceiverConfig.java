package dev.vprof.otlp;

import java.net.InetSocketAddress;

/**
 * What the receiver starts ({@link OtlpReceiver#start}): the command line's {@code --otlp*}
 * options resolve into one (in {@code cli}), and the demo and tests build one directly.
 *
 * @param grpc         where OTLP/gRPC listens; null when that transport is off
 * @param http         where OTLP/HTTP listens; null when that transport is off
 * @param forward      the user's collector every request is passed on to; null when not asked
 * @param maxBodyBytes the largest request accepted, 1 to {@link #MAX_MAX_BODY_BYTES}
 */
public record OtlpReceiverConfig(InetSocketAddress grpc, InetSocketAddress http, ForwardTarget forward, long maxBodyBytes) {
    public static final long DEFAULT_MAX_BODY_BYTES = 16L << 20;
    /**
     * The most a request may be: a capture stores each request as it arrived in one chunk, whose
     * payload is at most 64 MiB, so a request must stay well below that.
     */
    public static final long MAX_MAX_BODY_BYTES = 32L << 20;

    public OtlpReceiverConfig {
        if (maxBodyBytes <= 0 || maxBodyBytes > MAX_MAX_BODY_BYTES) {
            throw new IllegalArgumentException("the OTLP request limit " + maxBodyBytes + " is outside 1 to "
                    + MAX_MAX_BODY_BYTES + " bytes");
        }
    }

    /** {@code HOST:PORT}, or {@code [V6]:PORT}, as vprof prints a listening address. */
    public static String format(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
