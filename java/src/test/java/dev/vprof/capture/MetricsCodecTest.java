package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.metrics.Exposition;
import dev.vprof.metrics.ExpositionFormat;
import dev.vprof.metrics.ExpositionParser;
import dev.vprof.metrics.MetricsSnapshot;
import dev.vprof.metrics.Sample;
import dev.vprof.metrics.ScrapeResult;
import dev.vprof.metrics.VllmFixture;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MetricsCodecTest {
    private static List<ScrapeResult> capture() throws IOException {
        List<ScrapeResult> results = new ArrayList<>();
        ExpositionParser parser = new ExpositionParser();
        Exposition om = parser.parse(VllmFixture.resource("openmetrics-exemplars.txt"), ExpositionFormat.OPENMETRICS);
        Exposition bad = parser.parse("ok 1\nbroken{ 2\n", ExpositionFormat.PROMETHEUS_TEXT);
        long t = 1_736_322_150_000_000_000L;
        VllmFixture f = new VllmFixture();
        for (int i = 0; i < 10; i++) {
            f.finish(3, "stop", 0.01, 0.1, 1.5, 400, 80);
            f.waiting = i;
            results.add(new ScrapeResult.Scrape(f.snapshot((t + i * 1_000_000_000L) / 1e9), 1_234_567, List.of()));
        }
        results.add(new ScrapeResult.Gap(t + 10_000_000_000L, "GET http://127.0.0.1:8000/metrics: connection refused"));
        results.add(new ScrapeResult.Scrape(new MetricsSnapshot(t + 11_000_000_000L, om.families()), 99, List.of()));
        results.add(new ScrapeResult.Scrape(new MetricsSnapshot(t + 12_000_000_000L, bad.families()), 5, bad.errors()));
        return results;
    }

    @Test
    void scrapesGapsExemplarsTimestampsAndErrorsSurviveTheRoundTrip() throws IOException {
        List<ScrapeResult> in = capture();
        List<ScrapeResult> out = MetricsCodec.decode(MetricsCodec.encode(in));
        assertEquals(in.size(), out.size());
        for (int i = 0; i < in.size(); i++) {
            assertEquals(in.get(i).epochNs(), out.get(i).epochNs());
            switch (in.get(i)) {
                case ScrapeResult.Gap g -> assertEquals(g, out.get(i));
                case ScrapeResult.Scrape s -> {
                    ScrapeResult.Scrape o = assertInstanceOf(ScrapeResult.Scrape.class, out.get(i));
                    assertEquals(s.snapshot().families(), o.snapshot().families());
                    assertEquals(s.durationNs(), o.durationNs());
                    assertEquals(s.errors(), o.errors());
                }
            }
        }
        ScrapeResult.Scrape om = (ScrapeResult.Scrape) out.get(11);
        Sample total = om.snapshot().samples("vllm:generation_tokens_total").getFirst();
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", total.exemplar().labels().get("trace_id"));
        assertTrue(Double.isNaN(om.snapshot().samples("mystery").getFirst().value()));
    }

    @Test
    void repeatedScrapesOfOneServerCostAFractionOfTheirText() throws IOException {
        VllmFixture f = new VllmFixture();
        List<ScrapeResult> in = new ArrayList<>();
        long textBytes = 0;
        for (int i = 0; i < 20; i++) {
            f.finish(7, "stop", 0.01, 0.1, 1.5, 400, 80);
            textBytes += f.text().length();
            in.add(new ScrapeResult.Scrape(f.snapshot(1000 + i), 0, List.of()));
        }
        int encoded = MetricsCodec.encode(in).length;
        assertTrue(encoded * 5L < textBytes, encoded + " bytes encoded for " + textBytes + " bytes of text");
    }

    @Test
    void aCutOrDamagedChunkIsAnIoExceptionNeverACrash() throws IOException {
        byte[] chunk = MetricsCodec.encode(capture());
        for (int len = 0; len < chunk.length; len += Math.max(1, chunk.length / 300)) {
            byte[] cut = Arrays.copyOf(chunk, len);
            assertThrows(IOException.class, () -> MetricsCodec.decode(cut), "cut at " + len);
        }
        Random random = new Random(42);
        for (int i = 0; i < 200; i++) {
            byte[] damaged = chunk.clone();
            damaged[random.nextInt(damaged.length)] ^= (byte) (1 + random.nextInt(255));
            try {
                MetricsCodec.decode(damaged);
            } catch (IOException expected) {
                // fine: detected
            }
        }
        IOException e = assertThrows(IOException.class, () -> MetricsCodec.decode(new byte[] {'n', 'o', 'p', 'e'}));
        assertTrue(e.getMessage().contains("VPM1"));
    }
}
