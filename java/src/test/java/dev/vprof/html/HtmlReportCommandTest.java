package dev.vprof.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.cli.Cli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `vprof report --html` as a command, and the page as bytes (the browser test loads it). */
class HtmlReportCommandTest {
    @TempDir
    Path dir;

    @Test
    void anExistingPageIsReplacedOnlyWithForce() throws Exception {
        Path capture = HostileCapture.write(dir.resolve("c.vprof"));
        Path page = dir.resolve("p.html");
        Files.writeString(page, "keep me");
        Cli.Result refused = Cli.run("report", capture.toString(), "--html", page.toString());
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("already exists; pass --force to replace it, or choose another path with --html"),
                "names report's own options (it has no -o): " + refused.err());
        assertFalse(refused.err().contains("at dev.vprof"), "no stack trace: " + refused.err());
        assertEquals("keep me", Files.readString(page));
        Cli.Result forced = Cli.run("report", capture.toString(), "--html", page.toString(),
                "--force");
        assertEquals(0, forced.code(), forced.err());
        assertTrue(Files.readString(page).startsWith("<!DOCTYPE html>"));
        assertTrue(forced.out().contains("Top kernels") || forced.out().contains("kernels"), "the text report too");
    }

    @Test
    void thePageCarriesItsScriptByHashAndCapturedStringsOnlyEscaped() throws Exception {
        Path capture = HostileCapture.write(dir.resolve("c.vprof"));
        Path page = dir.resolve("p.html");
        assertEquals(0, Cli.run("report", capture.toString(), "--html", page.toString()).code());
        String html = Files.readString(page);
        assertFalse(html.contains(HostileCapture.KERNEL));
        assertFalse(html.contains(HostileCapture.ATTRIBUTE));
        assertTrue(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assertTrue(html.contains("&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;"));
        Matcher scripts = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL).matcher(html);
        assertTrue(scripts.find());
        String script = scripts.group(1);
        assertFalse(scripts.find(), "one script");
        String hash = Base64.getEncoder().encodeToString(
                MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8)));
        Matcher csp = Pattern.compile("http-equiv=\"Content-Security-Policy\" content=\"([^\"]*)\"").matcher(html);
        assertTrue(csp.find());
        assertTrue(csp.group(1).startsWith("default-src &#39;none&#39;"), csp.group(1));
        assertTrue(csp.group(1).contains("script-src &#39;sha256-" + hash + "&#39;"), csp.group(1));
        // No element asks for anything (the escaped names hold "src=" as text, outside every tag).
        assertFalse(Pattern.compile("<[a-zA-Z][^<>]*\\s(src|href|xlink:href|action|srcset)=").matcher(html).find(),
                "nothing to load");
    }

    @Test
    void aCaptureWithManyProcessesDevicesNamesAndLongNamesStaysUnderThreeMiB() throws Exception {
        Path capture = dir.resolve("big.vprof");
        // Names as long as a STRING record holds (4096 bytes, the agent cuts longer ones).
        String longTail = "x".repeat(4000);
        try (CaptureWriter w = CaptureWriter.create(capture,
                new CaptureMetadata("h", HostileCapture.R0, "0.1.0", List.of("vprof", "run"), Map.of()))) {
            for (int pid = 1; pid <= 160; pid++) {
                w.process(new ProcessInfo(pid, 1, "python3 " + "y".repeat(6000), 130000, 1, 1 << 20, HostileCapture.R0));
                RingRecords r = new RingRecords();
                r.clockSync(HostileCapture.R0, HostileCapture.R0, 0);
                for (int d = 0; d < 8; d++) {
                    for (int k = 0; k < 4; k++) {
                        int id = d * 4 + k + 1;
                        r.string(id, "kernel_" + pid + "_" + id + "_" + longTail).kernelDesc(id, id, d, 7);
                    }
                }
                for (int i = 0; i < 320; i++) {
                    long t = HostileCapture.R0 + i * 1_000_000L;
                    r.kernel(t, t + 400_000, i, i % 32 + 1);
                }
                r.writeTo(w, pid);
            }
        }
        Path page = dir.resolve("big.html");
        Cli.Result run = Cli.run("report", capture.toString(), "--top", "100000", "--html",
                page.toString());
        assertEquals(0, run.code(), run.err());
        long size = Files.size(page);
        assertTrue(size <= 3L << 20, "page of 160 processes x 8 GPUs, 5120 names of 4 KB: " + size + " bytes");
        String html = Files.readString(page);
        Matcher cut = Pattern.compile("The first (\\d+) of (\\d+) rows").matcher(html);
        int note = html.indexOf("kernels in all");
        assertTrue(cut.find(), "says the kernel table is cut: " + html.substring(Math.max(0, note - 300), Math.max(0, note)));
        assertEquals("100", cut.group(1));
        assertEquals("5120", cut.group(2), cut.group());
        assertTrue(html.contains("the first 128 of 1280 GPU lanes drawn"), "says the lanes are cut");
    }

    @Test
    void aTracesProfilerStepsAreItsStepsCountedAsInItsJson() throws Exception {
        // HTA's compare pair's base (fixtures/real/README.md): its ProfilerStep#N annotations counted here.
        Path trace = Path.of("../fixtures/real/hta/trace_compare/base/base.json.gz");
        long steps = 0;
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(trace))) {
            for (var e : new com.fasterxml.jackson.databind.ObjectMapper().readTree(in).path("traceEvents")) {
                if (e.path("name").asText().startsWith("ProfilerStep#") && "X".equals(e.path("ph").asText())) {
                    steps++;
                }
            }
        }
        assertTrue(steps > 0);
        Path page = dir.resolve("steps.html");
        Cli.Result run = Cli.run("report", trace.toString(), "--html", page.toString());
        assertEquals(0, run.code(), run.err());
        String html = Files.readString(page);
        assertTrue(html.contains("the first " + steps + " &quot;ProfilerStep#N&quot; ranges"), html);
        assertFalse(html.contains("No step ranges"));
    }
}
