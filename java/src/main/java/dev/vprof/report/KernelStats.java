package dev.vprof.report;

/** Count, total, extremes and distribution of one kernel name's durations. */
final class KernelStats {
    final String name;
    long count;
    long totalNs;
    long minNs = Long.MAX_VALUE;
    long maxNs;
    final Durations durations = new Durations();

    KernelStats(String name) {
        this.name = name;
    }

    void add(long durationNs, SampleBudget budget) {
        count++;
        totalNs += durationNs;
        minNs = Math.min(minNs, durationNs);
        maxNs = Math.max(maxNs, durationNs);
        durations.add(durationNs, budget);
    }

    /** The percentile, kept inside [min, max] since a histogram bucket's middle may lie outside. */
    long percentile(double p) {
        if (count == 0) {
            return 0;
        }
        return Math.clamp(durations.percentile(p), minNs, maxNs);
    }
}
