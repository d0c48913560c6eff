package dev.vprof.timeline;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Turns one thread's NVTX ranges, seen as starts and ends in time order, into begin and end events
 * that nest, as a format of nested slices (Perfetto's begin/end track events) needs, without
 * holding the ranges: a range begins when its start is seen, even if its end comes much later
 * (a range around the whole capture holds nothing back).
 *
 * <p>The result is the one that sorting the complete ranges by start (ties: the longer first, then
 * in the order they were recorded) and pushing them on a stack would give: a range ends when its
 * end comes or when the range around it ends, whichever is first; one cut short that way is
 * <em>clamped</em>. Only ranges that start at the same nanosecond need their ends to be ordered:
 * such a group waits (with the thread's later events) until every member's end is known, which
 * holds back only that thread, and only while the group's ranges are open.
 *
 * <p>Feed {@link #start} and {@link #end} in non-decreasing time, a range's start before its end;
 * every started range must be ended (the walk ends ranges the capture left open).
 */
public final class RangeNesting {
    private static final long UNKNOWN = Long.MAX_VALUE;

    private final CpuThread thread;
    private final TimelineVisitor out;

    // Ranges that start at groupTs and have not begun: their order waits on their ends.
    private long groupTs = Long.MIN_VALUE;
    private int groupSize;
    private long[] gSerial = new long[4];
    private int[] gName = new int[4];
    private int[] gDomain = new int[4];
    private long[] gEnd = new long[4];
    private long[] gArrival = new long[4];
    private boolean blocked;
    private final ArrayDeque<long[]> deferred = new ArrayDeque<>();

    // Open ranges, innermost last: serial, effective end (own end clamped to the parent's), own end,
    // and whether it was already counted as clamped (once per range).
    private int depth;
    private long[] sSerial = new long[16];
    private long[] sEff = new long[16];
    private long[] sOwn = new long[16];
    private boolean[] sClamped = new boolean[16];

    /** Ranges ended early by their parent whose own end was not yet known: serial to that end. */
    private final Map<Long, Long> forced = new HashMap<>();
    private long lastTs = Long.MIN_VALUE;

    public RangeNesting(CpuThread thread, TimelineVisitor out) {
        this.thread = thread;
        this.out = out;
    }

    /** The range {@code serial} (unique on this thread) starts at {@code ts}. */
    public void start(long serial, long ts, int nameId, int domainId) throws IOException {
        long[] ev = {0, serial, ts, nameId, domainId};
        if (blocked || !apply(ev)) {
            deferred.add(ev);
        }
    }

    /**
     * The range {@code serial} ends at {@code ts} (not before its start); {@code arrival} orders
     * ranges that start and end alike (the order they were recorded in).
     */
    public void end(long serial, long ts, long arrival) throws IOException {
        long[] ev = {1, serial, ts, arrival, 0};
        if (!blocked) {
            if (!apply(ev)) {
                deferred.add(ev);
            }
            return;
        }
        int member = groupMember(serial);
        if (member < 0) {
            deferred.add(ev);
            return;
        }
        gEnd[member] = ts; // the end the waiting group needed?
        gArrival[member] = arrival;
        if (groupEndsKnown()) {
            blocked = false;
            beginGroup();
            replay();
        }
    }

    /** Applies an event when nothing waits; false when it must wait behind a group (nothing done). */
    private boolean apply(long[] ev) throws IOException {
        long serial = ev[1];
        long ts = ev[2];
        int member = ev[0] == 1 ? groupMember(serial) : -1;
        if (member >= 0) { // it has not begun: its end orders the group
            gEnd[member] = ts;
            gArrival[member] = ev[3];
            advance(ts);
            if (!blocked) {
                closeUntil(ts);
            }
            return true;
        }
        advance(ts);
        if (blocked) {
            return false;
        }
        closeUntil(ts);
        if (ev[0] == 0) {
            addToGroup(serial, ts, (int) ev[3], (int) ev[4]);
        } else {
            close(serial, ts);
        }
        return true;
    }

    private void addToGroup(long serial, long ts, int nameId, int domainId) {
        if (groupSize == gSerial.length) {
            int n = groupSize * 2;
            gSerial = Arrays.copyOf(gSerial, n);
            gName = Arrays.copyOf(gName, n);
            gDomain = Arrays.copyOf(gDomain, n);
            gEnd = Arrays.copyOf(gEnd, n);
            gArrival = Arrays.copyOf(gArrival, n);
        }
        groupTs = ts;
        gSerial[groupSize] = serial;
        gName[groupSize] = nameId;
        gDomain[groupSize] = domainId;
        gEnd[groupSize] = UNKNOWN;
        gArrival[groupSize] = Long.MAX_VALUE;
        groupSize++;
    }

    /** The range {@code serial} ends at {@code ts}: with it, every range open inside it. */
    private void close(long serial, long ts) throws IOException {
        for (int i = depth - 1; i >= 0; i--) {
            if (sSerial[i] != serial) {
                continue;
            }
            while (depth > i + 1) { // open ranges inside this one end with it
                int top = depth - 1;
                if (sOwn[top] == UNKNOWN) {
                    forced.put(sSerial[top], ts);
                } else if (!sClamped[top]) {
                    out.rangeClamped(thread); // its own end is later: it outlived this one
                }
                pop(ts);
            }
            pop(ts);
            return;
        }
        Long cut = forced.remove(serial);
        if (cut != null && ts > cut) {
            out.rangeClamped(thread);
        }
    }

    /** Ends every open range at its end (call once every range has been started and ended). */
    public void finish() throws IOException {
        replay();
        while (!deferred.isEmpty()) { // a group waits on a range never ended: it goes first, as the longest
            blocked = false;
            beginGroup();
            replay();
        }
        if (groupSize > 0) {
            beginGroup();
        }
        while (depth > 0) {
            long eff = sEff[depth - 1];
            pop(eff == UNKNOWN ? lastTs : eff);
        }
    }

    /** Begins the pending group once time moves past it (or holds, when its order is unknown). */
    private void advance(long ts) throws IOException {
        if (groupSize > 0 && ts > groupTs) {
            if (groupSize > 1 && !groupEndsKnown()) {
                blocked = true;
                return;
            }
            beginGroup();
        }
    }

    private boolean groupEndsKnown() {
        for (int i = 0; i < groupSize; i++) {
            if (gEnd[i] == UNKNOWN) {
                return false;
            }
        }
        return true;
    }

    private int groupMember(long serial) {
        for (int i = 0; i < groupSize; i++) {
            if (gSerial[i] == serial) {
                return i;
            }
        }
        return -1;
    }

    private void beginGroup() throws IOException {
        Integer[] order = new Integer[groupSize];
        for (int i = 0; i < groupSize; i++) {
            order[i] = i;
        }
        if (groupSize > 1) {
            // Longer first (the outer one), then in the order they were recorded.
            Arrays.sort(order, (a, b) -> gEnd[a] != gEnd[b] ? Long.compare(gEnd[b], gEnd[a])
                    : Long.compare(gArrival[a], gArrival[b]));
        }
        int n = groupSize;
        groupSize = 0;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            closeUntil(groupTs);
            long own = gEnd[i];
            long eff = own;
            boolean clamped = false;
            if (depth > 0 && eff > sEff[depth - 1]) {
                if (own != UNKNOWN) {
                    out.rangeClamped(thread);
                    clamped = true;
                }
                eff = sEff[depth - 1];
            }
            push(gSerial[i], eff, own, clamped);
            emitBegin(groupTs, gName[i], gDomain[i]);
        }
    }

    /**
     * Applies what waited behind a group, in order. When another group must wait, the ends it
     * needs may be among the events still waiting: those are taken out and recorded, as they would
     * have been had they come while it waited.
     */
    private void replay() throws IOException {
        while (!deferred.isEmpty()) {
            if (blocked) {
                for (Iterator<long[]> it = deferred.iterator(); it.hasNext(); ) {
                    long[] ev = it.next();
                    int member = ev[0] == 1 ? groupMember(ev[1]) : -1;
                    if (member >= 0) {
                        gEnd[member] = ev[2];
                        gArrival[member] = ev[3];
                        it.remove();
                    }
                }
                if (!groupEndsKnown()) {
                    return;
                }
                blocked = false;
                beginGroup();
                continue;
            }
            if (apply(deferred.peekFirst())) {
                deferred.pollFirst();
            }
        }
    }

    /** Ends the open ranges whose (effective) end is at or before {@code t}, innermost first. */
    private void closeUntil(long t) throws IOException {
        while (depth > 0 && sEff[depth - 1] <= t) {
            int top = depth - 1;
            if (sOwn[top] == UNKNOWN) {
                forced.put(sSerial[top], sEff[top]);
            }
            pop(sEff[top]);
        }
    }

    private void push(long serial, long eff, long own, boolean clamped) {
        if (depth == sSerial.length) {
            int n = depth * 2;
            sSerial = Arrays.copyOf(sSerial, n);
            sEff = Arrays.copyOf(sEff, n);
            sOwn = Arrays.copyOf(sOwn, n);
            sClamped = Arrays.copyOf(sClamped, n);
        }
        sSerial[depth] = serial;
        sEff[depth] = eff;
        sOwn[depth] = own;
        sClamped[depth] = clamped;
        depth++;
    }

    private void pop(long ts) throws IOException {
        depth--;
        lastTs = Math.max(lastTs, ts);
        out.rangeEnd(thread, ts);
    }

    private void emitBegin(long ts, int nameId, int domainId) throws IOException {
        lastTs = Math.max(lastTs, ts);
        out.rangeBegin(thread, ts, nameId, domainId);
    }
}
