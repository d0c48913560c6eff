package dev.vprof.engine;

import java.io.PrintWriter;
import java.util.List;

/**
 * The one live line on a terminal: processes, ranges, records/s, drops, ring fill. Redrawn in
 * place with a carriage return; only used when a console is attached.
 */
final class Progress {
    private final PrintWriter err;
    private long lastRecords;
    private long lastNanos = System.nanoTime();
    private int lastWidth;

    Progress(PrintWriter err) {
        this.err = err;
    }

    void show(List<Attached> attached) {
        long records = 0, ranges = 0, drops = 0;
        int processes = 0, fill = 0;
        for (Attached a : attached) {
            records += a.reader.records();
            ranges += a.reader.rangesBegun();
            if (!a.finished) {
                processes++;
                fill = Math.max(fill, a.reader.fillPercent());
                a.last = a.region.counters();
            }
            var d = a.delta();
            drops += d.ringDrops() + d.cuptiDrops();
        }
        long now = System.nanoTime();
        double rate = (records - lastRecords) * 1e9 / Math.max(1, now - lastNanos);
        lastRecords = records;
        lastNanos = now;
        String line = String.format("vprof: %d process%s | %d range%s | %s records/s | %d drops%s | ring %d%%",
                processes, processes == 1 ? "" : "es", ranges, ranges == 1 ? "" : "s", human(rate), drops,
                drops > 0 ? " (!)" : "", fill);
        int pad = Math.max(0, lastWidth - line.length());
        err.print("\r" + line + " ".repeat(pad));
        err.flush();
        lastWidth = line.length();
    }

    void clear() {
        if (lastWidth > 0) {
            err.print("\r" + " ".repeat(lastWidth) + "\r");
            err.flush();
            lastWidth = 0;
        }
    }

    private static String human(double v) {
        if (v >= 1e6) return String.format("%.1fM", v / 1e6);
        if (v >= 1e3) return String.format("%.1fk", v / 1e3);
        return String.format("%.0f", v);
    }
}
