package dev.vprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class NameTableTest {
    @Test
    void theSameTextGivesTheSameStringWhereverItSitsInTheBuffer() {
        NameTable t = new NameTable();
        char[] a = "xxampere_sgemm_128x64yy".toCharArray();
        char[] b = "ampere_sgemm_128x64".toCharArray();
        String first = t.of(a, 2, 19);
        assertEquals("ampere_sgemm_128x64", first);
        assertSame(first, t.of(b, 0, b.length));
        assertEquals("ampere_sgemm_128x6", t.of(b, 0, b.length - 1));
        assertEquals(2, t.size());
    }

    @Test
    void manyNamesSurviveGrowthAndCollidingHashes() {
        NameTable t = new NameTable();
        // "Aa" and "BB" have the same String hash: every pair below collides.
        String[] made = new String[5000];
        for (int i = 0; i < made.length; i++) {
            String s = (i % 2 == 0 ? "Aa" : "BB") + i;
            made[i] = t.of(s.toCharArray(), 0, s.length());
        }
        for (int i = 0; i < made.length; i++) {
            String s = (i % 2 == 0 ? "Aa" : "BB") + i;
            assertSame(made[i], t.of(s.toCharArray(), 0, s.length()), s);
        }
        assertEquals(5000, t.size());
    }

    @Test
    void pastItsBoundItAnswersFreshStringsAndRemembersNoMore() {
        NameTable t = new NameTable();
        char[] big = new char[(int) (NameTable.MAX_CHARS / 4)];
        for (int k = 0; k < 4; k++) {
            big[0] = (char) ('a' + k);
            t.of(big, 0, big.length);
        }
        assertEquals(4, t.size());
        big[0] = 'z';
        String over = t.of(big, 0, big.length);
        assertEquals(4, t.size());
        assertNotSame(over, t.of(big, 0, big.length));
        assertEquals(over, t.of(big, 0, big.length));
    }
}
