package dev.vprof.timeline;

import java.io.IOException;

/** Walks for tests that only need a source to be walked whole (a fuzz test: nothing may throw). */
public final class Walks {
    private Walks() {}

    /** Walks {@code source} once, nested ranges too, and returns how many events it handed out. */
    public static long drain(TimelineSource source) throws IOException {
        long[] n = new long[1];
        source.walk(new TimelineVisitor() {
            @Override
            public void gpuOp(GpuStream stream, GpuOp op) {
                n[0]++;
            }

            @Override
            public void apiCall(CpuThread thread, ApiCall call) {
                n[0]++;
            }

            @Override
            public void range(CpuThread thread, int nameId, long startNs, long endNs, int domainId) {
                n[0]++;
            }

            @Override
            public boolean nestedRanges() {
                return true;
            }
        });
        return n[0];
    }
}
