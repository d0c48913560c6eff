package dev.vprof.timeline;

import dev.vprof.capture.EventArgs;
import java.io.IOException;

/**
 * The events of one track (a GPU stream, a thread's API calls or its NVTX ranges) read from a
 * capture but not yet handed out: they leave in order (time, then the longer slice first, or for a
 * range a start before an end, then the order they came in), and only when the caller knows no
 * earlier event can still come. That is a reorder window bounded by how far out of order the
 * track's records lie in the file, not by the capture's size.
 *
 * <p>Records of one track come nearly in order, so events go onto an ordered run in O(1); one that
 * comes earlier than the run's last goes onto a small heap, and the two are merged on the way out.
 * Columns, not objects: a held event costs 64 bytes, and a reference to the source's fields no
 * record holds ({@link SliceView#args()}) where a walk reads them.
 */
public final class TrackQueue {
    /** What a range event is: its start, or its end. */
    public static final int RANGE_START = 0;
    public static final int RANGE_END = 1;

    private final Columns run = new Columns(64);
    private final Columns late = new Columns(4);
    private int runHead;
    private int runSize;
    private int lateSize;
    private boolean fromRun;

    /** Adds a GPU op ({@code seq}: its place in the capture, for ties). */
    public void add(GpuOp op, long seq) {
        int i = claim(op.start(), -op.end(), seq);
        Columns c = target;
        c.i0[i] = op.nameAndKind();
        c.i1[i] = (int) op.correlationId();
        c.l0[i] = op.aux0();
        c.l1[i] = op.aux1();
        c.l2[i] = op.graphNodeId();
        c.x[i] = op.args();
        settle(i);
    }

    /** Adds an API call. */
    public void add(ApiCall call, long seq) {
        int i = claim(call.start(), -call.end(), seq);
        Columns c = target;
        c.i0[i] = call.nameId() << 2 | call.kind().ordinal();
        c.i1[i] = (int) call.correlationId();
        c.l0[i] = call.callbackId();
        c.x[i] = call.args();
        settle(i);
    }

    /** Adds a range's start or end ({@link #RANGE_START}, {@link #RANGE_END}). */
    public void addRange(int type, long ts, long serial, int nameId, int domainId, long arrival, long seq) {
        int i = claim(ts, type, seq);
        Columns c = target;
        c.i0[i] = nameId;
        c.i1[i] = domainId;
        c.l0[i] = serial;
        c.l1[i] = arrival;
        c.x[i] = null;
        settle(i);
    }

    public boolean isEmpty() {
        return runSize + lateSize == 0;
    }

    /** Events held. */
    public int size() {
        return runSize + lateSize;
    }

    /** The time of the next event to leave; only when not empty. */
    public long nextTime() {
        pickNext();
        return fromRun ? run.t[runHead] : late.t[0];
    }

    /** Takes the next GPU op out into {@code into}. */
    public GpuOp takeGpuOp(GpuOp into) {
        pickNext();
        Columns c = fromRun ? run : late;
        int i = fromRun ? runHead : 0;
        into.load(c.i0[i], c.t[i], -c.t2[i], c.i1[i], c.l0[i], c.l1[i]);
        into.graphNode(c.l2[i]).args(c.x[i]);
        remove();
        return into;
    }

    /** Takes the next API call out into {@code into}. */
    public ApiCall takeApiCall(ApiCall into) {
        pickNext();
        Columns c = fromRun ? run : late;
        int i = fromRun ? runHead : 0;
        into.set(ApiKind.of(c.i0[i] & 3), c.i0[i] >>> 2, c.t[i], -c.t2[i], Integer.toUnsignedLong(c.i1[i]), (int) c.l0[i])
                .args(c.x[i]);
        remove();
        return into;
    }

    /** Takes the next range event out, handing it to {@code to}. */
    public void takeRange(RangeEvent to) throws IOException {
        pickNext();
        Columns c = fromRun ? run : late;
        int i = fromRun ? runHead : 0;
        int type = (int) c.t2[i];
        long ts = c.t[i];
        long serial = c.l0[i];
        int nameId = c.i0[i];
        int domainId = c.i1[i];
        long arrival = c.l1[i];
        remove();
        to.event(type, ts, serial, nameId, domainId, arrival);
    }

    /** Receives a range event taken out of the queue. */
    public interface RangeEvent {
        void event(int type, long ts, long serial, int nameId, int domainId, long arrival) throws IOException;
    }

    // ---- storage ----

    /** Where the event being added goes: the run or the heap. */
    private Columns target;

    /** Claims a slot for an event with this key: at the run's end when in order, else in the heap. */
    private int claim(long t, long t2, long seq) {
        if (runSize == 0 || compare(run, last(), t, t2, seq) <= 0) {
            if (runSize == run.t.length) {
                run.grow(runHead, runSize);
                runHead = 0;
            }
            int i = (runHead + runSize) & (run.t.length - 1);
            runSize++;
            run.key(i, t, t2, seq);
            target = run;
            return i;
        }
        if (lateSize == late.t.length) {
            late.grow(0, lateSize);
        }
        int i = lateSize++;
        late.key(i, t, t2, seq);
        target = late;
        return i;
    }

    /** Puts an event that went to the heap in its place, once its payload is written. */
    private void settle(int i) {
        if (target == late) {
            siftUp(i);
        }
    }

    private int last() {
        return (runHead + runSize - 1) & (run.t.length - 1);
    }

    private void siftUp(int i) {
        Columns c = late;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (compare(c, parent, c.t[i], c.t2[i], c.seq[i]) <= 0) {
                return;
            }
            c.swap(i, parent);
            i = parent;
        }
    }

    private void pickNext() {
        if (lateSize == 0) {
            fromRun = true;
        } else if (runSize == 0) {
            fromRun = false;
        } else {
            fromRun = compare(late, 0, run.t[runHead], run.t2[runHead], run.seq[runHead]) > 0;
        }
    }

    private void remove() {
        if (fromRun) {
            run.x[runHead] = null; // let the fields go with the event
            runHead = (runHead + 1) & (run.t.length - 1);
            runSize--;
            return;
        }
        lateSize--;
        late.x[0] = null;
        if (lateSize > 0) {
            late.move(lateSize, 0);
            siftDown();
        }
    }

    private void siftDown() {
        Columns c = late;
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            if (l >= lateSize) {
                return;
            }
            int r = l + 1;
            int smallest = r < lateSize && compare(c, l, c.t[r], c.t2[r], c.seq[r]) > 0 ? r : l;
            if (compare(c, i, c.t[smallest], c.t2[smallest], c.seq[smallest]) <= 0) {
                return;
            }
            c.swap(i, smallest);
            i = smallest;
        }
    }

    /** Compares the event in slot {@code i} of {@code c} with the key (t, t2, seq). */
    private static int compare(Columns c, int i, long t, long t2, long seq) {
        int k = Long.compare(c.t[i], t);
        if (k != 0) {
            return k;
        }
        k = Long.compare(c.t2[i], t2);
        return k != 0 ? k : Long.compare(c.seq[i], seq);
    }

    /** One set of columns: the ordered run (a ring, capacity a power of two) or the heap. */
    private static final class Columns {
        long[] t;
        long[] t2;
        long[] seq;
        int[] i0;
        int[] i1;
        long[] l0;
        long[] l1;
        /** A GPU op's CUDA graph node id (0: none). */
        long[] l2;
        /** The source's fields no record holds (null: none). */
        EventArgs[] x;

        Columns(int capacity) {
            t = new long[capacity];
            t2 = new long[capacity];
            seq = new long[capacity];
            i0 = new int[capacity];
            i1 = new int[capacity];
            l0 = new long[capacity];
            l1 = new long[capacity];
            l2 = new long[capacity];
            x = new EventArgs[capacity];
        }

        void key(int i, long time, long time2, long sequence) {
            t[i] = time;
            t2[i] = time2;
            seq[i] = sequence;
        }

        /** Doubles the capacity, moving {@code size} slots from {@code head} (wrapping) to 0. */
        void grow(int head, int size) {
            int n = t.length;
            t = unwrap(t, head, size, n);
            t2 = unwrap(t2, head, size, n);
            seq = unwrap(seq, head, size, n);
            l0 = unwrap(l0, head, size, n);
            l1 = unwrap(l1, head, size, n);
            l2 = unwrap(l2, head, size, n);
            i0 = unwrap(i0, head, size, n);
            i1 = unwrap(i1, head, size, n);
            EventArgs[] nx = new EventArgs[n * 2];
            for (int k = 0; k < size; k++) {
                nx[k] = x[(head + k) & (n - 1)];
            }
            x = nx;
        }

        private static long[] unwrap(long[] a, int head, int size, int n) {
            long[] b = new long[n * 2];
            for (int k = 0; k < size; k++) {
                b[k] = a[(head + k) & (n - 1)];
            }
            return b;
        }

        private static int[] unwrap(int[] a, int head, int size, int n) {
            int[] b = new int[n * 2];
            for (int k = 0; k < size; k++) {
                b[k] = a[(head + k) & (n - 1)];
            }
            return b;
        }

        void move(int from, int to) {
            t[to] = t[from];
            t2[to] = t2[from];
            seq[to] = seq[from];
            i0[to] = i0[from];
            i1[to] = i1[from];
            l0[to] = l0[from];
            l1[to] = l1[from];
            l2[to] = l2[from];
            x[to] = x[from];
            x[from] = null;
        }

        void swap(int a, int b) {
            swap(t, a, b);
            swap(t2, a, b);
            swap(seq, a, b);
            swap(l0, a, b);
            swap(l1, a, b);
            swap(l2, a, b);
            swap(i0, a, b);
            swap(i1, a, b);
            EventArgs t = x[a];
            x[a] = x[b];
            x[b] = t;
        }

        private static void swap(long[] v, int a, int b) {
            long x = v[a];
            v[a] = v[b];
            v[b] = x;
        }

        private static void swap(int[] v, int a, int b) {
            int x = v[a];
            v[a] = v[b];
            v[b] = x;
        }
    }
}
