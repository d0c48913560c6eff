package dev.vprof.metrics;

import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;

/**
 * Why an HTTP request to the server did not get an answer, in words a person acts on, the same
 * for every command that talks to it (triage, the capture's scraper, bench): "connection refused
 * (is the server running and listening on 127.0.0.1:8000?)", never a Java exception's name.
 */
public final class HttpFailures {
    private HttpFailures() {}

    /** What to check, after the reason, when the server cannot be reached at all. */
    public static final String CHECK_THE_URL = "check the URL (vLLM serves /metrics and the OpenAI API on its API"
            + " port, 8000 by default) and that the server is up";

    /** The reason {@code t} (an exception from an HTTP client, or its cause) gives for {@code url}. */
    public static String describe(Throwable t, URI url) {
        // The JDK's client wraps a failed name lookup in a ConnectException: look for it first, so
        // that a misspelled host is named as such and not as a refused connection.
        for (Throwable u = t; u != null; u = u.getCause() == u ? null : u.getCause()) {
            if (u instanceof UnresolvedAddressException || u instanceof UnknownHostException) {
                return "unknown host '" + url.getHost() + "' (the name does not resolve: check its spelling)";
            }
        }
        Throwable c = t;
        while (c != null) {
            if (c instanceof ConnectException) {
                return "connection refused (is the server running and listening on " + hostPort(url) + "?)";
            }
            if (c instanceof UnresolvedAddressException || c instanceof UnknownHostException) {
                return "unknown host '" + url.getHost() + "'";
            }
            if (c instanceof HttpConnectTimeoutException) {
                return "no connection to " + hostPort(url) + " within the timeout (a firewall, or the wrong address?)";
            }
            if (c instanceof HttpTimeoutException) {
                return "no answer from " + hostPort(url) + " within the timeout";
            }
            c = c.getCause() == c ? null : c.getCause();
        }
        String msg = t.getMessage();
        return t.getClass().getSimpleName() + (msg == null ? "" : ": " + msg);
    }

    /** Whether {@code t} means nothing answered at the address (refused, unknown host, no connection). */
    public static boolean unreachable(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof ConnectException || c instanceof UnresolvedAddressException
                    || c instanceof UnknownHostException || c instanceof HttpConnectTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static String hostPort(URI url) {
        int port = url.getPort() >= 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
        return url.getHost() + ":" + port;
    }
}
