package dev.vprof.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * For bench/scripts/html-page.sh: loads a page in headless Chromium RUNS times (a new tab each) and
 * prints, per load, the first contentful paint and the load event's end as the browser timed them
 * (ms from navigation start), the console errors and the network requests. Not a test: a figure.
 *
 * <pre>java -cp java/target/vprof.jar:java/target/test-classes dev.vprof.html.FirstPaint PAGE.html [RUNS]</pre>
 */
public final class FirstPaint {
    private FirstPaint() {}

    public static void main(String[] args) throws Exception {
        Path page = Path.of(args[0]).toAbsolutePath();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path exe = Chromium.find().orElseThrow(() -> new IllegalStateException("chromium is not installed"));
        Path profile = Files.createTempDirectory("vprof-first-paint");
        try (Chromium browser = Chromium.launch(exe, profile.resolve("profile"))) {
            for (int i = 0; i < runs; i++) {
                Chromium.PageLoad load = browser.load(page, PageProbe.EXPRESSION,
                        profile.resolve("shot-" + i + ".png"));
                JsonNode p = load.probe();
                double fcp = -1;
                for (JsonNode e : p.path("paint")) {
                    if ("first-contentful-paint".equals(e.path("name").asText())) {
                        fcp = e.path("ms").asDouble();
                    }
                }
                System.out.printf(Locale.ROOT, "run %d: first contentful paint %.0f ms, load event end %.0f ms, "
                                + "%d console errors, %d network requests, %d charts%n", i + 1, fcp,
                        p.path("load").asDouble(), load.consoleErrors().size(), load.networkRequests().size(),
                        p.path("charts").size());
            }
        }
    }
}
