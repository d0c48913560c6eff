package dev.vprof.watch;

import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.diff.Categories;
import dev.vprof.names.KernelNames;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * GPU time as the kernels arrive, for the Prometheus endpoint and the OTLP push: busy ns per device
 * and kernel ns per category ({@link Categories#defaults()}, as {@code vprof diff} groups kernels).
 * Label sets stay bounded: devices are 0 to 63, categories a fixed list; no kernel's own name is
 * ever a label.
 *
 * <p>Busy time is the union of a device's kernel intervals in the order they arrive: a kernel adds
 * what of it lies past the latest end seen on its device. Kernels arrive in CUPTI buffer order,
 * roughly sorted; one that arrives wholly behind that end counts as overlapping (it adds nothing),
 * so a gap hidden that way is missed and the figure is an upper bound of idleness, a gauge to alert
 * on, not the report's exact busy time ({@code vprof report} of a dump gives that).
 *
 * <p>Written by the drain thread ({@link #kernel}), read from any thread.
 */
final class GpuTally implements RecordVisitor {
    static final int MAX_DEVICES = 64;

    private final Categories categories = Categories.defaults();
    private final KernelNames names = KernelNames.demangled();
    /** Raw kernel name to its category: one demangle and one rule search per distinct name. */
    private final Map<String, String> categoryOf = new HashMap<>();
    private final long[] frontier = new long[MAX_DEVICES];
    private final AtomicLongArray busyNs = new AtomicLongArray(MAX_DEVICES);
    private final AtomicLongArray seen = new AtomicLongArray(MAX_DEVICES);
    private final Map<String, LongAdder> categoryNs = new ConcurrentHashMap<>();
    private final LongAdder kernels = new LongAdder();

    @Override
    public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
        kernels.increment();
        long duration = Math.max(0, end - start);
        String category = categoryOf.get(name);
        if (category == null) {
            category = categoryOf.size() < 100_000 ? categories.of(names.show(name)) : Categories.OTHER;
            if (categoryOf.size() < 100_000) {
                categoryOf.put(name, category);
            }
        }
        categoryNs.computeIfAbsent(category, c -> new LongAdder()).add(duration);
        int device = desc == null ? -1 : desc.deviceId();
        if (device < 0 || device >= MAX_DEVICES) {
            return;
        }
        seen.set(device, 1);
        long from = Math.max(start, frontier[device]);
        if (end > from) {
            busyNs.addAndGet(device, end - from);
            frontier[device] = end;
        }
    }

    /** Busy ns per device that ran a kernel so far, by device id. */
    Map<Integer, Long> busyNs() {
        Map<Integer, Long> m = new TreeMap<>();
        for (int d = 0; d < MAX_DEVICES; d++) {
            if (seen.get(d) != 0) {
                m.put(d, busyNs.get(d));
            }
        }
        return m;
    }

    /** Kernel ns per category so far. */
    Map<String, Long> categoryNs() {
        Map<String, Long> m = new TreeMap<>();
        categoryNs.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    long kernels() {
        return kernels.sum();
    }
}
