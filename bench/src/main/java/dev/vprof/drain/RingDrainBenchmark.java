package dev.vprof.drain;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Draining vprof's ring ({@link RingReader} into a copying sink, as the capture writer copies)
 * against Agrona's {@code OneToOneRingBuffer.read} with a handler that copies the same bytes,
 * for the same record sizes. Each operation is one record; every invocation publishes a batch of
 * {@value #BATCH} records with a single producer (vprof: the commit protocol without the CAS,
 * Agrona: {@code write}) and then drains them, so both sides pay a comparable producer cost and
 * the difference is the consumer. Ratio = vprofDrain / agronaOneToOne (>= 1 means vprof is at
 * least as fast). Rerun: {@code java -jar bench/target/benchmarks.jar RingDrainBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED",
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"}) // Agrona 2 reads jdk.internal.misc.Unsafe
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RingDrainBenchmark {
    static final int BATCH = 1024;
    private static final int CAPACITY = 1 << 20;

    /** Bytes per record, 8-byte header included: 32 is a KERNEL record. */
    @Param({"32", "64"})
    int recordSize;

    private SyntheticRing vprof;

    private OneToOneRingBuffer agrona;
    private UnsafeBuffer agronaPayload;
    private UnsafeBuffer agronaCopyTarget;
    private int agronaCopyPos;
    private MessageHandler handler;

    @Setup(Level.Trial)
    public void setUp() {
        vprof = new SyntheticRing(CAPACITY, recordSize);

        agrona = new OneToOneRingBuffer(new UnsafeBuffer(
                ByteBuffer.allocateDirect(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
        agronaPayload = new UnsafeBuffer(ByteBuffer.allocateDirect(recordSize));
        agronaCopyTarget = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
        handler = (int msgTypeId, MutableDirectBuffer buffer, int index, int length) -> {
            if (agronaCopyPos + length > agronaCopyTarget.capacity()) {
                agronaCopyPos = 0;
            }
            buffer.getBytes(index, agronaCopyTarget, agronaCopyPos, length);
            agronaCopyPos += length;
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        vprof.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long vprofDrain() throws IOException, RingCorruptException {
        vprof.publish(BATCH);
        return vprof.drain();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int agronaOneToOne() {
        final int payload = recordSize - 8; // Agrona's header is 8 bytes too
        for (int i = 0; i < BATCH; i++) {
            for (int p = 0; p < payload; p += 8) {
                agronaPayload.putLong(p, i + p);
            }
            agrona.write(1, agronaPayload, 0, payload);
        }
        return agrona.read(handler, BATCH);
    }
}
