package dev.vprof.export;

import static dev.vprof.export.PerfettoProto.CLOCK_BOOTTIME;
import static dev.vprof.export.PerfettoProto.CLOCK_ID;
import static dev.vprof.export.PerfettoProto.CLOCK_IS_INCREMENTAL;
import static dev.vprof.export.PerfettoProto.CLOCK_REALTIME;
import static dev.vprof.export.PerfettoProto.CLOCK_SEQUENCE_INCREMENTAL;
import static dev.vprof.export.PerfettoProto.CLOCK_TIMESTAMP;
import static dev.vprof.export.PerfettoProto.SNAPSHOT_CLOCKS;
import static dev.vprof.export.PerfettoProto.SNAPSHOT_PRIMARY_TRACE_CLOCK;

import dev.vprof.timeline.Timeline;
import dev.vprof.wire.WireWriter;
import java.util.OptionalLong;

/**
 * The clocks of a vprof Perfetto trace (clock_snapshot.proto), said as they are. Every time is
 * CLOCK_REALTIME (epoch ns, the timeline's one clock): each packet sequence's incremental clock
 * (id 64) is tied to REALTIME by its own snapshot. The first packet's snapshot adds, where the
 * source recorded the host's boot ({@link Timeline#bootOffsetNs()}), CLOCK_BOOTTIME at the same
 * instant and makes it the trace clock, as Perfetto's own traces of a Linux host have it, so a
 * vprof trace opened beside a system trace of the same host lines up on BOOTTIME. A source without
 * a boot time (a PyTorch trace, an older capture) gets no BOOTTIME at all: its trace clock is
 * REALTIME (docs/viewers.md).
 */
final class PerfettoClocks {
    private PerfettoClocks() {}

    /** BOOTTIME where the timeline knows the host's boot, else REALTIME. */
    static int traceClock(Timeline timeline) {
        return timeline.bootOffsetNs().isPresent() ? CLOCK_BOOTTIME : CLOCK_REALTIME;
    }

    /** The trace's snapshot at epoch time {@code base}: REALTIME, BOOTTIME where known, and the trace clock. */
    static WireWriter traceSnapshot(Timeline timeline, long base) {
        WireWriter snap = new WireWriter(48);
        snap.message(SNAPSHOT_CLOCKS, clock(CLOCK_REALTIME, base, false));
        OptionalLong boot = timeline.bootOffsetNs();
        if (boot.isPresent() && base - boot.getAsLong() >= 0) {
            snap.message(SNAPSHOT_CLOCKS, clock(CLOCK_BOOTTIME, base - boot.getAsLong(), false));
        }
        snap.uint(SNAPSHOT_PRIMARY_TRACE_CLOCK, traceClock(timeline));
        return snap;
    }

    /** A sequence's snapshot: its incremental clock starts at {@code base}, on REALTIME. */
    static WireWriter sequenceSnapshot(long base) {
        WireWriter snap = new WireWriter(32);
        snap.message(SNAPSHOT_CLOCKS, clock(CLOCK_SEQUENCE_INCREMENTAL, base, true));
        snap.message(SNAPSHOT_CLOCKS, clock(CLOCK_REALTIME, base, false));
        return snap;
    }

    /** A ClockSnapshot's clock: its id and reading (an incremental clock says so). */
    static WireWriter clock(int clockId, long timestamp, boolean incremental) {
        WireWriter clock = new WireWriter(16);
        clock.uint(CLOCK_ID, clockId);
        clock.uint(CLOCK_TIMESTAMP, timestamp);
        if (incremental) {
            clock.bool(CLOCK_IS_INCREMENTAL, true);
        }
        return clock;
    }
}
