package dev.vprof.engine;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code --trigger URL}: vprof itself POSTs {@code URL/start_profile} when the capture starts and
 * {@code URL/stop_profile} when it ends, as {@code vllm bench serve --profile} does. A vLLM
 * started with {@code --profiler-config '{"profiler":"cuda"}'} answers by calling
 * cudaProfilerStart/Stop in every worker, which is what {@code --capture-range=cudaProfilerApi}
 * waits for.
 */
public final class ProfilerTrigger implements AutoCloseable {
    /** Stopping can take long in vLLM when its torch profiler writes traces; cudaProfilerStop is quick. */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    ProfilerTrigger(URI base) {
        this.base = base;
    }

    /**
     * What a person typed as the server's address: a scheme is added when missing, a trailing
     * slash dropped ({@code localhost:8000} means {@code http://localhost:8000}).
     */
    public static URI baseUri(String url) {
        String u = url.strip();
        if (!u.contains("://")) {
            u = "http://" + u;
        }
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        URI uri;
        try {
            uri = URI.create(u);
        } catch (IllegalArgumentException e) {
            throw new CaptureException("--trigger '" + url + "' is not a URL: " + e.getMessage());
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new CaptureException("--trigger '" + url + "' must be an http or https URL (the vLLM server, e.g. localhost:8000)");
        }
        if (uri.getHost() == null) {
            throw new CaptureException("--trigger '" + url + "' has no host; write it like localhost:8000");
        }
        return uri;
    }

    URI base() {
        return base;
    }

    URI startUri() {
        return URI.create(base + "/start_profile");
    }

    URI stopUri() {
        return URI.create(base + "/stop_profile");
    }

    /** POST /start_profile; a {@link CaptureException} that says what to do when it fails. */
    void start() {
        post(startUri());
    }

    /** POST /stop_profile. */
    void stop() {
        post(stopUri());
    }

    /** Whether the server is not listening (yet): a RUN capture retries until it comes up. */
    static boolean notListening(CaptureException e) {
        return e.getCause() instanceof ConnectException;
    }

    private void post(URI url) {
        HttpResponse<String> r;
        try {
            r = http.send(HttpRequest.newBuilder(url).timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new CaptureException("--trigger: cannot connect to " + url + " (is the server running and is this its "
                    + "address?)", e);
        } catch (HttpTimeoutException e) {
            throw new CaptureException("--trigger: POST " + url + " got no answer within " + TIMEOUT.toSeconds() + " s", e);
        } catch (IOException e) {
            throw new CaptureException("--trigger: POST " + url + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CaptureException("--trigger: interrupted while POSTing " + url, e);
        }
        int code = r.statusCode();
        if (code == 404) {
            throw new CaptureException("--trigger: POST " + url + " answered 404 Not Found: the server's profiler is not "
                    + "enabled; start vLLM with --profiler-config '{\"profiler\":\"cuda\"}' (older vLLM: "
                    + "VLLM_TORCH_CUDA_PROFILE=1)");
        }
        if (code / 100 != 2) {
            String body = r.body() == null ? "" : r.body().strip();
            if (body.length() > 200) {
                body = body.substring(0, 200) + "...";
            }
            throw new CaptureException("--trigger: POST " + url + " answered HTTP " + code + (body.isEmpty() ? "" : ": " + body));
        }
    }

    @Override
    public void close() {
        http.close();
    }
}
