package dev.vprof.otlp;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where {@code --otlp-forward URL} sends what the receiver gets, and how.
 * <ul>
 * <li>{@code grpc://HOST[:PORT]} (port 4317 by default): OTLP/gRPC, plaintext.</li>
 * <li>{@code http(s)://HOST:PORT/.../v1/traces}: OTLP/HTTP to exactly that URL.</li>
 * <li>{@code http(s)://HOST:4317} with no path: OTLP/gRPC (the collector's gRPC port);
 *     TLS when the scheme is https.</li>
 * <li>any other {@code http(s)://HOST:PORT[/base]}: OTLP/HTTP to {@code base + /v1/traces}.</li>
 * </ul>
 *
 * @param httpUri the full /v1/traces URL for HTTP targets, null for gRPC ones
 */
public record ForwardTarget(Kind kind, String host, int port, boolean tls, URI httpUri) {

    public enum Kind { GRPC, HTTP }

    public static final int GRPC_DEFAULT_PORT = 4317;

    public static ForwardTarget parse(String url) {
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("--otlp-forward: '" + url + "' is not a URL: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("--otlp-forward: '" + url
                    + "' has no host; use grpc://HOST:4317 or http://HOST:4318/v1/traces");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        switch (scheme) {
            case "grpc" -> {
                return new ForwardTarget(Kind.GRPC, host, uri.getPort() < 0 ? GRPC_DEFAULT_PORT : uri.getPort(), false, null);
            }
            case "http", "https" -> {
                boolean tls = scheme.equals("https");
                int port = uri.getPort() < 0 ? (tls ? 443 : 80) : uri.getPort();
                if ((path.isEmpty() || path.equals("/")) && port == GRPC_DEFAULT_PORT) {
                    return new ForwardTarget(Kind.GRPC, host, port, tls, null);
                }
                String base = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
                String fullPath = base.endsWith("/v1/traces") ? base : base + "/v1/traces";
                try {
                    URI target = new URI(scheme, uri.getRawUserInfo(), host, uri.getPort(), fullPath, uri.getRawQuery(), null);
                    return new ForwardTarget(Kind.HTTP, host, port, tls, target);
                } catch (URISyntaxException e) {
                    throw new IllegalArgumentException("--otlp-forward: '" + url + "': " + e.getMessage());
                }
            }
            default -> throw new IllegalArgumentException("--otlp-forward: scheme '" + scheme + "' in '" + url
                    + "' is not supported; use grpc://, http:// or https://");
        }
    }

    @Override
    public String toString() {
        return kind == Kind.HTTP ? httpUri.toString() : (tls ? "grpcs://" : "grpc://") + host + ":" + port;
    }
}
