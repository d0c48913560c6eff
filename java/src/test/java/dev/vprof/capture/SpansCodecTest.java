package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.otlp.ExportRequest;
import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.OtlpJson;
import dev.vprof.otlp.OtlpProtobuf;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.TestSpans;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpansCodecTest {
    private static ExportRequest proto(List<Span> spans) {
        return new ExportRequest(ExportRequest.Encoding.PROTOBUF, OtlpProtobuf.encodeRequest(spans), spans);
    }

    private static ExportRequest json(List<Span> spans) {
        return new ExportRequest(ExportRequest.Encoding.JSON, OtlpJson.encodeRequest(spans), spans);
    }

    @Test
    void requestsAreKeptAsReceivedAndReadBackWithTheDecoderOfTheDay() throws Exception {
        List<Span> a = TestSpans.mixed(20);
        List<Span> b = TestSpans.mixed(3);
        byte[] chunk = SpansCodec.encodeRequests(List.of(proto(a), json(b)));
        assertEquals(SpansCodec.VERSION_REQUESTS, chunk[0]);
        byte[] body = OtlpProtobuf.encodeRequest(a);
        assertTrue(indexOf(chunk, body) > 0, "the protobuf body is in the chunk byte for byte");
        List<String> notes = new ArrayList<>();
        List<Span> read = SpansCodec.decode(chunk, notes::add);
        assertEquals(List.of(), notes);
        List<Span> expected = new ArrayList<>(a);
        expected.addAll(b);
        assertEquals(TestSpans.sorted(expected), TestSpans.sorted(read));
    }

    @Test
    void aRequestThisVprofCannotDecodeIsNotedAndTheOthersAreRead() throws Exception {
        List<Span> good = TestSpans.mixed(4);
        ExportRequest broken = new ExportRequest(ExportRequest.Encoding.JSON, "{\"resourceSpans\": [".getBytes(),
                List.of());
        List<String> notes = new ArrayList<>();
        List<Span> read = SpansCodec.decode(SpansCodec.encodeRequests(List.of(broken, proto(good))), notes::add);
        assertEquals(TestSpans.sorted(good), TestSpans.sorted(read));
        assertEquals(1, notes.size(), notes.toString());
        assertTrue(notes.getFirst().startsWith("request 1 of 2 (json"), notes.getFirst());
    }

    @Test
    void everyTruncationOfARequestsChunkIsACleanError() {
        byte[] good = SpansCodec.encodeRequests(List.of(proto(TestSpans.mixed(2)), json(TestSpans.mixed(1))));
        for (int cut = 1; cut < good.length; cut++) {
            byte[] bad = Arrays.copyOf(good, cut);
            OtlpFormatException e = assertThrows(OtlpFormatException.class, () -> SpansCodec.decode(bad, n -> { }),
                    "cut " + cut);
            assertTrue(e.getMessage().startsWith("corrupt SPANS chunk"), e.getMessage());
        }
    }

    @Test
    void chunksWrittenBeforeRequestsWereKeptStillRead() throws Exception {
        List<Span> spans = TestSpans.mixed(7);
        byte[] old = SpansCodec.encode(spans); // version 1, as vprof wrote SPANS chunks before
        assertEquals(SpansCodec.VERSION_DECODED, old[0]);
        assertEquals(spans, SpansCodec.decode(old, n -> { }));
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

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
