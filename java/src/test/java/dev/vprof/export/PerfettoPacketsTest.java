package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.wire.WireWriter;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

/** The Perfetto writer's output stage alone: packets framed, chunked and (optionally) deflated. */
class PerfettoPacketsTest {
    private static WireWriter body(String s) {
        WireWriter w = new WireWriter(16);
        w.string(5, s);
        return w;
    }

    @Test
    void uncompressedPacketsAreFramedAsTraceFieldOneInOrder() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (PerfettoPackets p = new PerfettoPackets(sink, false)) {
            p.packet(body("hi"));
            p.packet(body("abc"));
            p.finish();
            // Hand-encoded: tag 0x0A (field 1, LEN), length, then the body's tag 0x2A (field 5, LEN).
            byte[] expected = {0x0A, 4, 0x2A, 2, 'h', 'i', 0x0A, 5, 0x2A, 3, 'a', 'b', 'c'};
            assertArrayEquals(expected, sink.toByteArray());
            assertEquals(2, p.packets());
            assertEquals(expected.length, p.bytes());
        }
    }

    @Test
    void compressedOutputIsOnePacketWhoseField50InflatesToThePlainPackets() throws Exception {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        try (PerfettoPackets a = new PerfettoPackets(plain, false);
             PerfettoPackets b = new PerfettoPackets(packed, true)) {
            for (int i = 0; i < 1000; i++) {
                a.packet(body("kernel " + (i % 7)));
                b.packet(body("kernel " + (i % 7)));
            }
            a.finish();
            b.finish();
            assertEquals(packed.size(), b.bytes());
        }
        byte[] z = packed.toByteArray();
        int[] pos = {0};
        assertEquals(0x0A, z[pos[0]++], "a Trace.packet");
        int outer = varint(z, pos);
        assertEquals(z.length, pos[0] + outer, "one packet holds the whole chunk");
        assertEquals(50 << 3 | 2, varint(z, pos), "compressed_packets");
        int len = varint(z, pos);
        Inflater inflater = new Inflater();
        inflater.setInput(Arrays.copyOfRange(z, pos[0], pos[0] + len));
        byte[] out = new byte[plain.size() + 16];
        int n = inflater.inflate(out);
        assertTrue(inflater.finished());
        inflater.end();
        assertArrayEquals(plain.toByteArray(), Arrays.copyOf(out, n));
        assertTrue(z.length * 4 < plain.size(), "repetitive packets shrink: " + z.length + " of " + plain.size());
    }

    @Test
    void aFullChunkGoesOutBeforeTheEnd() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (PerfettoPackets p = new PerfettoPackets(sink, false)) {
            WireWriter big = new WireWriter(1 << 10);
            big.bytes(5, new byte[1000]);
            int n = 0;
            while (sink.size() == 0) {
                p.packet(big);
                n++;
                assertTrue(n <= PerfettoPackets.FLUSH_AT / 1000 + 1, "held past one chunk");
            }
            assertTrue(sink.size() >= PerfettoPackets.FLUSH_AT, "written a whole chunk at a time");
            p.finish();
            assertEquals(n, p.packets());
            assertEquals((long) n * (1 + 2 + 1 + 2 + 1000), sink.size(), "every packet, framed");
        }
    }

    /** A protobuf varint, decoded by hand (no vprof code). */
    private static int varint(byte[] b, int[] pos) {
        int v = 0;
        for (int shift = 0; ; shift += 7) {
            int x = b[pos[0]++] & 0xff;
            v |= (x & 0x7f) << shift;
            if (x < 0x80) {
                return v;
            }
        }
    }
}
