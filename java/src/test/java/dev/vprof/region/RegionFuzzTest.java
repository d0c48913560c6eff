package dev.vprof.region;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.capture.RecordDecoder;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.drain.RingCorruptException;
import dev.vprof.drain.RingReader;
import dev.vprof.engine.RegionCounters;
import dev.vprof.nativelib.Posix;
import dev.vprof.testing.TestRegions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A region file is written by another process, which may be broken or hostile. The input is a
 * list of patches laid over a valid region (so that most inputs get past the magic), a size
 * change, and ring bytes:
 *
 * <pre>
 * [size: 0 keep, 1 cut 8..2040 bytes, 2 grow 8 bytes, 3 control block only] [patch count]
 * { [offset hi] [offset lo] [length] [bytes] } ...  the rest: ring bytes from offset 0
 * </pre>
 *
 * Contract: {@link Region#open} refuses with a {@link RegionException} that says why, or opens;
 * an opened region's fields read without throwing, and draining its ring hands the sink only
 * slices inside the ring, of whole records the decoder can walk, or stops with a
 * {@link RingCorruptException}. Nothing reads outside the mapping.
 */
class RegionFuzzTest {
    private static final long RING = VprofRing.RING_MIN;
    private static final int PID = 4_000_000; // above any real pid_max default: no live process has it
    private static final Path DIR;
    private static final byte[] TEMPLATE;

    static {
        try {
            DIR = Files.createTempDirectory("vprof-fuzz-region");
            DIR.toFile().deleteOnExit();
            Path p = TestRegions.create(DIR, PID, RING, c -> { });
            TEMPLATE = Files.readAllBytes(p);
            p.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<Arguments> seeds() {
        ByteBuffer records = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        records.putInt(32).putInt(VprofRing.REC_CLOCK_SYNC).putLong(1).putLong(2).putLong(3);
        records.putInt(16).putInt(VprofRing.REC_DROPS).putLong(5);
        byte[] tail = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(48).array();
        ByteBuffer seed = ByteBuffer.allocate(5 + tail.length + 48);
        seed.put((byte) 0).put((byte) 1).put((byte) (Control.TAIL >> 8)).put((byte) Control.TAIL).put((byte) 8);
        seed.put(tail).put(records.array(), 0, 48);
        return Stream.of(new byte[] {0, 0}, new byte[] {1, 0}, java.util.Arrays.copyOf(seed.array(), seed.position()))
                .map(b -> Arguments.of((Object) b));
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "10m")
    void aHostileRegionIsRefusedWithAReasonOrReadInBounds(byte[] input) throws IOException {
        Path file = DIR.resolve("vprof." + PID);
        byte[] region = TEMPLATE.clone();
        int at = 0;
        int sizeMode = at < input.length ? input[at++] & 3 : 0;
        int patches = at < input.length ? input[at++] & 15 : 0;
        for (int i = 0; i < patches && at + 3 <= input.length; i++) {
            int offset = ((input[at] & 0xff) << 8 | (input[at + 1] & 0xff)) % (int) VprofRing.CONTROL_SIZE;
            int len = input[at + 2] & 0xff;
            at += 3;
            len = Math.min(len, Math.min(input.length - at, (int) VprofRing.CONTROL_SIZE - offset));
            System.arraycopy(input, at, region, offset, len);
            at += len;
        }
        int ringBytes = Math.min(input.length - at, (int) RING);
        System.arraycopy(input, at, region, (int) VprofRing.CONTROL_SIZE, ringBytes);
        int size = switch (sizeMode) {
            case 1 -> region.length - 8 * (1 + (ringBytes & 0xff));
            case 2 -> region.length + 8;
            case 3 -> (int) VprofRing.CONTROL_SIZE;
            default -> region.length;
        };
        byte[] content = java.util.Arrays.copyOf(region, size);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(content));
        }

        Region r;
        try {
            r = Region.open(file, Posix.getuid(), true);
        } catch (RegionException e) {
            assertTrue(e.getMessage() != null && e.getMessage().contains(file.toString()),
                    () -> "a refusal that does not name the region: " + e.getMessage());
            return;
        }
        try (r) {
            r.state();
            r.reason();
            r.cmdline();
            RegionCounters.read(r);
            r.cuptiVersion();
            r.heartbeatTimeoutNs();
            RingReader reader = new RingReader(r.pid(), r.control(), r.ring());
            reader.fillPercent();
            reader.isEmpty();
            RecordDecoder decoder = new RecordDecoder(r.pid());
            try {
                for (int i = 0; i < 8; i++) {
                    long n = reader.drain((pid, src, offset, length) -> {
                        assertTrue(offset >= 0 && length > 0 && offset + length <= src.byteSize(),
                                () -> "a slice [" + offset + ", +" + length + ") outside the ring");
                        assertTrue(decoder.decode(src, offset, length, new RecordVisitor() { }),
                                () -> "the reader handed over a run the decoder cannot walk");
                    }, RING);
                    if (n == 0) {
                        break;
                    }
                }
            } catch (RingCorruptException e) {
                assertTrue(e.getMessage().contains("pid " + PID), e.getMessage());
            }
            reader.discardLeftovers();
        }
    }
}
