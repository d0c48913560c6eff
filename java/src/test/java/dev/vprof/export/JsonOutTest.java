package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonOutTest {
    private static String written(long... values) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonOut json = new JsonOut(out);
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                json.raw(',');
            }
            json.number(values[i]);
        }
        json.flush();
        return out.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void integersAreWrittenAsJavaWritesThemAtEveryDigitCountAndSign() throws IOException {
        long[] edges = {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 123_456_789, -1, -10, -99, -100,
                999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        for (long v : edges) {
            assertEquals(Long.toString(v), written(v));
        }
        Random r = new Random(3);
        for (int i = 0; i < 10_000; i++) {
            long v = r.nextLong() >> r.nextInt(64);
            assertEquals(Long.toString(v), written(v));
        }
        assertEquals("1,22,333", written(1, 22, 333), "numbers follow one another");
    }

    @Test
    void microsecondsKeepThreeExactDecimals() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonOut json = new JsonOut(out);
        json.micros(1_234_567_890_123L);
        json.raw(' ');
        json.micros(5);
        json.raw(' ');
        json.micros(-1_500);
        json.flush();
        assertEquals("1234567890.123 0.005 -1.500", out.toString(StandardCharsets.US_ASCII));
    }
}
