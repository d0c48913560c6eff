package dev.vprof.testing;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The agent's side of a region, in Java, for front-end tests: answers ARM and DISARM like the
 * control thread does, and on ARM publishes a RANGE begin, {@code kernels} KERNEL records and a
 * RANGE end, then (as capture-range-end=stop would) goes back to DORMANT by itself.
 */
public final class FakeAgent implements AutoCloseable {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final Arena arena = Arena.ofShared();
    private final MemorySegment control;
    private final TestProducer producer;
    private final Thread thread;
    private final int kernels;
    private volatile boolean stop;
    public volatile int armsSeen;
    public volatile int lastArmKinds;
    private volatile int rangesPublished;

    private final boolean stayArmed;
    private final boolean publishOnDisarm;

    /**
     * An agent that publishes its records only when DISARM comes, before it answers, as the real
     * agent's forced flush does; it waits for room in the ring, so the DISARM is answered only if
     * the front end drains while it waits for the answer.
     */
    public static FakeAgent flushingOnDisarm(Path region, int kernels) throws IOException {
        return new FakeAgent(region, kernels, true, true);
    }

    public FakeAgent(Path region, int kernels) throws IOException {
        this(region, kernels, false);
    }

    /** @param stayArmed keep CAPTURING after the records until DISARM (capture-range=none) */
    public FakeAgent(Path region, int kernels, boolean stayArmed) throws IOException {
        this(region, kernels, stayArmed, false);
    }

    private FakeAgent(Path region, int kernels, boolean stayArmed, boolean publishOnDisarm) throws IOException {
        this.kernels = kernels;
        this.stayArmed = stayArmed;
        this.publishOnDisarm = publishOnDisarm;
        try (FileChannel ch = FileChannel.open(region, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment whole = ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size(), arena);
            control = whole.asSlice(0, VprofRing.CONTROL_SIZE);
            producer = new TestProducer(control, whole.asSlice(VprofRing.CONTROL_SIZE));
        }
        thread = new Thread(this::serve, "fake-agent");
        thread.setDaemon(true);
        thread.start();
    }

    private void serve() {
        // Compare with the last ack, not with cmd_seq as found at thread start: a command may
        // already be waiting when this thread gets going.
        long acked = (long) LONG.getAcquire(control, Control.CMD_ACK);
        while (!stop) {
            long seq = (long) LONG.getAcquire(control, Control.CMD_SEQ);
            if (seq == acked) {
                Thread.onSpinWait();
                continue;
            }
            int cmd = control.get(ValueLayout.JAVA_INT, Control.CMD);
            control.set(ValueLayout.JAVA_INT, Control.CMD_RESULT, VprofRing.RESULT_OK);
            if (cmd == VprofRing.CMD_ARM) {
                armsSeen++;
                lastArmKinds = control.get(ValueLayout.JAVA_INT, Control.CMD_KINDS);
                INT.setRelease(control, Control.STATE, VprofRing.STATE_CAPTURING);
                LONG.setRelease(control, Control.CMD_ACK, seq);
                acked = seq;
                if (publishOnDisarm) {
                    continue;
                }
                publishRange();
                if (!stayArmed) {
                    INT.setRelease(control, Control.STATE, VprofRing.STATE_DORMANT);
                }
            } else {
                if (publishOnDisarm) {
                    publishRange();
                }
                INT.setRelease(control, Control.STATE, VprofRing.STATE_DORMANT);
                LONG.setRelease(control, Control.CMD_ACK, seq);
                acked = seq;
            }
        }
    }

    private void publishRange() {
        write(VprofRing.REC_RANGE, 64, VprofRing.RANGE_BEGIN);
        for (int i = 0; i < kernels; i++) {
            write(VprofRing.REC_KERNEL, 32, i);
        }
        write(VprofRing.REC_RANGE, 64, VprofRing.RANGE_END);
        LONG.getAndAdd(control, Control.RANGES, 1L);
        rangesPublished++;
    }

    /**
     * Waits until this agent has published {@code n} whole ranges. The fake agent lives in the
     * test JVM, not in the target, so a test that kills the target must first wait for what it
     * means to be "committed before the target died".
     */
    public void awaitRangesPublished(int n, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (rangesPublished < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the fake agent published " + rangesPublished + " of " + n + " ranges");
            }
            Thread.sleep(1);
        }
    }

    private void write(int type, int len, long stamp) {
        // A range must not be lost in the test: wait for room instead of dropping.
        while (!producer.write(type, len, stamp)) {
            Thread.onSpinWait();
        }
        LONG.getAndAdd(control, Control.RECORDS, 1L);
        LONG.getAndAdd(control, Control.BYTES, (long) len);
    }

    @Override
    public void close() {
        stop = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            // A resource's close must not throw InterruptedException; the region's memory stays
            // mapped (the thread may still use it) and the test that was interrupted fails.
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the fake agent", e);
        }
        arena.close();
    }
}
