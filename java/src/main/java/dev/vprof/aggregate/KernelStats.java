package dev.vprof.aggregate;

/** Count, total, extremes and distribution of one kernel name's durations. */
public final class KernelStats {
    private final String name;
    private long count;
    private long totalNs;
    private long minNs = Long.MAX_VALUE;
    private long maxNs;
    private final Durations durations = new Durations();

    public KernelStats(String name) {
        this.name = name;
    }

    public void add(long durationNs, SampleBudget budget) {
        count++;
        totalNs += durationNs;
        minNs = Math.min(minNs, durationNs);
        maxNs = Math.max(maxNs, durationNs);
        durations.add(durationNs, budget);
    }

    /** The name as the file holds it (mangled, for a CUPTI capture). */
    public String name() {
        return name;
    }

    public long count() {
        return count;
    }

    public long totalNs() {
        return totalNs;
    }

    /** The shortest duration; 0 when empty. */
    public long minNs() {
        return count == 0 ? 0 : minNs;
    }

    public long maxNs() {
        return maxNs;
    }

    public long meanNs() {
        return count == 0 ? 0 : totalNs / count;
    }

    /** Whether the percentiles are exact (every duration kept). */
    public boolean exact() {
        return durations.exact();
    }

    /** The percentile, kept inside [min, max] since a histogram bucket's middle may lie outside. */
    public long percentile(double p) {
        if (count == 0) {
            return 0;
        }
        return Math.clamp(durations.percentile(p), minNs, maxNs);
    }
}
