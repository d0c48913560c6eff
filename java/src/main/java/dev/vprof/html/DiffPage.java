package dev.vprof.html;

import static dev.vprof.html.Html.fmt;
import static dev.vprof.html.Html.n;
import static dev.vprof.html.Html.text;

import dev.vprof.diff.DiffResult;
import dev.vprof.report.ReportFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The page of a comparison ({@code vprof diff … --html}): a renderer of {@link DiffResult}, the
 * model the text and JSON are written from. Sections: the verdict with its headline and story;
 * both sides' bars (GPU time and step time per unit) with the change and its confidence interval;
 * the ranked contributors (their change per unit as a bar with its interval as a whisker); the
 * categories; the comparability notes (gate, basis, settings, name matching); requests and
 * metrics when both sides have them. Each chart has its numbers in a table under it.
 */
public final class DiffPage {
    private DiffPage() {}

    public static String render(DiffResult r) {
        StringBuilder b = new StringBuilder(32 * 1024);
        b.append("<header><h1>vprof diff: ").append(text(r.base().label())).append(" → ")
                .append(text(r.next().label())).append("</h1>\n<p class=\"meta\">")
                .append(text(r.basis().note())).append("</p></header>\n");
        verdict(b, r);
        sides(b, r);
        contributors(b, r, "contributors", "Top contributors (exact kernel names)", r.kernels(), r.settings().top());
        contributors(b, r, "categories", "By kernel category", r.categories(), Math.min(12, r.categories().size()));
        if (!r.shapes().isEmpty()) {
            contributors(b, r, "shapes", "By launch shape", r.shapes(), r.settings().top());
        }
        comparability(b, r);
        requests(b, r);
        metrics(b, r);
        b.append("<footer class=\"note\"><p>Written by vprof diff from the two sides alone: this file loads nothing "
                + "from the network. Rules: docs/diff.md.</p></footer>\n");
        return Html.page("vprof diff: " + r.verdict(), b.toString());
    }

    private static void verdict(StringBuilder b, DiffResult r) {
        String cls = switch (r.verdict()) {
            case DiffResult.REGRESSED, DiffResult.NOT_COMPARABLE -> "bad";
            case DiffResult.IMPROVED, DiffResult.NO_CHANGE -> "ok";
            default -> "";
        };
        b.append("<section id=\"verdict\" class=\"banner ").append(cls).append("\">\n<p class=\"verdict-title\">")
                .append(text(r.verdict())).append("</p>\n<p>").append(text(r.headline())).append("</p>\n");
        Html.list(b, "<ul>", r.story(), "</ul>\n");
        if (!r.warnings().isEmpty()) {
            b.append("<div class=\"health\"><ul>");
            for (String w : r.warnings().subList(0, Math.min(CapturePage.MAX_WARNINGS, r.warnings().size()))) {
                b.append("<li class=\"bad\">").append(text(w)).append("</li>");
            }
            b.append("</ul></div>\n");
        }
        b.append("</section>\n");
    }

    // ---- both sides ----

    private static void sides(StringBuilder b, DiffResult r) {
        String unit = r.basis().unit();
        b.append("<section id=\"sides\"><h2>Both sides, per ").append(text(unit)).append("</h2>\n");
        List<String> names = new ArrayList<>();
        List<DiffResult.Change> changes = new ArrayList<>();
        names.add("GPU time (all kernels)");
        changes.add(r.gpuTime());
        if (r.stepTime() != null) {
            names.add("step time");
            changes.add(r.stepTime());
        }
        double max = 1;
        for (DiffResult.Change c : changes) {
            max = Math.max(max, Math.max(c.base(), c.next()));
        }
        double labelW = 190, barW = 700, rowH = 20, groupH = 2 * rowH + 14;
        double h = changes.size() * groupH + 4;
        b.append("<figure><svg class=\"chart sidebars\" role=\"img\" aria-label=\"both sides\" viewBox=\"0 0 1200 ")
                .append(n(h)).append("\">\n");
        for (int i = 0; i < changes.size(); i++) {
            DiffResult.Change c = changes.get(i);
            double y = 4 + i * groupH;
            b.append("<text class=\"lane\" x=\"4\" y=\"").append(n(y + rowH)).append("\">").append(text(names.get(i)))
                    .append("</text>");
            double[] v = {c.base(), c.next()};
            String[] side = {"base", "new"};
            for (int s = 0; s < 2; s++) {
                double yy = y + s * rowH;
                double w = Math.max(1, barW * v[s] / max);
                b.append("<rect class=\"").append(s == 0 ? "q-before" : "busy").append(" mark\" x=\"").append(n(labelW))
                        .append("\" y=\"").append(n(yy + 2)).append("\" width=\"").append(n(w)).append("\" height=\"")
                        .append(n(rowH - 5)).append("\"/><text x=\"").append(n(labelW + w + 6)).append("\" y=\"")
                        .append(n(yy + 14)).append("\">").append(text(side[s] + " " + duration(v[s]))).append("</text>");
            }
        }
        b.append("</svg><p class=\"legend note\"><span><i class=\"q-before\"></i>base</span><span><i class=\"busy\">"
                + "</i>new</span> · per ").append(text(unit)).append("</p></figure>\n");
        b.append("<table><thead><tr><th>measure</th><th class=\"n\">base</th><th class=\"n\">new</th><th class=\"n\">"
                + "change</th><th class=\"n\">relative</th><th class=\"n\">").append(ci(r)).append("</th><th>significant"
                + "</th></tr></thead><tbody>");
        for (int i = 0; i < changes.size(); i++) {
            DiffResult.Change c = changes.get(i);
            b.append("<tr><td>").append(text(names.get(i))).append("</td><td class=\"n\">").append(text(duration(c.base())))
                    .append("</td><td class=\"n\">").append(text(duration(c.next()))).append("</td><td class=\"n\">")
                    .append(text(signed(c.delta()))).append("</td><td class=\"n\">").append(text(relative(c.relative())))
                    .append("</td><td class=\"n\">").append(text(interval(c))).append("</td><td>")
                    .append(c.significant() ? "yes" : "no").append("</td></tr>");
        }
        b.append("</tbody></table>\n");
        b.append("<table><thead><tr><th></th><th>base</th><th>new</th></tr></thead><tbody>");
        DiffResult.Side x = r.base(), y = r.next();
        sideRow(b, "label", x.label(), y.label());
        sideRow(b, "file", x.file(), y.file());
        sideRow(b, "selection", x.window() == null ? "all" : x.window(), y.window() == null ? "all" : y.window());
        sideRow(b, "interval", ReportFormat.duration(Math.max(0, x.endNs() - x.startNs())),
                ReportFormat.duration(Math.max(0, y.endNs() - y.startNs())));
        sideRow(b, "kernels", Long.toString(x.kernels()), Long.toString(y.kernels()));
        sideRow(b, "GPU time", ReportFormat.duration(x.gpuNs()), ReportFormat.duration(y.gpuNs()));
        sideRow(b, "steps", Long.toString(x.steps()), Long.toString(y.steps()));
        sideRow(b, "requests", Long.toString(x.requests()), Long.toString(y.requests()));
        sideRow(b, "GPUs", String.join(", ", new TreeSet<>(x.devices())),
                String.join(", ", new TreeSet<>(y.devices())));
        sideRow(b, "world size", x.worldSize() == null ? "-" : x.worldSize().toString(),
                y.worldSize() == null ? "-" : y.worldSize().toString());
        sideRow(b, "ranks", String.valueOf(x.ranks()), String.valueOf(y.ranks()));
        b.append("</tbody></table></section>\n");
    }

    private static void sideRow(StringBuilder b, String what, String base, String next) {
        b.append("<tr><th>").append(text(what)).append("</th><td class=\"name\">")
                .append(text(CapturePage.clip(base, CapturePage.MAX_STRING))).append("</td><td class=\"name\">")
                .append(text(CapturePage.clip(next, CapturePage.MAX_STRING))).append("</td></tr>");
    }

    // ---- ranked rows ----

    private static void contributors(StringBuilder b, DiffResult r, String id, String title, List<DiffResult.Row> all,
                                     int top) {
        String unit = r.basis().unit();
        List<DiffResult.Row> rows = all.subList(0, Math.min(Math.min(top, CapturePage.MAX_KERNELS), all.size()));
        b.append("<section id=\"").append(id).append("\"><h2>").append(text(title)).append(", ").append(rows.size())
                .append(" of ").append(all.size()).append(", ranked by the size of their change per ").append(text(unit))
                .append("</h2>\n");
        if (rows.isEmpty()) {
            b.append("<p class=\"note\">Nothing to rank: neither side has rows here.</p></section>\n");
            return;
        }
        double extent = 1;
        for (DiffResult.Row row : rows) {
            DiffResult.Change c = row.time();
            extent = Math.max(extent, Math.abs(c.delta()));
            if (c.ciLow() != null) {
                extent = Math.max(extent, Math.max(Math.abs(c.ciLow()), Math.abs(c.ciHigh())));
            }
        }
        double labelW = 330, plotW = 600, textW = 270, rowH = 20;
        double zero = labelW + plotW / 2;
        double h = rows.size() * rowH + 8;
        b.append("<figure><svg class=\"chart ranked\" role=\"img\" aria-label=\"").append(text(title))
                .append("\" viewBox=\"0 0 ").append(n(labelW + plotW + textW)).append(' ').append(n(h)).append("\">\n");
        b.append("<line class=\"grid\" x1=\"").append(n(zero)).append("\" x2=\"").append(n(zero))
                .append("\" y1=\"0\" y2=\"").append(n(h)).append("\"/>");
        for (int i = 0; i < rows.size(); i++) {
            DiffResult.Row row = rows.get(i);
            DiffResult.Change c = row.time();
            double y = 4 + i * rowH;
            double x1 = zero + plotW / 2 * c.delta() / extent;
            b.append("<text class=\"lane\" x=\"4\" y=\"").append(n(y + 13)).append("\">")
                    .append(text((i + 1) + ". " + CapturePage.clip(row.name(), 48))).append("</text>");
            b.append("<rect class=\"").append(c.delta() > 0 ? "q-queue" : "q-decode").append("\" x=\"")
                    .append(n(Math.min(zero, x1))).append("\" y=\"").append(n(y + 3)).append("\" width=\"")
                    .append(n(Math.abs(x1 - zero))).append("\" height=\"").append(n(rowH - 7)).append("\"/>");
            if (c.ciLow() != null && c.ciHigh() != null) {
                double lo = zero + plotW / 2 * c.ciLow() / extent;
                double hi = zero + plotW / 2 * c.ciHigh() / extent;
                b.append("<line class=\"whisker\" x1=\"").append(n(lo)).append("\" x2=\"").append(n(hi)).append("\" y1=\"")
                        .append(n(y + rowH / 2)).append("\" y2=\"").append(n(y + rowH / 2)).append("\"/>");
            }
            b.append("<circle class=\"dot mark\" cx=\"").append(n(x1)).append("\" cy=\"").append(n(y + rowH / 2 - 0.5))
                    .append("\" r=\"3\"><title>").append(text(row.name() + ": " + signed(c.delta()) + " per " + unit
                            + (c.ciLow() == null ? "" : ", " + interval(c)))).append("</title></circle>");
            b.append("<text x=\"").append(n(labelW + plotW + 6)).append("\" y=\"").append(n(y + 13)).append("\">")
                    .append(text(signed(c.delta()) + (c.ciLow() == null ? "" : "  " + interval(c)))).append("</text>\n");
        }
        b.append("</svg><p class=\"legend note\"><span><i class=\"q-queue\"></i>more time per ").append(text(unit))
                .append("</span><span><i class=\"q-decode\"></i>less</span> · dot: the change; line: its ")
                .append(text(ci(r))).append(" (").append(text(r.settings().ciMethod())).append(")</p></figure>\n");
        b.append("<table class=\"sortable\" id=\"").append(id).append("-table\"><thead><tr><th class=\"n\" data-sort=\"n\">#"
                + "</th><th data-sort=\"t\">name</th><th data-sort=\"t\">category</th><th data-sort=\"t\">status</th>"
                + "<th class=\"n\" data-sort=\"n\">base/").append(text(unit)).append("</th><th class=\"n\" data-sort=\"n\">"
                + "new/").append(text(unit)).append("</th><th class=\"n\" data-sort=\"n\">change</th><th class=\"n\">")
                .append(ci(r)).append("</th><th class=\"n\" data-sort=\"n\">relative</th><th class=\"n\" data-sort=\"n\">"
                + "share of change</th><th class=\"n\" data-sort=\"n\">count change</th></tr></thead><tbody>\n");
        for (int i = 0; i < rows.size(); i++) {
            DiffResult.Row row = rows.get(i);
            DiffResult.Change c = row.time();
            b.append("<tr><td class=\"n\" data-v=\"").append(i + 1).append("\">").append(i + 1)
                    .append("</td><td class=\"name\">").append(text(CapturePage.clip(row.name(), CapturePage.MAX_STRING)))
                    .append("</td><td>").append(text(row.category())).append("</td><td>").append(text(row.status()
                            + (row.matchedAt() == null ? "" : " (matched at " + row.matchedAt() + ")"))).append("</td>");
            num(b, c.base(), duration(c.base()));
            num(b, c.next(), duration(c.next()));
            num(b, c.delta(), signed(c.delta()));
            b.append("<td class=\"n\">").append(text(interval(c))).append("</td>");
            num(b, c.relative() == null ? 0 : c.relative(), relative(c.relative()));
            num(b, row.shareOfChange() == null ? 0 : row.shareOfChange(),
                    row.shareOfChange() == null ? "-" : fmt("%.0f%%", 100 * row.shareOfChange()));
            num(b, row.countChange(), fmt("%+.2f", row.countChange()));
            b.append("</tr>\n");
        }
        b.append("</tbody></table>");
        if ("contributors".equals(id) && r.explained() != null) {
            b.append("<p class=\"note\">").append(text(fmt("These %d rows account for %.0f%% of the GPU-time change.",
                    rows.size(), 100 * r.explained()))).append("</p>");
        }
        b.append("</section>\n");
    }

    private static void num(StringBuilder b, double v, String shown) {
        b.append("<td class=\"n\" data-v=\"").append(Double.isFinite(v) ? v : 0).append("\">").append(text(shown))
                .append("</td>");
    }

    // ---- comparability ----

    private static void comparability(StringBuilder b, DiffResult r) {
        b.append("<section id=\"comparability\"><h2>Comparability</h2>\n<p>");
        DiffResult.Comparability c = r.comparability();
        if (c.mismatches().isEmpty()) {
            b.append("Comparable: same GPUs, world size, record kinds and CUDA graphs setting.");
        } else {
            b.append(c.comparable() ? "Comparable" : "<b>Not comparable</b>")
                    .append(r.settings().forced() ? " (compared anyway: --force)" : "")
                    .append("; the differences, blocking ones first:");
        }
        b.append("</p>\n");
        if (!c.mismatches().isEmpty()) {
            b.append("<table id=\"mismatches\"><thead><tr><th>what</th><th>base</th><th>new</th><th></th></tr></thead><tbody>");
            for (DiffResult.Mismatch m : c.mismatches()) {
                b.append("<tr><td>").append(text(m.what())).append("</td><td class=\"name\">").append(text(m.base()))
                        .append("</td><td class=\"name\">").append(text(m.next())).append("</td><td")
                        .append(m.blocking() ? " class=\"bad\">blocks the comparison" : ">differs").append("</td></tr>");
            }
            b.append("</tbody></table>\n");
        }
        DiffResult.Settings s = r.settings();
        b.append("<table><tbody>");
        row(b, "basis", r.basis().note() + fmt(" (base %.2f, new %.2f %ss)", r.basis().baseUnits(),
                r.basis().newUnits(), r.basis().unit()));
        row(b, "intervals", fmt("%.0f%% confidence, ", 100 * s.ci()) + s.ciMethod());
        row(b, "noise floor / threshold", fmt("%.0f%% / %.0f%%", 100 * s.noiseFloor(), 100 * s.regressionThreshold()));
        List<String> matching = new ArrayList<>();
        for (DiffResult.LevelMatch m : r.matching()) {
            matching.add(fmt("%s: %d on both of %d and %d", m.level(), m.matched(), m.baseKeys(), m.newKeys()));
        }
        row(b, "names matched", String.join("; ", matching));
        b.append("</tbody></table></section>\n");
    }

    private static void row(StringBuilder b, String k, String v) {
        b.append("<tr><th>").append(text(k)).append("</th><td>").append(text(v)).append("</td></tr>");
    }

    // ---- requests and metrics ----

    private static void requests(StringBuilder b, DiffResult r) {
        DiffResult.Requests q = r.requests();
        if (q == null) {
            return;
        }
        b.append("<section id=\"requests\"><h2>Requests</h2>\n<p class=\"note\">")
                .append(text(fmt("%d requests in the base, %d in the new side", q.baseRequests(), q.newRequests())))
                .append(q.where() == null ? "" : text("; the TTFT change is mostly " + q.where())).append("</p>\n");
        b.append("<table><thead><tr><th>latency</th><th class=\"n\">base p50</th><th class=\"n\">base p99</th>"
                + "<th class=\"n\">new p50</th><th class=\"n\">new p99</th><th class=\"n\">p50 change</th>"
                + "<th class=\"n\">p99 change</th></tr></thead><tbody>");
        for (DiffResult.LatencyChange l : q.latencies()) {
            b.append("<tr><td>").append(text(l.name())).append("</td><td class=\"n\">").append(text(duration(l.baseP50() * 1e9)))
                    .append("</td><td class=\"n\">").append(text(duration(l.baseP99() * 1e9))).append("</td><td class=\"n\">")
                    .append(text(duration(l.newP50() * 1e9))).append("</td><td class=\"n\">")
                    .append(text(duration(l.newP99() * 1e9))).append("</td><td class=\"n\">")
                    .append(text(relative(l.p50Change()))).append("</td><td class=\"n\">")
                    .append(text(relative(l.p99Change()))).append("</td></tr>");
        }
        b.append("</tbody></table>\n<table><thead><tr><th>GPU busy per request</th><th class=\"n\">base</th>"
                + "<th class=\"n\">new</th><th class=\"n\">change</th><th class=\"n\">").append(ci(r))
                .append("</th></tr></thead><tbody>");
        for (DiffResult.PhaseChange p : q.gpuPerRequest()) {
            DiffResult.Change c = p.change();
            b.append("<tr><td>").append(text(p.phase())).append("</td><td class=\"n\">").append(text(duration(c.base())))
                    .append("</td><td class=\"n\">").append(text(duration(c.next()))).append("</td><td class=\"n\">")
                    .append(text(signed(c.delta()))).append("</td><td class=\"n\">").append(text(interval(c)))
                    .append("</td></tr>");
        }
        b.append("</tbody></table></section>\n");
    }

    private static void metrics(StringBuilder b, DiffResult r) {
        if (r.metrics().isEmpty()) {
            return;
        }
        b.append("<section id=\"metrics\"><h2>Server metrics</h2>\n<table><thead><tr><th>metric</th><th class=\"n\">base"
                + "</th><th class=\"n\">new</th><th class=\"n\">relative</th></tr></thead><tbody>");
        for (DiffResult.MetricChange m : r.metrics()) {
            b.append("<tr><td>").append(text(m.name())).append("</td><td class=\"n\">")
                    .append(m.base() == null ? "-" : text(fmt("%.3g", m.base()))).append("</td><td class=\"n\">")
                    .append(m.next() == null ? "-" : text(fmt("%.3g", m.next()))).append("</td><td class=\"n\">")
                    .append(text(relative(m.relative()))).append("</td></tr>");
        }
        b.append("</tbody></table></section>\n");
    }

    // ---- numbers ----

    private static String ci(DiffResult r) {
        return fmt("%.0f%% CI", 100 * r.settings().ci());
    }

    private static String interval(DiffResult.Change c) {
        return c.ciLow() == null || c.ciHigh() == null ? "-" : "[" + signed(c.ciLow()) + ", " + signed(c.ciHigh()) + "]";
    }

    private static String relative(Double v) {
        return v == null ? "-" : fmt("%+.1f%%", 100 * v);
    }

    static String duration(double ns) {
        return ReportFormat.duration(Math.round(Math.abs(ns)));
    }

    static String signed(double ns) {
        return (ns < 0 ? "-" : "+") + duration(ns);
    }
}
