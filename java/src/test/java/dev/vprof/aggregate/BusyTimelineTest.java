package dev.vprof.aggregate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Busy fraction per bin against every nanosecond marked by hand. */
class BusyTimelineTest {

    @Test
    void overlappingKernelsCountOnceInEachBin() {
        BusyTimeline t = new BusyTimeline(0, 100, 4); // bins of 25 ns
        t.add(0, 10);
        t.add(5, 20); // overlaps the first: 0..20 busy
        t.add(40, 60); // across bins 1 and 2
        t.add(99, 120); // 1 ns in, 20 after the end
        assertArrayEquals(new double[] {20 / 25.0, 10 / 25.0, 10 / 25.0, 1 / 25.0}, t.fractions(), 1e-12);
        assertEquals(20, t.outsideNs());
    }

    @Test
    void randomKernelsRoughlyInOrderMatchEveryNanosecondMarked() {
        Random rnd = new Random(18);
        long from = 1_000, to = 9_001; // 8001 ns in 37 bins: bins of unequal integer widths
        int bins = 37;
        boolean[] busy = new boolean[12_000];
        List<long[]> kernels = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            long s = rnd.nextInt(11_000);
            long e = s + rnd.nextInt(40);
            kernels.add(new long[] {s, e});
            for (long x = s; x < e; x++) {
                busy[(int) x] = true;
            }
        }
        kernels.sort((a, b) -> Long.compare(a[0], b[0]));
        // CUPTI's buffers arrive roughly in order: shuffle within runs of 50.
        for (int i = 0; i < kernels.size(); i += 50) {
            Collections.shuffle(kernels.subList(i, Math.min(kernels.size(), i + 50)), rnd);
        }
        BusyTimeline t = new BusyTimeline(from, to, bins);
        kernels.forEach(k -> t.add(k[0], k[1]));
        double[] f = t.fractions();
        long outside = 0;
        for (int x = 0; x < busy.length; x++) {
            if (busy[x] && (x < from || x >= to)) {
                outside++;
            }
        }
        assertEquals(outside, t.outsideNs());
        long width = to - from;
        for (int b = 0; b < bins; b++) {
            long lo = from + width * b / bins;
            long hi = from + width * (b + 1) / bins;
            long n = 0;
            for (long x = lo; x < hi; x++) {
                n += busy[(int) x] ? 1 : 0;
            }
            assertEquals((double) n / (hi - lo), f[b], 1e-12, "bin " + b + " [" + lo + ", " + hi + ")");
        }
    }
}
