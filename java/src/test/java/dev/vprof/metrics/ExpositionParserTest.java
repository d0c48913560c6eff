package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExpositionParserTest {
    private final ExpositionParser parser = new ExpositionParser();

    static String resource(String name) throws IOException {
        try (InputStream in = ExpositionParserTest.class.getResourceAsStream("/metrics/" + name)) {
            assertNotNull(in, name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private Exposition text(String s) {
        return parser.parse(s, ExpositionFormat.PROMETHEUS_TEXT);
    }

    private Exposition om(String s) {
        return parser.parse(s, ExpositionFormat.OPENMETRICS);
    }

    @Test
    void readsVllmExpositionWithRealNamesTypesLabelsAndBuckets() throws IOException {
        Exposition e = text(resource("vllm-0.11-prometheus-text.txt"));
        assertEquals(List.of(), e.errors());
        MetricFamily running = e.family("vllm:num_requests_running");
        assertEquals(MetricType.GAUGE, running.type());
        assertEquals("Number of requests in model execution batches.", running.help());
        Sample s = running.samples().getFirst();
        assertEquals(24.0, s.value());
        assertEquals("Qwen/Qwen2.5-7B-Instruct", s.labels().get("model_name"));
        assertEquals("0", s.labels().get("engine"));

        MetricFamily ttft = e.family("vllm:time_to_first_token_seconds");
        assertEquals(MetricType.HISTOGRAM, ttft.type());
        assertEquals(23 + 2, ttft.samples().size(), "22 bounds + +Inf, _count, _sum");
        Sample inf = ttft.samples().get(22);
        assertEquals("vllm:time_to_first_token_seconds_bucket", inf.name());
        assertEquals("+Inf", inf.labels().get("le"));
        assertEquals(1600.0, inf.value());

        MetricFamily success = e.family("vllm:request_success_total");
        assertEquals(MetricType.COUNTER, success.type());
        assertEquals(3, success.samples().size());
        assertEquals(MetricType.GAUGE, e.family("vllm:request_success_created").type());
        assertEquals(1727319614.5634189, e.family("vllm:request_success_created").samples().getFirst().value());
        assertEquals(MetricType.COUNTER, e.family("python_gc_objects_collected_total").type());
    }

    @Test
    void acceptsVllmsOldNamesUnderTheNewOnes() throws IOException {
        MetricsSnapshot legacy = new MetricsSnapshot(0,
                text(resource("vllm-0.6-legacy-names.txt")).families());
        assertEquals("vllm:gpu_cache_usage_perc", VllmMetrics.KV_CACHE_USAGE.resolve(legacy));
        assertEquals("vllm:time_per_output_token_seconds", VllmMetrics.INTER_TOKEN_LATENCY.resolve(legacy));
        assertNull(VllmMetrics.PREFIX_CACHE_HITS.resolve(legacy));
        assertEquals(0.6123, MetricMath.gauge(legacy, VllmMetrics.KV_CACHE_USAGE, MetricMath.ALL_SERIES));

        MetricsSnapshot current = new MetricsSnapshot(0,
                text(resource("vllm-0.11-prometheus-text.txt")).families());
        assertEquals("vllm:kv_cache_usage_perc", VllmMetrics.KV_CACHE_USAGE.resolve(current));
        assertEquals("vllm:inter_token_latency_seconds", VllmMetrics.INTER_TOKEN_LATENCY.resolve(current));
        assertEquals("vllm:prefix_cache_hits", VllmMetrics.PREFIX_CACHE_HITS.resolve(current));
    }

    @Test
    void readsThePrometheusServersOwnMetrics() throws IOException {
        Exposition e = text(resource("prometheus-server-own.txt"));
        assertEquals(List.of(), e.errors());
        MetricFamily gc = e.family("go_gc_duration_seconds");
        assertEquals(MetricType.SUMMARY, gc.type());
        assertEquals(7, gc.samples().size());
        assertEquals("0.25", gc.samples().get(1).labels().get("quantile"));
        assertEquals(4.4771e-05, gc.samples().get(1).value());
        assertEquals(2387.0, gc.samples().get(6).value());

        MetricFamily http = e.family("prometheus_http_request_duration_seconds");
        assertEquals(MetricType.HISTOGRAM, http.type());
        assertEquals(24, http.samples().size(), "two handlers' buckets, sums and counts in one family");

        Sample rule = e.family("prometheus_rule_evaluation_failures_total").samples().getFirst();
        assertEquals("/etc/prometheus/rules.yml;vllm \"slo\" alerts", rule.labels().get("rule_group"));

        MetricFamily seen = e.family("scrape_last_seen_ms");
        assertEquals("A gauge with an explicit timestamp in milliseconds; HELP escapes: back\\slash and new\nline.",
                seen.help());
        assertEquals(1_736_322_150_123_000_000L, seen.samples().get(0).timestampNs(), "ms become ns");
        assertFalse(seen.samples().get(1).hasTimestamp());
        assertTrue(Double.isNaN(seen.samples().get(1).value()));

        MetricFamily bound = e.family("untyped_bound");
        assertEquals(MetricType.UNKNOWN, bound.type());
        assertEquals(Double.POSITIVE_INFINITY, bound.samples().get(0).value());
        assertEquals(Double.NEGATIVE_INFINITY, bound.samples().get(1).value());
        assertEquals(42.0, e.family("untyped_without_type_line").samples().getFirst().value());
    }

    @Test
    void readsOpenMetricsWithExemplarsUnitsAndEof() throws IOException {
        Exposition e = om(resource("openmetrics-exemplars.txt"));
        assertEquals(List.of(), e.errors());

        MetricFamily tokens = e.family("vllm:generation_tokens");
        assertEquals(MetricType.COUNTER, tokens.type());
        assertEquals("tokens", tokens.unit());
        Sample total = tokens.samples().get(0);
        assertEquals("vllm:generation_tokens_total", total.name());
        assertEquals(409600.0, total.value());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", total.exemplar().labels().get("trace_id"));
        assertEquals(128.0, total.exemplar().value());
        assertEquals(1_736_322_150_125_000_000L, total.exemplar().timestampNs());
        assertEquals("vllm:generation_tokens_created", tokens.samples().get(1).name());
        assertEquals(1.7363210005e9, tokens.samples().get(1).value());

        MetricFamily ttft = e.family("vllm:time_to_first_token_seconds");
        assertEquals(7, ttft.samples().size(), "buckets, count, sum and _created");
        Exemplar ex = ttft.samples().get(1).exemplar();
        assertEquals("00f067aa0ba902b7", ex.labels().get("span_id"));
        assertEquals(0.214, ex.value());
        assertFalse(ttft.samples().get(2).exemplar().hasTimestamp());
        assertNull(ttft.samples().get(0).exemplar());

        Sample waiting = e.family("vllm:num_requests_waiting").samples().getFirst();
        assertEquals(1_736_322_150_123_456_789L, waiting.timestampNs(), "seconds become exact ns");

        assertEquals(MetricType.GAUGEHISTOGRAM, e.family("kv_blocks_in_flight").type());
        assertEquals(5, e.family("kv_blocks_in_flight").samples().size());
        MetricFamily build = e.family("vllm_build");
        assertEquals(MetricType.INFO, build.type());
        assertEquals("vllm_build_info", build.samples().getFirst().name());
        assertEquals("The running vLLM release, with a \"quoted\" word and a back\\slash in its help.", build.help());
        assertEquals(MetricType.STATESET, e.family("engine_state").type());
        assertEquals(3, e.family("engine_state").samples().size());
        assertEquals(MetricType.SUMMARY, e.family("rpc_duration_seconds").type());
        assertEquals(5, e.family("rpc_duration_seconds").samples().size());

        Labels odd = e.family("mystery").samples().getFirst().labels();
        assertEquals("C:\\models\\qwen", odd.get("path"));
        assertEquals("line one\nline two", odd.get("note"));
        assertEquals("say \"hi\"", odd.get("quote"));
    }

    @Test
    void openMetricsWithoutEofIsReportedAndItsSamplesKept() {
        Exposition e = om("# TYPE a gauge\na 1\na{x=\"y\"} 2\n");
        assertEquals(1, e.errors().size());
        assertEquals(4, e.errors().getFirst().line());
        assertTrue(e.errors().getFirst().message().contains("# EOF"), e.errors().toString());
        assertEquals(2, e.family("a").samples().size());
    }

    @Test
    void textAfterEofIsAnError() {
        Exposition e = om("a 1\n# EOF\nb 2\n");
        assertEquals(1, e.errors().size());
        assertEquals(3, e.errors().getFirst().line());
        assertNull(e.family("b"));
    }

    @Test
    void openMetricsRefusesFreeCommentsThatPrometheusTextAllows() {
        assertEquals(0, text("# just a note\na 1\n").errors().size());
        Exposition e = om("# just a note\na 1\n# EOF\n");
        assertEquals(1, e.errors().size());
        assertEquals(1, e.errors().getFirst().line());
        assertEquals(1, e.family("a").samples().size());
    }

    @Test
    void eachMalformedLineGetsOneLineNumberedErrorAndTheGoodLinesAreKept() {
        String body = String.join("\n",
                "# TYPE good_total counter",          // 1
                "good_total 1",                       // 2
                "bad_value abc",                      // 3
                "bad_labels{a=\"1\",b=2} 3",          // 4
                "bad_escape{a=\"x\\qy\"} 1",          // 5
                "unterminated{a=\"oops} 1",           // 6
                "dup_labels{a=\"1\",a=\"2\"} 1",      // 7
                "no_value",                           // 8
                "bad_ts 1 12.5",                      // 9
                "# TYPE weird histogramm",            // 10
                "trailing 1 2 3",                     // 11
                "good_gauge 7",                       // 12
                "1bad_name 2",                        // 13
                "# TYPE hist histogram",              // 14
                "hist_bucket{le=\"1\"} 1",            // 15
                "hist_bucket 2",                      // 16
                "hist_bucket{le=\"+Inf\"} 3",         // 17
                "hist_count 3",                       // 18
                "hist_sum 1.5",                       // 19
                "java_suffix 1.5d",                   // 20
                "hex_float 0x1p3",                    // 21
                "# TYPE good_total gauge",            // 22
                "");
        Exposition e = text(body);
        List<Integer> lines = e.errors().stream().map(ParseError::line).toList();
        assertEquals(List.of(3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 16, 20, 21, 22), lines, e.errors().toString());
        assertTrue(e.errors().get(0).toString().startsWith("line 3: invalid value 'abc' for bad_value"),
                e.errors().get(0).toString());
        assertTrue(e.errors().get(1).message().contains("double quotes"), e.errors().get(1).toString());
        assertTrue(e.errors().get(2).message().contains("invalid escape"));
        assertTrue(e.errors().get(4).message().contains("twice"));
        assertTrue(e.errors().get(6).message().contains("integer milliseconds"));
        assertTrue(e.errors().get(7).message().contains("histogramm"));
        assertTrue(e.errors().get(10).message().contains("'le'"));
        assertTrue(e.errors().get(13).message().contains("second TYPE"));

        assertEquals(1.0, e.family("good_total").samples().getFirst().value());
        assertEquals(7.0, e.family("good_gauge").samples().getFirst().value());
        assertEquals(4, e.family("hist").samples().size(), "the good hist lines are kept");
        assertEquals(3, e.families().size());
    }

    @Test
    void metadataLinesThatCannotBeReadAreErrorsAndTheRestIsKept() {
        Exposition e = text(String.join("\n",
                "# TYPE",                           // 1
                "# HELP 1x text",                   // 2
                "# TYPE x gaugehistogram",          // 3
                "# TYPE x counter extra",           // 4
                "# HELP x  two  spaces",            // 5
                "# UNIT x seconds",                 // 6: not a Prometheus text line, a comment there
                "#TYPE x gauge",                    // 7: a comment too
                "x 1",
                ""));
        assertEquals(List.of(
                "line 1: '# TYPE' needs a metric name: # TYPE",
                "line 2: '# HELP' has an invalid metric name (names match [a-zA-Z_:][a-zA-Z0-9_:]*): # HELP 1x text",
                "line 3: unknown metric type 'gaugehistogram' for x (counter, gauge, histogram, summary or untyped)"
                        + ": # TYPE x gaugehistogram",
                "line 4: unexpected text after the type of x: # TYPE x counter extra"),
                e.errors().stream().map(ParseError::toString).toList());
        MetricFamily x = e.family("x");
        assertEquals(" two  spaces", x.help(), "one blank after the name, the rest is the text");
        assertNull(x.unit());
        assertEquals(MetricType.UNKNOWN, x.type());
        assertEquals(1, x.samples().size());

        Exposition o = om("# TYPE y untyped\n# UNIT y seconds\ny 1\n# EOF\n");
        assertEquals(List.of("line 1: unknown metric type 'untyped' for y (counter, gauge, histogram, gaugehistogram,"
                + " summary, info, stateset or unknown): # TYPE y untyped"),
                o.errors().stream().map(ParseError::toString).toList());
        assertEquals("seconds", o.family("y").unit());
    }

    @Test
    void helpTextUndoesItsEscapesAsEachFormatSays() {
        String line = "# HELP m a\\\\b\\nc\\\"d\\te\\";
        int from = "# HELP m ".length();
        assertEquals("a\\b\nc\\\"d\\te\\", ExpositionParser.unescapeHelp(line, from, line.length(), false),
                "Prometheus text: \\\\ and \\n only");
        assertEquals("a\\b\nc\"d\\te\\", ExpositionParser.unescapeHelp(line, from, line.length(), true),
                "OpenMetrics: \\\" too; other escapes and a last lone backslash stay as written");
        assertEquals("plain", ExpositionParser.unescapeHelp("xplainy", 1, 6, true));
    }

    @Test
    void anExpositionOverTheSizeLimitIsRejectedWithTheLimitNamed() {
        ExpositionParser small = new ExpositionParser(1000, 100);
        String big = "a 1\n".repeat(300);
        ExpositionRejectedException ex = assertThrows(ExpositionRejectedException.class,
                () -> small.parse(big, ExpositionFormat.PROMETHEUS_TEXT));
        assertTrue(ex.getMessage().contains("1200") && ex.getMessage().contains("1000"), ex.getMessage());
        assertThrows(ExpositionRejectedException.class,
                () -> small.parse(big.getBytes(StandardCharsets.UTF_8), ExpositionFormat.PROMETHEUS_TEXT));
    }

    @Test
    void anAbsurdlyLongLineIsAnErrorAndTheOtherLinesAreKept() {
        ExpositionParser small = new ExpositionParser(1 << 20, 100);
        String body = "a 1\nhuge{x=\"" + "y".repeat(500) + "\"} 1\nb 2\n";
        Exposition e = small.parse(body, ExpositionFormat.PROMETHEUS_TEXT);
        assertEquals(1, e.errors().size());
        assertEquals(2, e.errors().getFirst().line());
        assertTrue(e.errors().getFirst().message().contains("limit is 100"));
        assertTrue(e.errors().getFirst().excerpt().length() < 200, "the excerpt is cut, not the whole line");
        assertNotNull(e.family("a"));
        assertNotNull(e.family("b"));
    }

    @Test
    void numbersParseExactlyAsJavaWouldIncludingTheSlowPath() {
        String[] values = {"0", "-0.0", "1e-05", "2.9021e-05", "0.000663503", "1.7976931348623157e308",
            "4.9e-324", "123456789012345678901234", "61.38421917799994", "1.7273196145634189e+09", "+3.5",
            ".5", "5."};
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            sb.append("v{i=\"").append(i).append("\"} ").append(values[i]).append('\n');
        }
        Exposition e = text(sb.toString());
        assertEquals(List.of(), e.errors());
        List<Sample> samples = e.family("v").samples();
        for (int i = 0; i < values.length; i++) {
            assertEquals(Double.parseDouble(values[i]), samples.get(i).value(), values[i]);
        }
        Exposition special = text("a NaN\nb +Inf\nc -Inf\nd Inf\ne nan\n");
        assertEquals(List.of(), special.errors());
        assertTrue(Double.isNaN(special.family("e").samples().getFirst().value()));
        assertEquals(Double.POSITIVE_INFINITY, special.family("d").samples().getFirst().value());
    }

    @Test
    void toleratesCrlfBlanksTrailingCommasAndQuotedMetricNames() {
        Exposition e = text("# TYPE a gauge\r\n  a { x = \"1\" , } \t 3 \r\n\r\n{\"my.dotted.name\",\"weird label\"=\"v\"} 4\n");
        assertEquals(List.of(), e.errors());
        assertEquals(3.0, e.family("a").samples().getFirst().value());
        assertEquals("1", e.family("a").samples().getFirst().labels().get("x"));
        Sample dotted = e.family("my.dotted.name").samples().getFirst();
        assertEquals("v", dotted.labels().get("weird label"));
    }

    @Test
    void labelOrderDoesNotChangeTheSeries() {
        Exposition e = text("a{x=\"1\",y=\"2\"} 1\nb{y=\"2\",x=\"1\"} 1\n");
        assertEquals(e.family("a").samples().getFirst().labels(), e.family("b").samples().getFirst().labels());
        assertEquals("{x=\"1\",y=\"2\"}", e.family("b").samples().getFirst().labels().toString());
    }

    @Test
    void exemplarOnAGaugeIsDroppedWithAnErrorAndTheSampleKept() {
        Exposition e = om("# TYPE g gauge\ng 1 # {trace_id=\"abc\"} 1\n# EOF\n");
        assertEquals(1, e.errors().size());
        assertEquals(2, e.errors().getFirst().line());
        Sample s = e.family("g").samples().getFirst();
        assertEquals(1.0, s.value());
        assertNull(s.exemplar());
    }

    @Test
    void contentTypeChoosesTheFormat() {
        assertEquals(ExpositionFormat.OPENMETRICS,
                ExpositionFormat.fromContentType("application/openmetrics-text; version=1.0.0; charset=utf-8"));
        assertEquals(ExpositionFormat.PROMETHEUS_TEXT,
                ExpositionFormat.fromContentType("text/plain; version=0.0.4; charset=utf-8"));
        assertEquals(ExpositionFormat.PROMETHEUS_TEXT, ExpositionFormat.fromContentType(null));
    }
}
