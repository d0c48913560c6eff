package dev.vprof.merge;

import dev.vprof.capture.TimeSync;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One node's clock offset against the reference node, and how it was found.
 *
 * <p>From collectives: the k-th collective of a communicator ends at nearly the same instant on
 * every rank it joins (no rank's kernel can finish before the last rank's data has arrived), so
 * {@code other[k + shift] − reference[k]} is the clock offset plus a small, mostly positive,
 * noise. The shift (which collective of one capture is the first of the other: their ranges may
 * open a few collectives apart) is the one whose differences agree best, by median absolute
 * deviation; the offset is the median of those differences, and the residual is the spread of the
 * differences within 5 robust standard deviations of it (the others are counted as outliers).
 * Where no collective was matched, or the best fit's residual is above {@link #RESIDUAL_BOUND_NS},
 * the offset is 0 (the wall clocks are taken as they are) and the uncertainty is the two nodes'
 * NTP maximum errors added (adjtimex), or unbounded where either clock is not synchronised.
 *
 * @param method {@link #COLLECTIVES}, {@link #NTP_BOUND} or {@link #REFERENCE}
 * @param offsetNs how far this node's clock is ahead of the reference's (subtract it to align)
 * @param uncertaintyNs for collectives the residual's rms; for the NTP bound the summed maximum
 *        errors; -1 when unbounded
 * @param pairs collective ends matched (0 unless from collectives)
 * @param outliers matched ends left out of the residual
 * @param maxResidualNs the largest distance of a kept pair from the offset
 * @param shift the index shift chosen (other[k + shift] matched reference[k])
 * @param notes why the estimate may be weaker than its numbers say
 */
public record OffsetEstimate(String method, long offsetNs, long uncertaintyNs, int pairs, int outliers,
                             long maxResidualNs, int shift, List<String> notes) {
    public static final String COLLECTIVES = "collectives";
    public static final String NTP_BOUND = "ntp-bound";
    public static final String REFERENCE = "reference";

    /**
     * A fit whose residual (rms) is above this is not used: the ends of one collective on ranks it
     * joins agree within microseconds (the merge test on one machine measures 0.5 µs rms), so a
     * spread of more than 100 µs says the ends matched are not of the same collectives (another
     * run, another communicator, or an alignment that slipped), and the offset it gives means
     * nothing. docs/multinode.md says why this number.
     */
    public static final long RESIDUAL_BOUND_NS = 100_000;

    /** Fewer matched ends than this say too little. */
    static final int MIN_PAIRS = 8;
    /** How far apart two captures' first collectives may be, in collectives. */
    static final int MAX_SHIFT = 256;
    /** Pairs looked at per candidate shift (evenly spread), so a long capture is searched quickly. */
    private static final int SAMPLE = 4096;

    public OffsetEstimate {
        notes = List.copyOf(notes);
    }

    public static OffsetEstimate reference() {
        return new OffsetEstimate(REFERENCE, 0, 0, 0, 0, 0, 0, List.of());
    }

    /** Wall clocks taken as they are, within the nodes' NTP maximum errors (µs; -1: unsynchronised or unknown). */
    public static OffsetEstimate ntpBound(long referenceMaxErrorUs, long maxErrorUs, String why) {
        long bound = referenceMaxErrorUs < 0 || maxErrorUs < 0 ? -1 : (referenceMaxErrorUs + maxErrorUs) * 1000;
        return new OffsetEstimate(NTP_BOUND, 0, bound, 0, 0, 0, 0, List.of(why));
    }

    /**
     * The offset of {@code other}'s clock from {@code reference}'s, from the end times (epoch ns,
     * each ascending) of the same collectives on one rank of each; empty when fewer than
     * {@link #MIN_PAIRS} can be matched.
     */
    public static Optional<OffsetEstimate> fromCollectives(long[] reference, long[] other) {
        int n = reference.length, m = other.length;
        if (Math.min(n, m) < MIN_PAIRS) {
            return Optional.empty();
        }
        int minPairs = Math.max(MIN_PAIRS, Math.min(n, m) / 2);
        List<long[]> candidates = new ArrayList<>(); // {shift, mad, median}
        for (int shift = -Math.min(MAX_SHIFT, n - 1); shift <= Math.min(MAX_SHIFT, m - 1); shift++) {
            int lo = Math.max(0, -shift), hi = Math.min(n, m - shift); // reference indices [lo, hi)
            if (hi - lo < minPairs) {
                continue;
            }
            long[] d = differences(reference, other, shift, lo, hi, SAMPLE);
            long med = median(d);
            candidates.add(new long[] {shift, mad(d, med), med});
        }
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        candidates.sort((a, b) -> a[1] != b[1] ? Long.compare(a[1], b[1]) : Long.compare(Math.abs(a[0]), Math.abs(b[0])));
        long[] best = candidates.getFirst();
        List<String> notes = new ArrayList<>();
        // Strictly periodic collectives fit several shifts about as well: take the one nearest the wall clocks.
        List<long[]> close = candidates.stream().filter(c -> c[1] <= 2 * best[1] + 1000).toList();
        if (close.size() > 1) {
            long[] nearest = close.stream().min((a, b) -> Long.compare(Math.abs(a[2]), Math.abs(b[2]))).orElseThrow();
            notes.add(String.format(Locale.ROOT,
                    "%d alignments of the collectives fit about as well (the collectives are nearly periodic); the one "
                            + "nearest the wall clocks was taken", close.size()));
            return Optional.of(finish(reference, other, (int) nearest[0], notes));
        }
        return Optional.of(finish(reference, other, (int) best[0], notes));
    }

    private static OffsetEstimate finish(long[] reference, long[] other, int shift, List<String> notes) {
        int lo = Math.max(0, -shift), hi = Math.min(reference.length, other.length - shift);
        long[] d = differences(reference, other, shift, lo, hi, Integer.MAX_VALUE);
        long med = median(d);
        double sigma = 1.4826 * mad(d, med);
        double keep = Math.max(5 * sigma, 1000); // never tighter than 1 µs: timestamps are ns, clocks are not
        double sum = 0;
        int kept = 0;
        for (long x : d) {
            if (Math.abs(x - med) <= keep) {
                sum += x - med;
                kept++;
            }
        }
        long offset = med + Math.round(sum / kept);
        double sq = 0;
        long max = 0;
        for (long x : d) {
            if (Math.abs(x - med) <= keep) {
                sq += (double) (x - offset) * (x - offset);
                max = Math.max(max, Math.abs(x - offset));
            }
        }
        long rms = Math.round(Math.sqrt(sq / kept));
        return new OffsetEstimate(COLLECTIVES, offset, rms, d.length, d.length - kept, max, shift, notes);
    }

    private static long[] differences(long[] reference, long[] other, int shift, int lo, int hi, int limit) {
        int count = hi - lo;
        int step = Math.max(1, count / Math.max(1, limit));
        long[] d = new long[(count + step - 1) / step];
        int j = 0;
        for (int i = lo; i < hi && j < d.length; i += step) {
            d[j++] = other[i + shift] - reference[i];
        }
        return j == d.length ? d : Arrays.copyOf(d, j);
    }

    static long median(long[] values) {
        long[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : s[n / 2 - 1] + (s[n / 2] - s[n / 2 - 1]) / 2;
    }

    static long mad(long[] values, long median) {
        long[] dev = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            dev[i] = Math.abs(values[i] - median);
        }
        return median(dev);
    }

    /** Whether a fit from collectives is within {@link #RESIDUAL_BOUND_NS}, so its offset may be used. */
    public boolean withinResidualBound() {
        return method.equals(COLLECTIVES) && uncertaintyNs >= 0 && uncertaintyNs <= RESIDUAL_BOUND_NS;
    }

    /** One line: "+3.700 ms from 594 collective ends (residual 0.4 µs rms, max 1.2 µs, 0 outliers)". */
    public String describe() {
        String off = (offsetNs >= 0 ? "+" : "") + TimeSync.Units.ns(offsetNs);
        return switch (method) {
            case REFERENCE -> "the reference clock";
            case COLLECTIVES -> String.format(Locale.ROOT,
                    "%s from %d collective ends (residual %s rms, max %s, %d outliers, shift %d)", off, pairs,
                    TimeSync.Units.ns(uncertaintyNs), TimeSync.Units.ns(maxResidualNs), outliers, shift);
            default -> off + " (wall clocks taken as they are, NTP bound "
                    + (uncertaintyNs < 0 ? "unbounded" : "±" + TimeSync.Units.ns(uncertaintyNs)) + ")";
        };
    }
}
