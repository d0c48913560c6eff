package dev.vprof.analysis;

import dev.vprof.adapt.ApiNames;
import dev.vprof.aggregate.Kernel;
import dev.vprof.aggregate.SampleBudget;
import dev.vprof.aggregate.Sink;
import dev.vprof.capture.ApiEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The launch queue per stream: how long each kernel waited from the start of the call that launched
 * it (a call whose name holds {@code Launch}, joined on the process and correlation id, as nsys
 * joins them) to its own start, as a
 * distribution per process, device and stream. Where the file holds no launch calls there is
 * nothing to join and no row. Either may come first in the file (a trace's records come by kind).
 * Bounded: at most {@value #MAX_PENDING} launch calls wait for their
 * kernel at once, and as many kernels for their call (the rest are counted in {@link #unjoined()}); a kernel whose call came later in the
 * file, or never, is counted there too.
 */
public final class LaunchQueue implements Sink {
    static final int MAX_PENDING = 1 << 18;

    /** One stream's delays, ns. */
    public record Row(int pid, int device, int stream, SummaryStats delays) {}

    private record Key(int pid, int device, int stream) {}

    private final SampleBudget budget = new SampleBudget(SampleBudget.DEFAULT_SAMPLES);
    private final Map<Long, Long> pending = new HashMap<>();
    /** Kernels that came before their launch call in the file (a trace's records come by kind): start, device, stream. */
    private final Map<Long, long[]> early = new HashMap<>();
    private final Map<Key, SummaryStats> streams = new LinkedHashMap<>();
    private long unjoined;

    private static long key(int pid, int correlationId) {
        return ((long) pid << 32) | (correlationId & 0xFFFFFFFFL);
    }

    @Override
    public void api(int pid, ApiEvent a) {
        if (a.correlationId() == 0 || !ApiNames.name(a).contains("Launch")) {
            return; // only launch calls start GPU work that waits in a stream's queue
        }
        long key = key(pid, a.correlationId());
        long[] k = early.remove(key);
        if (k != null) {
            delay(pid, (int) k[1], (int) k[2], k[0] - a.start());
        } else if (pending.size() < MAX_PENDING) {
            pending.put(key, a.start());
        } else {
            unjoined++;
        }
    }

    @Override
    public void kernel(Kernel k) {
        long key = key(k.pid(), k.correlationId());
        // A graph's kernels share their launch's id: it stays for the next of them.
        Long launched = k.correlationId() == 0 ? null : k.fromGraph() ? pending.get(key) : pending.remove(key);
        int stream = k.desc() == null ? -1 : k.desc().streamId();
        if (launched == null) {
            if (k.correlationId() != 0 && !k.fromGraph() && early.size() < MAX_PENDING) {
                early.put(key, new long[] {k.startNs(), k.device(), stream});
            } else {
                unjoined++;
            }
            return;
        }
        delay(k.pid(), k.device(), stream, k.startNs() - launched);
    }

    private void delay(int pid, int device, int stream, long ns) {
        streams.computeIfAbsent(new Key(pid, device, stream), x -> new SummaryStats()).add(Math.max(0, ns), budget);
    }

    /** Kernels whose launch call was not held (or came after them in the file), and calls past the bound. */
    public long unjoined() {
        return unjoined + early.size();
    }

    /** Per stream, in order of first kernel. */
    public List<Row> rows() {
        List<Row> out = new ArrayList<>();
        streams.forEach((k, s) -> out.add(new Row(k.pid, k.device, k.stream, s)));
        return out;
    }
}
