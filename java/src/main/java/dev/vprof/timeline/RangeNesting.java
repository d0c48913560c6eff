package dev.vprof.timeline;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
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
    private static final Comparator<Range> LONGEST_FIRST =
            Comparator.comparingLong((Range r) -> -r.end).thenComparingLong(r -> r.arrival);

    /** A range seen started: its end (until known, UNKNOWN) and, once open, its effective end. */
    private static final class Range {
        final long serial;
        final int nameId;
        final int domainId;
        long end = UNKNOWN;
        long arrival = Long.MAX_VALUE;
        /** Its own end clamped to the end of the range around it. */
        long effectiveEnd;
        /** Counted as clamped already (a range counts once). */
        boolean clamped;

        Range(long serial, int nameId, int domainId) {
            this.serial = serial;
            this.nameId = nameId;
            this.domainId = domainId;
        }
    }

    /** A start or an end as fed, kept while a group waits. */
    private record Event(boolean isStart, long serial, long ts, int nameId, int domainId, long arrival) {}

    private final CpuThread thread;
    private final TimelineVisitor out;

    /** Ranges that start at groupTs and have not begun: their order waits on their ends. */
    private final List<Range> group = new ArrayList<>();
    private long groupTs = Long.MIN_VALUE;
    /** True while the group's order is unknown: later events wait in {@link #deferred}. */
    private boolean blocked;
    private final ArrayDeque<Event> deferred = new ArrayDeque<>();
    /** Open ranges, innermost last. */
    private final List<Range> open = new ArrayList<>();
    /** Ranges ended early by their parent whose own end was not yet known: serial to that end. */
    private final Map<Long, Long> forced = new HashMap<>();
    private long lastTs = Long.MIN_VALUE;

    public RangeNesting(CpuThread thread, TimelineVisitor out) {
        this.thread = thread;
        this.out = out;
    }

    /** The range {@code serial} (unique on this thread) starts at {@code ts}. */
    public void start(long serial, long ts, int nameId, int domainId) throws IOException {
        Event ev = new Event(true, serial, ts, nameId, domainId, 0);
        if (blocked || !apply(ev)) {
            deferred.add(ev);
        }
    }

    /**
     * The range {@code serial} ends at {@code ts} (not before its start); {@code arrival} orders
     * ranges that start and end alike (the order they were recorded in).
     */
    public void end(long serial, long ts, long arrival) throws IOException {
        Event ev = new Event(false, serial, ts, 0, 0, arrival);
        if (!blocked) {
            if (!apply(ev)) {
                deferred.add(ev);
            }
            return;
        }
        Range member = groupMember(serial);
        if (member == null) {
            deferred.add(ev);
            return;
        }
        member.end = ts; // an end the waiting group needed
        member.arrival = arrival;
        if (groupEndsKnown()) {
            blocked = false;
            beginGroup();
            replay();
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
        if (!group.isEmpty()) {
            beginGroup();
        }
        while (!open.isEmpty()) {
            long eff = open.getLast().effectiveEnd;
            pop(eff == UNKNOWN ? lastTs : eff);
        }
    }

    /** Applies an event when nothing waits; false when it must wait behind a group (nothing done). */
    private boolean apply(Event ev) throws IOException {
        Range member = ev.isStart() ? null : groupMember(ev.serial());
        if (member != null) { // it has not begun: its end orders the group
            member.end = ev.ts();
            member.arrival = ev.arrival();
            advance(ev.ts());
            if (!blocked) {
                closeUntil(ev.ts());
            }
            return true;
        }
        advance(ev.ts());
        if (blocked) {
            return false;
        }
        closeUntil(ev.ts());
        if (ev.isStart()) {
            groupTs = ev.ts();
            group.add(new Range(ev.serial(), ev.nameId(), ev.domainId()));
        } else {
            close(ev.serial(), ev.ts());
        }
        return true;
    }

    /** The range {@code serial} ends at {@code ts}: with it, every range open inside it. */
    private void close(long serial, long ts) throws IOException {
        for (int i = open.size() - 1; i >= 0; i--) {
            if (open.get(i).serial != serial) {
                continue;
            }
            while (open.size() > i + 1) { // open ranges inside this one end with it
                Range inner = open.getLast();
                if (inner.end == UNKNOWN) {
                    forced.put(inner.serial, ts);
                } else if (!inner.clamped) {
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

    /** Begins the pending group once time moves past it (or holds, when its order is unknown). */
    private void advance(long ts) throws IOException {
        if (!group.isEmpty() && ts > groupTs) {
            if (group.size() > 1 && !groupEndsKnown()) {
                blocked = true;
                return;
            }
            beginGroup();
        }
    }

    private boolean groupEndsKnown() {
        for (Range r : group) {
            if (r.end == UNKNOWN) {
                return false;
            }
        }
        return true;
    }

    private Range groupMember(long serial) {
        for (Range r : group) {
            if (r.serial == serial) {
                return r;
            }
        }
        return null;
    }

    private void beginGroup() throws IOException {
        List<Range> members = new ArrayList<>(group);
        group.clear();
        members.sort(LONGEST_FIRST); // the outer one first, then in the order they were recorded
        for (Range r : members) {
            closeUntil(groupTs);
            r.effectiveEnd = r.end;
            if (!open.isEmpty() && r.effectiveEnd > open.getLast().effectiveEnd) {
                if (r.end != UNKNOWN) {
                    out.rangeClamped(thread);
                    r.clamped = true;
                }
                r.effectiveEnd = open.getLast().effectiveEnd;
            }
            open.add(r);
            lastTs = Math.max(lastTs, groupTs);
            out.rangeBegin(thread, groupTs, r.nameId, r.domainId);
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
                for (Iterator<Event> it = deferred.iterator(); it.hasNext(); ) {
                    Event ev = it.next();
                    Range member = ev.isStart() ? null : groupMember(ev.serial());
                    if (member != null) {
                        member.end = ev.ts();
                        member.arrival = ev.arrival();
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
        while (!open.isEmpty() && open.getLast().effectiveEnd <= t) {
            Range r = open.getLast();
            if (r.end == UNKNOWN) {
                forced.put(r.serial, r.effectiveEnd);
            }
            pop(r.effectiveEnd);
        }
    }

    private void pop(long ts) throws IOException {
        open.removeLast();
        lastTs = Math.max(lastTs, ts);
        out.rangeEnd(thread, ts);
    }
}
