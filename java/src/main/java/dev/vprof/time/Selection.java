package dev.vprof.time;

import dev.vprof.time.CaptureWindow;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A part of one capture that an analysis reads: all of it, a window of time from the capture's
 * start ({@code A..B}), or a set of requests (the slowest P % by end-to-end latency, or the rest).
 * Offsets are from the start of the capture's {@link CaptureWindow}, so that a user reads them off
 * a report or a timeline. {@code vprof diff} compares two selections; the report can narrow to one
 * with the same piece.
 *
 * @param kind     {@link Kind}
 * @param fromNs   for {@link Kind#WINDOW}: the window's start, ns after the capture's start
 * @param toNs     its end (exclusive); {@link Long#MAX_VALUE} for "to the end"
 * @param percent  for {@link Kind#SLOWEST} and {@link Kind#REST}: P, 0 &lt; P &lt; 100
 */
public record Selection(Kind kind, long fromNs, long toNs, double percent) {
    public enum Kind { ALL, WINDOW, SLOWEST, REST }

    public static final Selection ALL = new Selection(Kind.ALL, 0, Long.MAX_VALUE, 0);

    public Selection {
        if (kind == Kind.WINDOW && (fromNs < 0 || toNs <= fromNs)) {
            throw new IllegalArgumentException("a window ends after it starts, from 0 on, not " + fromNs + ".." + toNs);
        }
        if ((kind == Kind.SLOWEST || kind == Kind.REST) && !(percent > 0 && percent < 100)) {
            throw new IllegalArgumentException("the slowest requests are a percentage above 0 and below 100, not "
                    + percent);
        }
    }

    public static Selection window(long fromNs, long toNs) {
        return new Selection(Kind.WINDOW, fromNs, toNs, 0);
    }

    public static Selection slowest(double percent) {
        return new Selection(Kind.SLOWEST, 0, Long.MAX_VALUE, percent);
    }

    public static Selection rest(double percent) {
        return new Selection(Kind.REST, 0, Long.MAX_VALUE, percent);
    }

    /** Whether requests pick the part (then kernels belong to it when they run during one of its requests). */
    public boolean byRequests() {
        return kind == Kind.SLOWEST || kind == Kind.REST;
    }

    /**
     * A window selection placed on the capture: [capture start + from, capture start + to) in epoch
     * ns, never past the capture's end ("to the end" takes its last ns). The one rule by which
     * {@code vprof report --window}, {@code vprof diff --split-at} and the diff's windows cut a file,
     * so a kernel on an edge falls on the same side in each; the window's {@link CaptureWindow#holds}
     * says which GPU work starts in it. IllegalArgumentException when the window starts after the
     * capture ends.
     */
    public CaptureWindow within(CaptureWindow capture) {
        if (kind != Kind.WINDOW) {
            throw new IllegalStateException(describe() + " is not a window of time");
        }
        long end = capture.endNs() + 1;
        long from = capture.startNs() + fromNs;
        long to = toNs == Long.MAX_VALUE ? end : Math.min(end, capture.startNs() + toNs);
        if (from >= to) {
            throw new IllegalArgumentException("starts after the capture ends (it is "
                    + String.format(Locale.ROOT, "%.3f", capture.durationNs() / 1e9) + " s long)");
        }
        return new CaptureWindow(from, to, "window");
    }

    /**
     * For a request selection, which of the requests (their end-to-end latencies, in any order)
     * belong to it: the ceil(P % of n) slowest, ties broken by position, or all the others.
     */
    public boolean[] pick(long[] e2eNs) {
        int n = e2eNs.length;
        boolean[] in = new boolean[n];
        if (!byRequests()) {
            Arrays.fill(in, true);
            return in;
        }
        int slow = (int) Math.min(n, Math.ceil(percent / 100.0 * n - 1e-9));
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> e2eNs[i]).reversed().thenComparingInt(i -> i));
        for (int i = 0; i < n; i++) {
            in[order[i]] = (i < slow) == (kind == Kind.SLOWEST);
        }
        return in;
    }

    /** As the user wrote it: {@code all}, {@code 0s..12.5s}, {@code slowest 10 %}, {@code all but the slowest 10 %}. */
    public String describe() {
        return switch (kind) {
            case ALL -> "all";
            case WINDOW -> seconds(fromNs) + ".." + (toNs == Long.MAX_VALUE ? "end" : seconds(toNs));
            case SLOWEST -> "the slowest " + pct(percent) + " % of requests";
            case REST -> "all but the slowest " + pct(percent) + " % of requests";
        };
    }

    /** The two parts {@code --split-at T} compares: before T, and from T to the end. */
    public static List<Selection> splitAt(long atNs) {
        if (atNs <= 0) {
            throw new IllegalArgumentException("--split-at must be after the capture's start");
        }
        return List.of(window(0, atNs), window(atNs, Long.MAX_VALUE));
    }

    /** {@code --split-at T}: T a duration from the capture's start ({@link DurationText}). */
    public static List<Selection> parseSplitAt(String option, String text) {
        return splitAt(DurationText.ns(option, text));
    }

    /**
     * {@code A..B}: durations from the capture's start ({@link DurationText}); A may be empty or 0
     * for the start, B empty for "to the end". IllegalArgumentException with a sentence naming
     * {@code option}.
     */
    public static Selection parseWindow(String option, String text) {
        int dots = text.indexOf("..");
        if (dots < 0) {
            throw new IllegalArgumentException(option + " '" + text + "' is not A..B; write it like 0s..10s or 20s..");
        }
        String a = text.substring(0, dots).strip(), b = text.substring(dots + 2).strip();
        long from = a.isEmpty() || a.matches("0*\\.?0*(ns|us|ms|s|m|h)?") ? 0 : DurationText.ns(option, a);
        long to = b.isEmpty() ? Long.MAX_VALUE : DurationText.ns(option, b);
        if (to <= from) {
            throw new IllegalArgumentException(option + " '" + text + "' ends before it starts; write A..B with A before B");
        }
        return window(from, to);
    }

    private static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.3fs", ns / 1e9).replaceAll("\\.?0+s$", "s");
    }

    private static String pct(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }
}
