package dev.vprof.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TrackQueueTest {

    @Test
    void opsLeaveInSliceOrderWhateverOrderTheyCameIn() {
        Random random = new Random(7);
        TrackQueue q = new TrackQueue();
        List<long[]> added = new ArrayList<>(); // start, end, seq, correlation
        GpuOp op = new GpuOp();
        long t = 1_000;
        for (int i = 0; i < 5_000; i++) {
            // Mostly in order; every few a straggler from up to 2 us back; some ties in start.
            long start = random.nextInt(8) == 0 ? t - random.nextInt(2_000) : (t += random.nextInt(3) == 0 ? 0 : 50);
            long end = start + random.nextInt(100);
            q.add(op.kernel(i & 7, start, end, i + 1, 1, 1, 1, 1, 1, 1, 0, 0), i);
            added.add(new long[] {start, end, i, i + 1});
        }
        added.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> -a[1]).thenComparingLong(a -> a[2]));
        assertEquals(5_000, q.size());
        for (long[] want : added) {
            GpuOp got = q.takeGpuOp(new GpuOp());
            assertEquals(want[0], got.start());
            assertEquals(want[1], got.end());
            assertEquals(want[3], got.correlationId(), "ties leave in the order they came");
        }
        assertTrue(q.isEmpty());
    }

    @Test
    void aRangeStartLeavesBeforeAnEndAtTheSameTime() throws Exception {
        TrackQueue q = new TrackQueue();
        q.addRange(TrackQueue.RANGE_END, 10, 1, 0, 0, 0, 0);
        q.addRange(TrackQueue.RANGE_START, 10, 2, 5, 0, 0, 1);
        List<String> out = new ArrayList<>();
        while (!q.isEmpty()) {
            q.takeRange((type, ts, serial, name, domain, arrival) -> out.add(type + ":" + serial));
        }
        assertEquals(List.of("0:2", "1:1"), out);
    }

    @Test
    void apiCallsKeepKindNameCorrelationAndCallbackId() {
        TrackQueue q = new TrackQueue();
        q.add(new ApiCall().set(ApiKind.DRIVER, 42, 5, 9, 0xffff_fff0L, 211), 0);
        ApiCall c = q.takeApiCall(new ApiCall());
        assertEquals(ApiKind.DRIVER, c.kind());
        assertEquals(42, c.nameId());
        assertEquals(5, c.start());
        assertEquals(9, c.end());
        assertEquals(0xffff_fff0L, c.correlationId());
        assertEquals(211, c.callbackId());
    }
}
