package dev.vprof.engine;

import java.io.PrintWriter;
import java.util.List;

/**
 * The one live line on a terminal: processes, ranges, records/s, drops, ring fill. Redrawn in
 * place with a carriage return; only used when stderr is a terminal.
 */
final class Progress {
    /**
     * The rate is taken over this much of the recent past. Records arrive in bursts (each agent
     * hands over a CUPTI buffer every 150 ms to 1 s), so a rate over the last redraw alone swings
     * between 0 and twice the true rate.
     */
    static final long RATE_WINDOW_NS = 5_000_000_000L;
    private static final int SAMPLES = 64;

    private final PrintWriter err;
    /** (time, records) of recent redraws, a ring: enough for RATE_WINDOW_NS at two redraws a second. */
    private final long[] sampleNanos = new long[SAMPLES];
    private final long[] sampleRecords = new long[SAMPLES];
    private int samples;
    private int next;
    private int lastWidth;

    Progress(PrintWriter err) {
        this.err = err;
    }

    /** The periodic line when stderr is not a terminal (a log file): no rate, no redraw. */
    static String logLine(long elapsedNs, List<Attached> attached, long bytes, CaptureFeeds.Counts feeds) {
        long records = 0, drops = 0;
        int processes = 0;
        for (Attached a : attached) {
            records += a.reader.records();
            if (!a.finished) {
                processes++;
                a.last = RegionCounters.read(a.region);
            }
            var d = a.delta();
            drops += d.ringDrops() + d.cuptiDrops();
        }
        return "vprof: capturing for " + CaptureEnd.seconds(elapsedNs) + ": " + processes + " process"
                + (processes == 1 ? "" : "es") + ", " + records + " records, " + drops + " drops, "
                + WriteFailure.bytes(bytes) + " written" + feedsPart(feeds);
    }

    /** ", 12 scrapes (1 gap), 100 spans" for the feeds that ran; empty when none did. */
    static String feedsPart(CaptureFeeds.Counts f) {
        if (f == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        if (f.scrapes() + f.gaps() > 0) {
            sb.append(", ").append(f.scrapes()).append(" scrapes (").append(f.gaps()).append(f.gaps() == 1 ? " gap)" : " gaps)");
        }
        long spans = f.spansReceived() + f.spansImported();
        if (spans > 0) {
            sb.append(", ").append(spans).append(" spans");
        }
        return sb.toString();
    }

    void show(List<Attached> attached) {
        show(attached, -1, null);
    }

    /** The live line; {@code bytes} written so far (-1: not shown) and the feeds' counts (null: none). */
    void show(List<Attached> attached, long bytes, CaptureFeeds.Counts feeds) {
        long records = 0, ranges = 0, drops = 0;
        int processes = 0, fill = 0;
        for (Attached a : attached) {
            records += a.reader.records();
            ranges += a.reader.rangesBegun();
            if (!a.finished) {
                processes++;
                fill = Math.max(fill, a.reader.fillPercent());
                a.last = RegionCounters.read(a.region);
            }
            var d = a.delta();
            drops += d.ringDrops() + d.cuptiDrops();
        }
        double rate = rate(records, System.nanoTime());
        String line = String.format("vprof: %d process%s | %d range%s | %s records/s | %d drops%s | ring %d%%",
                processes, processes == 1 ? "" : "es", ranges, ranges == 1 ? "" : "s", human(rate), drops,
                drops > 0 ? " (!)" : "", fill)
                + (bytes >= 0 ? " | " + WriteFailure.bytes(bytes) : "") + feedsPart(feeds).replace(", ", " | ");
        int pad = Math.max(0, lastWidth - line.length());
        err.print("\r" + line + " ".repeat(pad));
        err.flush();
        lastWidth = line.length();
    }

    /**
     * Records per second over the last {@link #RATE_WINDOW_NS} (less at the start), given the
     * records drained so far at {@code nowNs}.
     */
    double rate(long records, long nowNs) {
        sampleNanos[next] = nowNs;
        sampleRecords[next] = records;
        next = (next + 1) % SAMPLES;
        samples = Math.min(samples + 1, SAMPLES);
        int oldest = (next - samples + SAMPLES) % SAMPLES;
        // The oldest sample still inside the window (the newest is the one just added).
        for (int k = 0; k < samples - 1 && nowNs - sampleNanos[oldest] > RATE_WINDOW_NS; k++) {
            oldest = (oldest + 1) % SAMPLES;
        }
        long dt = nowNs - sampleNanos[oldest];
        return dt <= 0 ? 0 : (records - sampleRecords[oldest]) * 1e9 / dt;
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
