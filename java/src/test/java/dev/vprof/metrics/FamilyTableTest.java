package dev.vprof.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The families of one exposition: metadata once and first, the family each sample belongs to,
 * what a type asks of a sample's labels, and the values checked once everything is read. Each
 * call below stands for the next line of the exposition, so errors carry that line's number.
 */
class FamilyTableTest {
    private final ExpositionCursor cursor = new ExpositionCursor("\n".repeat(100));
    private FamilyTable table = new FamilyTable(cursor, new ExpositionNumbers(), false);

    private void openMetrics() {
        table = new FamilyTable(cursor, new ExpositionNumbers(), true);
    }

    private void type(String name, MetricType type) {
        cursor.nextLine();
        table.type(name, type);
    }

    private void add(String name, Labels labels, double value) {
        add(name, labels, value, null);
    }

    private void add(String name, Labels labels, double value, Exemplar exemplar) {
        cursor.nextLine();
        table.add(new SampleLine.Parsed(name, labels, value, Sample.NO_TIMESTAMP, exemplar));
    }

    private List<String> errors() {
        List<String> out = new ArrayList<>();
        for (ParseError e : cursor.errors) {
            out.add(e.line() + ": " + e.message());
        }
        return out;
    }

    private MetricFamily family(String name) {
        return table.result().stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
    }

    @Test
    void metadataComesOnceAndBeforeTheFamilysSamples() {
        type("x", MetricType.COUNTER);               // 1
        type("x", MetricType.GAUGE);                 // 2
        add("x_total", Labels.EMPTY, 1);             // 3
        cursor.nextLine();                           // 4
        table.help("x", "late but allowed in Prometheus text");
        add("y", Labels.EMPTY, 1);                   // 5
        type("y", MetricType.GAUGE);                 // 6
        cursor.nextLine();                           // 7
        table.unit("y", "seconds");
        cursor.nextLine();                           // 8
        table.help("x", "again");
        assertEquals(List.of("2: second TYPE line for x",
                "6: TYPE line for y comes after its samples; it must come first",
                "7: UNIT line for y comes after its samples; it must come first",
                "8: second HELP line for x"), errors());
        MetricFamily x = family("x");
        assertEquals(MetricType.COUNTER, x.type(), "the first TYPE line holds");
        assertEquals("late but allowed in Prometheus text", x.help());
        assertEquals(MetricType.UNKNOWN, family("y").type(), "an untyped family stays unknown");
    }

    @Test
    void openMetricsWantsHelpBeforeTheSamplesToo() {
        openMetrics();
        cursor.nextLine();
        table.unit("z", "bytes");
        cursor.nextLine();
        table.unit("z", "bits");
        add("z", Labels.EMPTY, 1);
        cursor.nextLine();
        table.help("z", "late");
        assertEquals(List.of("2: second UNIT line for z",
                "4: HELP line for z comes after its samples; it must come first"), errors());
        assertEquals("bytes", family("z").unit());
        assertNull(family("z").help());
    }

    @Test
    void samplesJoinTheFamilyTheirNameExtends() {
        type("h", MetricType.HISTOGRAM);
        type("g", MetricType.GAUGE);
        add("g", Labels.EMPTY, 1);
        add("h_sum", Labels.EMPTY, 3);               // not the current family, found by its suffix
        add("h_count", Labels.EMPTY, 2);
        add("y_total", Labels.EMPTY, 5);             // no family y: its own, untyped
        add("h", Labels.EMPTY, 9);                   // line 7: a histogram has no unsuffixed sample
        type("a_total", MetricType.GAUGE);
        type("a", MetricType.COUNTER);
        add("a_total", Labels.EMPTY, 4);             // the current family a takes it, not the gauge a_total
        assertEquals(List.of("7: sample h does not fit its family, which is a histogram (expected one of its"
                + " suffixed series)"), errors());
        List<String> names = table.result().stream().map(MetricFamily::name).toList();
        assertEquals(List.of("h", "g", "y_total", "a_total", "a"), names, "in the order they first appeared");
        assertEquals(List.of("h_sum", "h_count"), family("h").samples().stream().map(Sample::name).toList());
        assertEquals(MetricType.UNKNOWN, family("y_total").type());
        assertEquals(1, family("a").samples().size());
        assertTrue(family("a_total").samples().isEmpty());
        List<Integer> lines = new ArrayList<>();
        table.all().forEach(f -> lines.addAll(f.lines));
        assertEquals(List.of(4, 5, 3, 6, 10), lines, "each sample's line is kept for the checks at the end");
    }

    @Test
    void bucketsNeedALeAndSummaryQuantilesAQuantileFrom0To1() {
        type("h", MetricType.HISTOGRAM);
        add("h_bucket", Labels.EMPTY, 1);
        add("h_bucket", Labels.of("le", "one"), 1);
        add("h_bucket", Labels.of("le", "+Inf"), 1);
        type("s", MetricType.SUMMARY);
        add("s", Labels.EMPTY, 1);
        add("s", Labels.of("quantile", "1.5"), 1);
        add("s", Labels.of("quantile", "0.5"), 1);
        add("s_sum", Labels.EMPTY, 1);
        assertEquals(List.of("2: histogram bucket h_bucket has no 'le' label",
                "3: histogram bucket h_bucket has an invalid le=\"one\"",
                "6: summary sample s has no 'quantile' label",
                "7: summary sample s has an invalid quantile=\"1.5\" (0 to 1)"), errors());
        assertEquals(1, family("h").samples().size());
        assertEquals(2, family("s").samples().size());
    }

    @Test
    void exemplarsStayOnlyOnCounterTotalsAndBuckets() {
        Exemplar ex = new Exemplar(Labels.of("trace_id", "t"), 1, Sample.NO_TIMESTAMP);
        type("c", MetricType.COUNTER);
        add("c_total", Labels.EMPTY, 1, ex);
        type("g", MetricType.GAUGE);
        add("g", Labels.EMPTY, 1, ex);
        assertEquals(List.of("4: exemplar on g dropped: exemplars belong on counter _total and histogram _bucket"
                + " samples"), errors());
        assertEquals(ex, family("c").samples().getFirst().exemplar());
        assertNull(family("g").samples().getFirst().exemplar());
        assertEquals(1.0, family("g").samples().getFirst().value(), "the sample is kept");

        assertTrue(FamilyTable.exemplarAllowed(MetricType.HISTOGRAM, "_bucket"));
        assertFalse(FamilyTable.exemplarAllowed(MetricType.HISTOGRAM, "_sum"));
        assertTrue(FamilyTable.exemplarAllowed(MetricType.GAUGEHISTOGRAM, "_gbucket"));
        assertFalse(FamilyTable.exemplarAllowed(MetricType.COUNTER, "_created"));
        assertFalse(FamilyTable.exemplarAllowed(MetricType.SUMMARY, ""));
    }

    @Test
    void valuesAreCheckedOnceTheWholeFamilyIsRead() {
        type("h", MetricType.HISTOGRAM);                          // 1
        add("h_bucket", Labels.of("le", "1", "m", "a"), 5);       // 2
        add("h_bucket", Labels.of("le", "+Inf", "m", "a"), 3);    // 3: fewer than le=1
        add("h_bucket", Labels.of("le", "+Inf", "m", "b"), 3);    // 4
        add("h_count", Labels.of("m", "a"), 3);                   // 5
        add("h_count", Labels.of("m", "b"), 3);                   // 6
        type("c", MetricType.COUNTER);                            // 7
        add("c_total", Labels.of("k", "1"), -2);                  // 8
        add("c_total", Labels.of("k", "2"), 2);                   // 9
        add("c_created", Labels.of("k", "1"), -1);                // 10: a creation time, not a total
        type("gh", MetricType.GAUGEHISTOGRAM);                    // 11
        add("gh_bucket", Labels.of("le", "+Inf"), 4);             // 12
        add("gh_gcount", Labels.EMPTY, 5);                        // 13
        assertEquals(List.of(), errors(), "nothing is checked while lines are read");
        table.all().forEach(table::checkValues);
        assertEquals(List.of(
                "5: histogram h{m=\"a\"} breaks the exposition format's rules: the buckets are not cumulative: le=+Inf"
                        + " holds 3, fewer than le=1 with 5; it is kept as read but gives no quantile",
                "8: counter c_total{k=\"1\"} breaks the exposition format's rules: its total is -2 (a counter starts at 0"
                        + " and never goes down); it is kept as read but gives no rate",
                "13: gaugehistogram gh breaks the exposition format's rules: its count 5 is not its +Inf bucket's 4;"
                        + " it is kept as read but gives no quantile"), errors());
        assertEquals(5, family("h").samples().size(), "the samples are kept as read");
    }
}
