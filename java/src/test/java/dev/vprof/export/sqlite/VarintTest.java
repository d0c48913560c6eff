package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** SQLite's varints, checked against the byte forms sqlite.org/fileformat2.html gives and by reading them back. */
class VarintTest {
    private static byte[] encode(long v) {
        byte[] b = new byte[9];
        int n = Varint.put(b, 0, v);
        assertEquals(Varint.size(v), n, "size of " + v);
        byte[] out = new byte[n];
        System.arraycopy(b, 0, out, 0, n);
        return out;
    }

    @Test
    void valuesTakeSevenBitsAByteMostSignificantFirst() {
        HexFormat hex = HexFormat.of();
        assertArrayEquals(hex.parseHex("00"), encode(0));
        assertArrayEquals(hex.parseHex("7f"), encode(127));
        assertArrayEquals(hex.parseHex("8100"), encode(128));
        assertArrayEquals(hex.parseHex("ff7f"), encode(16383));
        assertArrayEquals(hex.parseHex("818000"), encode(16384));
        // 56 bits take 8 bytes; a ninth byte holds the last 8 bits of anything larger.
        assertEquals(8, Varint.size((1L << 56) - 1));
        assertEquals(9, Varint.size(1L << 56));
        assertEquals(9, Varint.size(-1));
        assertArrayEquals(hex.parseHex("ffffffffffffffffff"), encode(-1));
    }

    @Test
    void everyWidthReadsBack() {
        long[] values = {0, 1, 127, 128, 300, 1L << 20, (1L << 35) + 7, (1L << 49) - 1, (1L << 56) - 1, 1L << 56,
                Long.MAX_VALUE, Long.MIN_VALUE, -1, -128, 0x0123_4567_89ab_cdefL};
        for (long v : values) {
            byte[] b = encode(v);
            long[] got = Varint.get(b, 0);
            assertEquals(v, got[0], "value " + v);
            assertEquals(b.length, got[1], "bytes of " + v);
        }
    }
}
