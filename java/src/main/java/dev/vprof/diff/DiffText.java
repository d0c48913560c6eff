package dev.vprof.diff;

import dev.vprof.names.TerminalText;
import dev.vprof.diff.DiffResult.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * {@code vprof diff} for a terminal: the verdict on the first line, why on the next, then the top
 * contributors, the categories, how names matched, and the gate; about one screen with the
 * default {@code --top}. Strings from the captures (kernel names, labels) are escaped.
 */
public final class DiffText {
    private DiffText() {}

    /** Names a table row shows at most (the full name with {@code --long}, in --json and on the HTML page). */
    static final int NAME_WIDTH = 100;

    public static String render(DiffResult r) {
        return render(r, false);
    }

    /** The text; {@code longNames}: every name in full ({@code --long}). */
    public static String render(DiffResult r, boolean longNames) {
        int width = longNames ? Integer.MAX_VALUE : NAME_WIDTH;
        StringBuilder b = new StringBuilder();
        b.append(r.verdict()).append(": ").append(escape(r.headline())).append('\n');
        for (String s : r.story()) {
            b.append("  ").append(s).append('\n');
        }
        b.append(String.format(Locale.ROOT, "  base: %s: %d kernels%s%n", escape(r.base().label()), r.base().kernels(),
                extra(r.base())));
        b.append(String.format(Locale.ROOT, "  new:  %s: %d kernels%s%n", escape(r.next().label()), r.next().kernels(),
                extra(r.next())));
        b.append("  basis: ").append(r.basis().note()).append("; intervals: ").append(r.settings().ciMethod())
                .append(String.format(Locale.ROOT, "; noise floor %.0f %%, threshold %.0f %%%n",
                        100 * r.settings().noiseFloor(), 100 * r.settings().regressionThreshold()));
        int top = r.settings().top();
        String unit = r.basis().unit();
        b.append('\n').append(String.format(Locale.ROOT, "Top contributors (exact names, %d of %d):%n",
                Math.min(top, r.kernels().size()), r.kernels().size()));
        table(b, r.kernels(), top, unit, width);
        b.append('\n').append("By category:\n");
        table(b, r.categories(), Math.min(top, 6), unit, width);
        if (!r.shapes().isEmpty()) {
            b.append('\n').append("By launch shape:\n");
            table(b, r.shapes(), top, unit, width);
        }
        cpuSections(b, r.cpuOps(), Math.min(top, 3), unit, width);
        b.append('\n').append("Matching:");
        for (DiffResult.LevelMatch m : r.matching()) {
            b.append(String.format(Locale.ROOT, " %s %d of %d and %d;", m.level(), m.matched(), m.baseKeys(), m.newKeys()));
        }
        b.setLength(b.length() - 1);
        b.append('\n');
        if (r.comparability().mismatches().isEmpty()) {
            b.append("Comparable: same GPUs, world size, record kinds and CUDA graphs setting.\n");
        } else {
            b.append("Comparability:").append('\n');
            for (DiffResult.Mismatch m : r.comparability().mismatches()) {
                b.append(String.format(Locale.ROOT, "  %s %s: %s vs %s%n", m.blocking() ? "BLOCKS" : "differs",
                        m.what(), escape(m.base()), escape(m.next())));
            }
        }
        if (!r.metrics().isEmpty()) {
            b.append("Metrics (base -> new):");
            for (DiffResult.MetricChange m : r.metrics()) {
                b.append(String.format(Locale.ROOT, " %s %s -> %s;", m.name(), num(m.base()), num(m.next())));
            }
            b.setLength(b.length() - 1);
            b.append('\n');
        }
        return b.toString();
    }

    private static String extra(DiffResult.Side s) {
        StringBuilder b = new StringBuilder();
        if (s.steps() > 0) b.append(", ").append(s.steps()).append(" steps");
        if (s.outsideSteps() != null) {
            b.append(" (").append(s.outsideSteps().kernels()).append(" kernels outside any step)");
        }
        if (s.requests() > 0) b.append(", ").append(s.requests()).append(" requests");
        if (!s.devices().isEmpty()) b.append(", ").append(escape(String.join(", ", new TreeSet<>(s.devices()))));
        if (s.worldSize() != null) b.append(", world size ").append(s.worldSize());
        return b.toString();
    }

    private static void table(StringBuilder b, List<Row> rows, int top, String unit, int width) {
        List<String> names = new ArrayList<>();
        for (Row r : rows) {
            names.add(r.name());
        }
        List<String> shown = distinct(names.subList(0, Math.min(top, names.size())), width);
        b.append(String.format(Locale.ROOT, "  %-11s %-17s %7s %10s %10s %9s  %-7s %s%n", "change/" + unit, "95% CI",
                "share", "base/" + unit, "new/" + unit, "count+-", "status", "name"));
        for (int i = 0; i < Math.min(top, rows.size()); i++) {
            Row r = rows.get(i);
            DiffResult.Change c = r.time();
            String ci = c.ciLow() == null ? "" : signedDuration(c.ciLow()) + ".." + signedDuration(c.ciHigh());
            b.append(String.format(Locale.ROOT, "  %-11s %-17s %7s %10s %10s %+9.2f  %-7s %s%s%n",
                    signedDuration(c.delta()), ci,
                    r.shareOfChange() == null ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * r.shareOfChange()),
                    duration(c.base()), duration(c.next()), r.countChange(), r.status(),
                    r.level().equals("exact") && !r.category().equals(Categories.OTHER) ? "[" + r.category() + "] " : "",
                    escape(shown.get(i))));
        }
    }

    /** CPU operators, annotations and runtime calls, each kind its own short table (counts and time; no interval). */
    private static void cpuSections(StringBuilder b, List<Row> rows, int top, String unit, int width) {
        for (String[] kind : new String[][] {{"cpu_op", "CPU operators"}, {"annotation", "Annotations"},
                {"runtime", "Runtime and driver calls"}}) {
            List<Row> of = new ArrayList<>();
            for (Row r : rows) {
                if (r.level().equals(kind[0])) {
                    of.add(r);
                }
            }
            if (of.isEmpty()) {
                continue;
            }
            List<String> names = new ArrayList<>();
            for (Row r : of.subList(0, Math.min(top, of.size()))) {
                names.add(r.name());
            }
            List<String> shown = distinct(names, width);
            b.append('\n').append(String.format(Locale.ROOT, "%s (%d of %d):%n", kind[1], shown.size(), of.size()));
            b.append(String.format(Locale.ROOT, "  %-11s %10s %10s %9s  %-7s %s%n", "change/" + unit, "base/" + unit,
                    "new/" + unit, "count+-", "status", "name"));
            for (int i = 0; i < shown.size(); i++) {
                Row r = of.get(i);
                b.append(String.format(Locale.ROOT, "  %-11s %10s %10s %+9.2f  %-7s %s%n",
                        signedDuration(r.time().delta()), duration(r.time().base()), duration(r.time().next()),
                        r.countChange(), r.status(), escape(shown.get(i))));
            }
        }
    }

    static String num(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.3g", d);
    }

    static String duration(double ns) {
        double a = Math.abs(ns);
        if (a >= 1e9) return String.format(Locale.ROOT, "%.2fs", ns / 1e9);
        if (a >= 1e6) return String.format(Locale.ROOT, "%.2fms", ns / 1e6);
        if (a >= 1e3) return String.format(Locale.ROOT, "%.1fus", ns / 1e3);
        return String.format(Locale.ROOT, "%.0fns", ns);
    }

    static String signedDuration(double ns) {
        return (ns >= 0 ? "+" : "-") + duration(Math.abs(ns));
    }

    static String seconds(double s) {
        return duration(s * 1e9);
    }

    static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    /**
     * Each name cut to {@code max} characters, as nsys shows them, except that two names whose cut
     * forms would be the same keep the part where they differ visible: the head, "...", and the
     * text from a little before the first character that tells the name from the others.
     */
    static List<String> distinct(List<String> names, int max) {
        List<String> out = new ArrayList<>(names.size());
        for (String n : names) {
            String cut = shorten(n, max);
            int common = -1;
            for (String o : names) {
                if (!o.equals(n) && shorten(o, max).equals(cut)) {
                    int p = 0;
                    while (p < n.length() && p < o.length() && n.charAt(p) == o.charAt(p)) {
                        p++;
                    }
                    common = Math.max(common, p);
                }
            }
            if (common < 0 || n.length() <= max) {
                out.add(cut);
                continue;
            }
            int head = Math.max(8, max / 3);
            int from = Math.max(head, common - 8);
            int room = max - head - 6;
            String tail = n.substring(from, Math.min(n.length(), from + room));
            out.add(n.substring(0, head) + "..." + tail + (from + room < n.length() ? "..." : ""));
        }
        return out;
    }

    /** A name made safe for a terminal ({@link TerminalText#escape}). */
    public static String escape(String s) {
        return TerminalText.escape(s);
    }
}
