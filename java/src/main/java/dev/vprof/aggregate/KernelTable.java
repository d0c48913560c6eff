package dev.vprof.aggregate;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Per kernel name: count, total, mean, quantiles and distribution ({@link KernelStats}), in memory
 * bounded by the names (each distribution bounded, all of them together by one {@link SampleBudget}),
 * never by the kernels. Names are the file's; how they are shown is for the reader of the table.
 */
public final class KernelTable {
    private final SampleBudget budget;
    private final Map<String, KernelStats> byName = new HashMap<>();

    public KernelTable(SampleBudget budget) {
        this.budget = budget;
    }

    public void add(String name, long durationNs) {
        KernelStats s = byName.get(name);
        if (s == null) {
            s = new KernelStats(name);
            byName.put(name, s);
        }
        s.add(durationNs, budget);
    }

    public void add(Kernel k) {
        add(k.name(), k.durationNs());
    }

    /** Every name's figures, in no order. */
    public Collection<KernelStats> all() {
        return Collections.unmodifiableCollection(byName.values());
    }

    /** The figures of the name {@code name} (as the file holds it), or null. */
    public KernelStats get(String name) {
        return byName.get(name);
    }

    public int names() {
        return byName.size();
    }
}
