package dev.vprof.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The metric families of one exposition as its lines declare and fill them: TYPE, HELP and
 * UNIT (each once, before the family's samples), which family a sample belongs to (its own, or
 * the family whose name it extends by one of the type's suffixes), what a family's type asks of
 * a sample's labels ({@code le}, {@code quantile}) and where an exemplar may be, and, once the
 * whole exposition is read, the values of each histogram and counter series
 * ({@link SeriesRules}). Errors go to the cursor, on the line that caused them.
 */
final class FamilyTable {
    private static final String[] SUFFIXES = {
        "_total", "_created", "_bucket", "_sum", "_count", "_info", "_gbucket", "_gsum", "_gcount"
    };

    /** One family while it is read. */
    static final class Family {
        final String name;
        MetricType type = MetricType.UNKNOWN;
        boolean typed;
        String help;
        String unit;
        final List<Sample> samples = new ArrayList<>();
        /** The line of each sample, for errors found once the whole family is read. */
        final List<Integer> lines = new ArrayList<>();

        Family(String name) {
            this.name = name;
        }

        /** The suffix of {@code sampleName} after this family's name, or null if it does not fit. */
        String suffixOf(String sampleName) {
            if (!sampleName.startsWith(name)) {
                return null;
            }
            String suffix = sampleName.length() == name.length() ? "" : sampleName.substring(name.length());
            return type.acceptsSuffix(suffix) ? suffix : null;
        }
    }

    private final ExpositionCursor cursor;
    private final ExpositionNumbers numbers;
    private final boolean openMetrics;
    private final Map<String, Family> families = new LinkedHashMap<>();
    /** The family of the last line that named one: samples usually follow their metadata. */
    private Family current;

    FamilyTable(ExpositionCursor cursor, ExpositionNumbers numbers, boolean openMetrics) {
        this.cursor = cursor;
        this.numbers = numbers;
        this.openMetrics = openMetrics;
    }

    private Family family(String name) {
        return families.computeIfAbsent(name, Family::new);
    }

    /** A TYPE line: the family's type, once and before its samples. */
    void type(String name, MetricType type) {
        Family f = described(name, "TYPE", g -> g.typed, true);
        if (f != null) {
            f.type = type;
            f.typed = true;
        }
    }

    /** A HELP line: the family's text, once (and in OpenMetrics before its samples). */
    void help(String name, String help) {
        Family f = described(name, "HELP", g -> g.help != null, openMetrics);
        if (f != null) {
            f.help = help;
        }
    }

    /** A UNIT line (OpenMetrics): the family's unit, once and before its samples. */
    void unit(String name, String unit) {
        Family f = described(name, "UNIT", g -> g.unit != null, true);
        if (f != null) {
            f.unit = unit;
        }
    }

    /**
     * The family a metadata line ({@code keyword} TYPE, HELP or UNIT) describes, made the current
     * one; null, with an error, when the family has that line already ({@code seen}) or when the line
     * must come first and the family's samples came before it.
     */
    private Family described(String name, String keyword, Predicate<Family> seen, boolean mustComeFirst) {
        Family f = family(name);
        if (seen.test(f)) {
            cursor.error("second " + keyword + " line for " + name);
            return null;
        }
        if (mustComeFirst && !f.samples.isEmpty()) {
            cursor.error(keyword + " line for " + name + " comes after its samples; it must come first");
            return null;
        }
        current = f;
        return f;
    }

    /** A sample line, into its family; refused (with an error) when it does not fit it. */
    void add(SampleLine.Parsed p) {
        Family f = resolve(p.name());
        if (f == null) {
            return;
        }
        String suffix = p.name().length() == f.name.length() ? "" : p.name().substring(f.name.length());
        if (!fitsType(f, suffix, p.name(), p.labels())) {
            return;
        }
        Exemplar exemplar = p.exemplar();
        if (exemplar != null && !exemplarAllowed(f.type, suffix)) {
            cursor.error("exemplar on " + p.name() + " dropped: exemplars belong on counter _total and histogram"
                    + " _bucket samples");
            exemplar = null;
        }
        f.samples.add(new Sample(p.name(), p.labels(), p.value(), p.timestampNs(), exemplar));
        f.lines.add(cursor.lineNo);
        current = f;
    }

    /** The family a sample named {@code name} belongs to; null (with an error) when it fits none it may. */
    Family resolve(String name) {
        if (current != null && current.suffixOf(name) != null) {
            return current;
        }
        Family f = families.get(name);
        if (f != null) {
            if (f.type.acceptsSuffix("")) {
                return f;
            }
            cursor.error("sample " + name + " does not fit its family, which is a " + f.type.word()
                    + " (expected one of its suffixed series)");
            return null;
        }
        for (String suffix : SUFFIXES) {
            if (name.endsWith(suffix) && name.length() > suffix.length()) {
                Family base = families.get(name.substring(0, name.length() - suffix.length()));
                if (base != null && base.type.acceptsSuffix(suffix)) {
                    return base;
                }
            }
        }
        // Untyped sample: its own family, as the Prometheus server treats it.
        return family(name);
    }

    /** What a histogram's buckets and a summary's quantiles need in their labels. */
    private boolean fitsType(Family f, String suffix, String name, Labels labels) {
        switch (f.type) {
            case HISTOGRAM, GAUGEHISTOGRAM -> {
                if (suffix.equals("_bucket") || suffix.equals("_gbucket")) {
                    String le = labels.get("le");
                    if (le == null) {
                        cursor.error("histogram bucket " + name + " has no 'le' label");
                        return false;
                    }
                    if (Double.isNaN(numbers.labelNumber(le))) {
                        cursor.error("histogram bucket " + name + " has an invalid le=\"" + le + "\"");
                        return false;
                    }
                }
            }
            case SUMMARY -> {
                if (suffix.isEmpty()) {
                    String q = labels.get("quantile");
                    if (q == null) {
                        cursor.error("summary sample " + name + " has no 'quantile' label");
                        return false;
                    }
                    double qv = numbers.labelNumber(q);
                    if (!(qv >= 0 && qv <= 1)) {
                        cursor.error("summary sample " + name + " has an invalid quantile=\"" + q + "\" (0 to 1)");
                        return false;
                    }
                }
            }
            default -> {
            }
        }
        return true;
    }

    static boolean exemplarAllowed(MetricType type, String suffix) {
        return switch (type) {
            case COUNTER -> suffix.equals("_total") || suffix.isEmpty();
            case HISTOGRAM -> suffix.equals("_bucket");
            case GAUGEHISTOGRAM -> suffix.equals("_bucket") || suffix.equals("_gbucket");
            default -> false;
        };
    }

    /** The families read, in the order they first appeared. */
    Iterable<Family> all() {
        return families.values();
    }

    /** The families as the exposition hands them out. */
    List<MetricFamily> result() {
        List<MetricFamily> out = new ArrayList<>(families.size());
        for (Family f : families.values()) {
            out.add(new MetricFamily(f.name, f.type, f.help, f.unit, f.samples));
        }
        return out;
    }

    /**
     * Flags each histogram and counter series whose values break the format's rules (see
     * {@link SeriesRules}); its samples are kept, as read, and the metric math leaves it out.
     */
    void checkValues(Family f) {
        switch (f.type) {
            case HISTOGRAM, GAUGEHISTOGRAM -> checkHistogram(f);
            case COUNTER -> {
                for (int i = 0; i < f.samples.size(); i++) {
                    Sample smp = f.samples.get(i);
                    if (smp.name().endsWith("_created")) {
                        continue;
                    }
                    String problem = SeriesRules.counter(smp.value());
                    if (problem != null) {
                        cursor.errorAt(f.lines.get(i), "counter " + smp.name() + smp.labels()
                                + " breaks the exposition format's rules: " + problem
                                + "; it is kept as read but gives no rate");
                    }
                }
            }
            default -> {
            }
        }
    }

    private void checkHistogram(Family f) {
        boolean gauge = f.type == MetricType.GAUGEHISTOGRAM;
        String bucket = f.name + "_bucket";
        // OpenMetrics 1.0 names gauge histogram buckets _bucket; its drafts said _gbucket
        String draftBucket = f.name + "_gbucket";
        String countName = f.name + (gauge ? "_gcount" : "_count");
        String sumName = f.name + (gauge ? "_gsum" : "_sum");
        Map<Labels, List<Sample>> buckets = new LinkedHashMap<>();
        Map<Labels, Integer> lastLine = new LinkedHashMap<>();
        Map<Labels, Double> counts = new LinkedHashMap<>();
        Map<Labels, Double> sums = new LinkedHashMap<>();
        for (int i = 0; i < f.samples.size(); i++) {
            Sample smp = f.samples.get(i);
            Labels series = smp.labels().without("le");
            if (smp.name().equals(bucket) || (gauge && smp.name().equals(draftBucket))) {
                buckets.computeIfAbsent(series, k -> new ArrayList<>()).add(smp);
            } else if (smp.name().equals(countName)) {
                counts.put(series, smp.value());
            } else if (smp.name().equals(sumName)) {
                sums.put(series, smp.value());
            } else {
                continue;
            }
            lastLine.merge(series, f.lines.get(i), Math::max);
        }
        for (Map.Entry<Labels, Integer> e : lastLine.entrySet()) {
            Labels series = e.getKey();
            String problem = SeriesRules.histogram(buckets.getOrDefault(series, List.of()),
                    counts.getOrDefault(series, Double.NaN), counts.containsKey(series),
                    sums.getOrDefault(series, Double.NaN), sums.containsKey(series), gauge);
            if (problem != null) {
                cursor.errorAt(e.getValue(), f.type.word() + " " + f.name + series
                        + " breaks the exposition format's rules: " + problem
                        + "; it is kept as read but gives no quantile");
            }
        }
    }
}
