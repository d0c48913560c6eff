package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.OtlpProtobuf;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.TestSpans;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpansCodecTest {

    @Test
    void aBatchReadsBackIdentical() throws Exception {
        List<Span> spans = TestSpans.mixed(50);
        assertEquals(spans, SpansCodec.decode(SpansCodec.encode(spans)));
        assertEquals(List.of(), SpansCodec.decode(SpansCodec.encode(List.of())));
    }

    @Test
    void repeatedStringsAreStoredOnceSoTheChunkIsSmallerThanOtlp() {
        List<Span> spans = TestSpans.mixed(200);
        int chunk = SpansCodec.encode(spans).length;
        int otlp = OtlpProtobuf.encodeRequest(spans).length;
        assertTrue(chunk < otlp * 0.8, "chunk " + chunk + " bytes vs OTLP protobuf " + otlp);
    }

    @Test
    void everyTruncationOfAChunkIsACleanError() {
        byte[] good = SpansCodec.encode(TestSpans.mixed(2));
        for (int cut = 0; cut < good.length; cut++) {
            byte[] bad = Arrays.copyOf(good, cut);
            OtlpFormatException e = assertThrows(OtlpFormatException.class, () -> SpansCodec.decode(bad), "cut " + cut);
            assertTrue(e.getMessage().startsWith("corrupt SPANS chunk"), e.getMessage());
        }
    }

    @Test
    void anUnknownVersionIsNamed() {
        byte[] chunk = SpansCodec.encode(TestSpans.mixed(1));
        chunk[0] = 9;
        OtlpFormatException e = assertThrows(OtlpFormatException.class, () -> SpansCodec.decode(chunk));
        assertTrue(e.getMessage().contains("version 9"), e.getMessage());
    }
}
