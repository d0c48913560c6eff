package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.triage.Triage;
import dev.vprof.triage.TriageReport;
import java.net.URI;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OpenMetrics 1.0, case by case from the specification: everything it allows parses without an
 * error, and what it forbids in histograms and counters is flagged where it is read and never
 * becomes a quantile or a rate.
 */
class OpenMetricsConformanceTest {
    private final ExpositionParser parser = new ExpositionParser();

    private Exposition om(String body) {
        return parser.parse(body + "# EOF\n", ExpositionFormat.OPENMETRICS);
    }

    private static void assertNoErrors(Exposition e) {
        assertEquals(List.of(), e.errors(), "the specification allows all of it");
    }

    private static Sample sample(Exposition e, String family, int i) {
        return e.family(family).samples().get(i);
    }

    // ---------------------------------------------------------------- what the specification allows

    @Test
    void helpTextEscapesBackslashQuoteAndNewline() {
        Exposition e = om("# HELP a A \\\\ backslash, a \\\" quote and a \\n newline.\n# TYPE a gauge\na 1\n");
        assertNoErrors(e);
        assertEquals("A \\ backslash, a \" quote and a \n newline.", e.family("a").help());
    }

    @Test
    void labelValuesEscapeBackslashQuoteAndNewlineAndCarryAnyUtf8() {
        Exposition e = om("# TYPE a gauge\na{path=\"C:\\\\m\",q=\"say \\\"hi\\\"\",nl=\"x\\ny\",u=\"日本 🚀\",empty=\"\"} 1\n");
        assertNoErrors(e);
        Labels l = sample(e, "a", 0).labels();
        assertEquals("C:\\m", l.get("path"));
        assertEquals("say \"hi\"", l.get("q"));
        assertEquals("x\ny", l.get("nl"));
        assertEquals("日本 🚀", l.get("u"));
        assertEquals("", l.get("empty"));
    }

    @Test
    void exemplarsOnEverySampleThatMayCarryOne() {
        String exemplar128 = "a".repeat(120) + "bcdefgh"; // with the name "t": 128 characters, the limit
        Exposition e = om("""
                # TYPE requests counter
                requests_total 17 # {trace_id="4bf92f3577b34da6"} 1 1520879607.789
                requests_created 1520879600
                # TYPE latency histogram
                latency_bucket{le="0.1"} 2 # {trace_id="a"} 0.05
                latency_bucket{le="1"} 5 # {} 0.7 1520879607
                latency_bucket{le="+Inf"} 6 # {trace_id="c",span_id="d"} 12.5 1.5e9
                latency_count 6
                latency_sum 14.1
                # TYPE in_flight gaugehistogram
                in_flight_gbucket{le="10"} 3 # {t="%s"} 4
                in_flight_gbucket{le="+Inf"} 4 # {t="x"} NaN
                in_flight_gcount 4
                in_flight_gsum 22
                """.formatted(exemplar128.substring(1)));
        assertNoErrors(e);
        Exemplar counter = sample(e, "requests", 0).exemplar();
        assertEquals("4bf92f3577b34da6", counter.labels().get("trace_id"));
        assertEquals(1_520_879_607_789_000_000L, counter.timestampNs());
        assertEquals(List.of(true, true, true, false, false), e.family("latency").samples().stream()
                .map(s -> s.exemplar() != null).toList(), "every bucket may carry one, the count and sum may not");
        assertTrue(sample(e, "latency", 1).exemplar().labels().isEmpty());
        assertEquals(1_500_000_000_000_000_000L, sample(e, "latency", 2).exemplar().timestampNs());
        assertTrue(Double.isNaN(sample(e, "in_flight", 1).exemplar().value()));
        assertNotNull(sample(e, "in_flight", 0).exemplar());
    }

    @Test
    void timestampsOfAnySizeAreAccepted() {
        Exposition e = om("""
                # TYPE g gauge
                g{i="zero"} 1 0
                g{i="ms"} 1 1520879607.789
                g{i="ns"} 1 1520879607.123456789
                g{i="frac"} 1 .5
                g{i="negative"} 1 -1.25
                g{i="exponent"} 1 1.5e+9
                g{i="year 2500"} 1 16725225600
                g{i="huge"} 1 123456789012345678901234567890
                g{i="beyond a double"} 1 1e400
                g{i="exemplar"} 1 1 # {} 1 99999999999999999999
                """);
        // Exemplars are not allowed on a gauge; that one error is about the exemplar, not its timestamp.
        assertEquals(1, e.errors().size(), e.errors().toString());
        assertTrue(e.errors().getFirst().message().contains("exemplar on g dropped"), e.errors().toString());
        List<Long> ts = e.family("g").samples().stream().map(Sample::timestampNs).toList();
        assertEquals(0L, ts.get(0));
        assertEquals(1_520_879_607_789_000_000L, ts.get(1));
        assertEquals(1_520_879_607_123_456_789L, ts.get(2));
        assertEquals(500_000_000L, ts.get(3));
        assertEquals(-1_250_000_000L, ts.get(4));
        assertEquals(1_500_000_000_000_000_000L, ts.get(5));
        // Past what nanoseconds in a long hold (year 2262): kept at the end of the range, not refused.
        assertEquals(Long.MAX_VALUE, ts.get(6));
        assertEquals(Long.MAX_VALUE, ts.get(7));
        assertEquals(Long.MAX_VALUE, ts.get(8));
        assertEquals(10, ts.size(), "every sample kept");

        Exposition text = parser.parse("g 1 1520879607789\ng{x=\"y\"} 1 99999999999999999999\n",
                ExpositionFormat.PROMETHEUS_TEXT);
        assertEquals(List.of(), text.errors());
        assertEquals(1_520_879_607_789_000_000L, text.samples().get(0).timestampNs());
        assertEquals(Long.MAX_VALUE, text.samples().get(1).timestampNs());
    }

    @Test
    void everyTypeAndSuffixTheSpecificationDefines() {
        Exposition e = om("""
                # TYPE tokens counter
                # UNIT tokens tokens
                # HELP tokens Tokens generated.
                tokens_total{model="m"} 4096
                tokens_created{model="m"} 1520879600.5
                # TYPE temperature gauge
                # UNIT temperature celsius
                temperature NaN
                temperature{gpu="1"} -Inf
                temperature{gpu="2"} +Inf
                # TYPE ttft_seconds histogram
                # UNIT ttft_seconds seconds
                ttft_seconds_bucket{le="-1"} 0
                ttft_seconds_bucket{le="0.25"} 1
                ttft_seconds_bucket{le="+Inf"} 1
                ttft_seconds_count 1
                ttft_seconds_created 1520879600
                # TYPE queue gaugehistogram
                queue_gbucket{le="1"} 0
                queue_gbucket{le="+Inf"} 0
                queue_gcount 0
                queue_gsum -3
                # TYPE rpc summary
                rpc{quantile="0.5"} 0.05
                rpc{quantile="0.99"} NaN
                rpc_count 7
                rpc_sum 1.5
                rpc_created 1520879600
                # TYPE build info
                build_info{version="0.11.0"} 1
                # TYPE engine stateset
                engine{engine="running"} 1
                engine{engine="sleeping"} 0
                # TYPE mystery unknown
                mystery 3.14
                """);
        assertNoErrors(e);
        assertEquals(List.of(MetricType.COUNTER, MetricType.GAUGE, MetricType.HISTOGRAM, MetricType.GAUGEHISTOGRAM,
                MetricType.SUMMARY, MetricType.INFO, MetricType.STATESET, MetricType.UNKNOWN),
                e.families().stream().map(MetricFamily::type).toList());
        assertEquals("tokens", e.family("tokens").unit());
        assertTrue(Double.isNaN(sample(e, "temperature", 0).value()));
        assertEquals(Double.NEGATIVE_INFINITY, sample(e, "temperature", 1).value());
    }

    // ---------------------------------------------------------------- what it forbids: flagged, never used

    /** Two scrapes of vLLM's TTFT histogram (seconds), the second as given; the window's stats over them. */
    private WindowStats ttftWindow(String secondBuckets) {
        String head = "# TYPE vllm:time_to_first_token_seconds histogram\n";
        String ok = head + ttft("0", "0", "0.1=0", "1=0", "+Inf=0");
        Exposition second = om(head + secondBuckets);
        assertFalse(second.errors().isEmpty(), "the breach is flagged where it is read");
        assertTrue(second.errors().stream().allMatch(err -> err.message().contains("breaks the exposition format's rules")),
                second.errors().toString());
        assertTrue(second.family("vllm:time_to_first_token_seconds").samples().size() >= 2, "the samples are kept");
        MetricsSnapshot a = new MetricsSnapshot(0, om(ok).families());
        MetricsSnapshot b = new MetricsSnapshot(30_000_000_000L, second.families());
        assertNull(MetricMath.histogramIncrease(a, b, VllmMetrics.TIME_TO_FIRST_TOKEN, MetricMath.ALL_SERIES),
                "no quantile from a histogram that breaks the rules");
        return WindowStats.between(a, b, 30);
    }

    private static void assertLeftOut(WindowStats w, String why) {
        assertFalse(w.ttft().present(), "no TTFT at all: " + w.ttft());
        assertFalse(w.ttft().p99().known());
        assertEquals(1, w.invalid().size(), w.invalid().toString());
        assertTrue(w.invalid().getFirst().startsWith("vllm:time_to_first_token_seconds: ")
                && w.invalid().getFirst().contains(why), w.invalid().toString());
        String triage = TriageReport.text(Triage.assess(w, true, Triage.Thresholds.DEFAULT,
                URI.create("http://127.0.0.1:8000/metrics")), "x");
        assertTrue(triage.contains("Left out (values no such metric can have): vllm:time_to_first_token"),
                triage);
        assertFalse(triage.contains("TTFT          "), "no TTFT row: " + triage);
    }

    /** A TTFT histogram's lines: each bucket as "le=value", then its _count and _sum. */
    private static String ttft(String count, String sum, String... buckets) {
        StringBuilder b = new StringBuilder();
        for (String bucket : buckets) {
            int eq = bucket.lastIndexOf('=');
            b.append("vllm:time_to_first_token_seconds_bucket{le=\"").append(bucket, 0, eq).append("\"} ")
                    .append(bucket.substring(eq + 1)).append('\n');
        }
        return b.append("vllm:time_to_first_token_seconds_count ").append(count).append('\n')
                .append("vllm:time_to_first_token_seconds_sum ").append(sum).append('\n').toString();
    }

    static Stream<Arguments> histogramsNoMetricCanHave() {
        return Stream.of(
                Arguments.of("buckets that are not cumulative", ttft("6", "2", "0.1=5", "1=3", "+Inf=6"),
                        "not cumulative"),
                Arguments.of("no +Inf bucket", ttft("3", "1", "0.1=1", "1=3"), "no +Inf bucket"),
                Arguments.of("a negative bucket", ttft("3", "1", "0.1=-2", "1=3", "+Inf=3"), "negative"),
                Arguments.of("a NaN bucket", ttft("3", "1", "0.1=0", "1=NaN", "+Inf=3"), "NaN"),
                Arguments.of("a count that is not the +Inf bucket", ttft("7", "1", "0.1=1", "1=3", "+Inf=3"),
                        "count 7 is not its +Inf bucket's 3"),
                Arguments.of("a threshold given twice", ttft("3", "1", "1=1", "1.0=3", "+Inf=3"), "appears twice"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("histogramsNoMetricCanHave")
    void aHistogramNoMetricCanHaveIsFlaggedAndGivesNoQuantile(String what, String second, String why) {
        assertLeftOut(ttftWindow(second), why);
    }

    private static MetricsSnapshot tokens(long atSeconds, String value, String created) {
        String body = "# TYPE vllm:generation_tokens counter\nvllm:generation_tokens_total " + value + "\n"
                + (created == null ? "" : "vllm:generation_tokens_created " + created + "\n");
        Exposition e = new ExpositionParser().parse(body + "# EOF\n", ExpositionFormat.OPENMETRICS);
        return new MetricsSnapshot(atSeconds * 1_000_000_000L, e.families());
    }

    @Test
    void aNegativeCounterIsFlaggedAndGivesNoRate() {
        Exposition e = om("# TYPE vllm:generation_tokens counter\nvllm:generation_tokens_total -5\n");
        assertEquals(1, e.errors().size(), e.errors().toString());
        assertTrue(e.errors().getFirst().message().contains("its total is -5"), e.errors().toString());
        assertEquals(2, e.errors().getFirst().line());
        WindowStats w = WindowStats.between(tokens(0, "10", null), tokens(10, "-5", null), 10);
        assertTrue(Double.isNaN(w.generationTokensPerSecond()), "no rate: " + w.generationTokensPerSecond());
        assertTrue(w.invalid().stream().anyMatch(s -> s.contains("vllm:generation_tokens_total")), w.invalid().toString());
    }

    @Test
    void aTotalThatGoesDownWithoutAResetGivesNoRate() {
        WindowStats w = WindowStats.between(tokens(0, "1000", "1520879600"), tokens(10, "400", "1520879600"), 10);
        assertTrue(Double.isNaN(w.generationTokensPerSecond()), "no rate: " + w.generationTokensPerSecond());
        assertTrue(w.invalid().getFirst().contains("went down from 1000 to 400 with the same _created time"),
                w.invalid().toString());
        // A new _created time is a reset: counted from zero, as PromQL counts it.
        WindowStats reset = WindowStats.between(tokens(0, "1000", "1520879600"), tokens(10, "400", "1520879605"), 10);
        assertEquals(40.0, reset.generationTokensPerSecond(), 1e-9);
        assertEquals(List.of(), reset.invalid());
        // Without _created, a fall can only be read as a restart.
        WindowStats bare = WindowStats.between(tokens(0, "1000", null), tokens(10, "400", null), 10);
        assertEquals(40.0, bare.generationTokensPerSecond(), 1e-9);
    }

    @Test
    void aValidHistogramIsNotFlagged() {
        Exposition e = om("""
                # TYPE h histogram
                h_bucket{le="0.1"} 1
                h_bucket{le="1"} 3
                h_bucket{le="+Inf"} 3
                h_count 3
                h_sum 1.2
                h_bucket{model="b",le="+Inf"} 0
                h_count{model="b"} 0
                h_sum{model="b"} 0
                """);
        assertNoErrors(e);
    }
}
