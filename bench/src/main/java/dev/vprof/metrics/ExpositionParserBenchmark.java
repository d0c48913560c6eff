package dev.vprof.metrics;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parsing a 5,000-line exposition shaped like vLLM's /metrics (many engines: gauges, counters
 * with {@code _created}, and histograms with vLLM's bucket bounds and labels), in both wire
 * formats. Target: at most 5 ms per parse.
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar ExpositionParserBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 10, time = 1) // C2 needs the time on a busy 2-core machine
@Measurement(iterations = 5, time = 1)
public class ExpositionParserBenchmark {
    static final int TARGET_LINES = 5_000;
    private static final double[] TTFT = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
        1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
    private static final double[] REQUEST = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
        40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

    private final ExpositionParser parser = new ExpositionParser();
    String text;
    String openMetrics;
    int lines;

    @Setup(Level.Trial)
    public void setup() {
        text = build(false);
        openMetrics = build(true);
        lines = (int) text.chars().filter(c -> c == '\n').count();
        Exposition check = parser.parse(openMetrics, ExpositionFormat.OPENMETRICS);
        if (lines < TARGET_LINES || !parser.parse(text, ExpositionFormat.PROMETHEUS_TEXT).errors().isEmpty()
                || !check.errors().isEmpty()) {
            throw new IllegalStateException("benchmark exposition is wrong: " + lines + " lines, "
                    + check.errors().subList(0, Math.min(3, check.errors().size())));
        }
    }

    /**
     * vLLM-shaped families, one series per engine in each (as one vLLM server with data-parallel
     * engines exposes them), with as many engines as it takes to pass 5,000 lines.
     */
    static String build(boolean om) {
        for (int engines = 1; ; engines++) {
            String s = build(om, engines);
            if (s.chars().filter(c -> c == '\n').count() >= TARGET_LINES) {
                return s;
            }
        }
    }

    private static String build(boolean om, int engines) {
        StringBuilder sb = new StringBuilder(1 << 20);
        String[] labels = new String[engines];
        for (int e = 0; e < engines; e++) {
            labels[e] = "model_name=\"Qwen/Qwen2.5-7B-Instruct\",engine=\"" + e + "\"";
        }
        gauge(sb, "vllm:num_requests_running", labels, 24);
        gauge(sb, "vllm:num_requests_waiting", labels, 3);
        gauge(sb, "vllm:kv_cache_usage_perc", labels, 0.6123);
        for (String c : new String[] {"vllm:prompt_tokens", "vllm:generation_tokens", "vllm:num_preemptions",
            "vllm:prefix_cache_queries", "vllm:prefix_cache_hits"}) {
            counter(sb, c, labels, 1_843_200.0, om);
        }
        histogram(sb, "vllm:time_to_first_token_seconds", labels, TTFT, om);
        for (String h : new String[] {"vllm:e2e_request_latency_seconds", "vllm:request_queue_time_seconds",
            "vllm:request_prefill_time_seconds", "vllm:request_decode_time_seconds",
            "vllm:request_inference_time_seconds"}) {
            histogram(sb, h, labels, REQUEST, om);
        }
        if (om) {
            sb.append("# EOF\n");
        }
        return sb.toString();
    }

    private static void gauge(StringBuilder sb, String name, String[] labels, double v) {
        sb.append("# HELP ").append(name).append(" A gauge.\n# TYPE ").append(name).append(" gauge\n");
        for (int e = 0; e < labels.length; e++) {
            sb.append(name).append('{').append(labels[e]).append("} ").append(v + e).append('\n');
        }
    }

    private static void counter(StringBuilder sb, String name, String[] labels, double v, boolean om) {
        String family = om ? name : name + "_total";
        sb.append("# HELP ").append(family).append(" A counter.\n# TYPE ").append(family).append(" counter\n");
        for (int e = 0; e < labels.length; e++) {
            sb.append(name).append("_total{").append(labels[e]).append("} ").append(v + e).append('\n');
            if (om) {
                sb.append(name).append("_created{").append(labels[e]).append("} 1.7363210005e+09\n");
            }
        }
    }

    private static void histogram(StringBuilder sb, String name, String[] labels, double[] bounds, boolean om) {
        sb.append("# HELP ").append(name).append(" A histogram.\n# TYPE ").append(name).append(" histogram\n");
        for (int e = 0; e < labels.length; e++) {
            double cum = 0;
            for (int i = 0; i <= bounds.length; i++) {
                cum += (i * 37 + e) % 101;
                String le = i == bounds.length ? "+Inf" : Double.toString(bounds[i]);
                sb.append(name).append("_bucket{").append(labels[e]).append(",le=\"").append(le).append("\"} ")
                        .append(cum);
                if (om && i == 3) {
                    sb.append(" # {trace_id=\"4bf92f3577b34da6a3ce929d0e0e4736\"} 0.0173 1736322150.125");
                }
                sb.append('\n');
            }
            sb.append(name).append("_count{").append(labels[e]).append("} ").append(cum).append('\n');
            sb.append(name).append("_sum{").append(labels[e]).append("} ")
                    .append(String.format(Locale.ROOT, "%.6f", cum * 0.137)).append('\n');
        }
    }

    @Benchmark
    public Exposition prometheusText() {
        return parser.parse(text, ExpositionFormat.PROMETHEUS_TEXT);
    }

    @Benchmark
    public Exposition openMetrics() {
        return parser.parse(openMetrics, ExpositionFormat.OPENMETRICS);
    }
}
