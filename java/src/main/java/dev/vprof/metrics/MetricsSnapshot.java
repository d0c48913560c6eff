package dev.vprof.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The families read from one scrape, stamped with the epoch time of the scrape, with a lookup
 * by sample name (built on first use; a snapshot is immutable otherwise and may be shared).
 */
public final class MetricsSnapshot {
    private final long epochNs;
    private final List<MetricFamily> families;
    private volatile Map<String, List<Sample>> bySampleName;
    private volatile Map<String, MetricFamily> familyOfSample;

    public MetricsSnapshot(long epochNs, List<MetricFamily> families) {
        this.epochNs = epochNs;
        this.families = List.copyOf(families);
    }

    /** Epoch nanoseconds at which the scrape was sent. */
    public long epochNs() {
        return epochNs;
    }

    public List<MetricFamily> families() {
        return families;
    }

    /** The samples with this exact name ({@code vllm:prompt_tokens_total}); empty if none. */
    public List<Sample> samples(String sampleName) {
        Map<String, List<Sample>> index = bySampleName;
        if (index == null) {
            buildIndex();
            index = bySampleName;
        }
        return index.getOrDefault(sampleName, List.of());
    }

    /** The family that holds samples named {@code sampleName}, or null. */
    public MetricFamily familyOfSample(String sampleName) {
        Map<String, MetricFamily> index = familyOfSample;
        if (index == null) {
            buildIndex();
            index = familyOfSample;
        }
        return index.get(sampleName);
    }

    /** Whether any sample has this name. */
    public boolean has(String sampleName) {
        return !samples(sampleName).isEmpty();
    }

    private synchronized void buildIndex() {
        if (bySampleName != null) {
            return;
        }
        Map<String, List<Sample>> index = new HashMap<>();
        Map<String, MetricFamily> owners = new HashMap<>();
        for (MetricFamily f : families) {
            for (Sample s : f.samples()) {
                index.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(s);
                owners.putIfAbsent(s.name(), f);
            }
        }
        familyOfSample = owners;
        bySampleName = index;
    }
}
