package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.otlp.ExportRequest;
import dev.vprof.otlp.OtlpFormatException;
import dev.vprof.otlp.OtlpJson;
import dev.vprof.otlp.OtlpProtobuf;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.TestSpans;
import java.nio.charset.StandardCharsets;
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
        List<SpansCodec.Stored> stored = SpansCodec.stored(chunk);
        assertArrayEquals(OtlpProtobuf.encodeRequest(a), stored.get(0).body(), "the protobuf body byte for byte");
        assertArrayEquals(OtlpJson.encodeRequest(b), stored.get(1).body(), "the JSON body byte for byte");
        assertEquals(ExportRequest.Encoding.JSON, stored.get(1).encoding());
        List<String> notes = new ArrayList<>();
        List<Span> read = SpansCodec.decode(chunk, notes::add);
        assertEquals(List.of(), notes);
        List<Span> expected = new ArrayList<>(a);
        expected.addAll(b);
        assertEquals(TestSpans.sorted(expected), TestSpans.sorted(read));
    }

    @Test
    void requestsAreDeflatedWhenThatPaysAndInflateBackByteForByte() throws Exception {
        List<ExportRequest> requests = List.of(json(TestSpans.mixed(40)), json(TestSpans.mixed(40)));
        long bodies = requests.stream().mapToLong(r -> r.body().length).sum();
        byte[] chunk = SpansCodec.encodeRequests(requests);
        assertEquals(1, chunk[1], "deflated");
        assertTrue(chunk.length < bodies / 4, chunk.length + " bytes for " + bodies + " bytes of OTLP JSON");
        List<Span> expected = new ArrayList<>(requests.get(0).spans());
        expected.addAll(requests.get(1).spans());
        assertEquals(TestSpans.sorted(expected), TestSpans.sorted(SpansCodec.decode(chunk, n -> { })));

        // The inflated length is announced and bounded: a chunk that claims more than a chunk may
        // hold, or other than what its data inflates to, is corrupt, not an allocation.
        byte[] huge = chunk.clone();
        huge[2] = (byte) 0xff;
        huge[3] = (byte) 0xff;
        huge[4] = (byte) 0xff;
        huge[5] = (byte) 0x7f;
        assertThrows(OtlpFormatException.class, () -> SpansCodec.decode(huge, n -> { }));
        byte[] shorter = chunk.clone();
        shorter[2]--;
        assertThrows(OtlpFormatException.class, () -> SpansCodec.decode(shorter, n -> { }));
    }

    @Test
    void aRequestThisVprofCannotDecodeIsNotedAndTheOthersAreRead() throws Exception {
        List<Span> good = TestSpans.mixed(4);
        ExportRequest broken = new ExportRequest(ExportRequest.Encoding.JSON, "{\"resourceSpans\": [".getBytes(StandardCharsets.UTF_8),
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
        byte[] old = SpansV1.encode(spans); // version 1, as vprof wrote SPANS chunks before
        assertEquals(SpansCodec.VERSION_DECODED, old[0]);
        assertEquals(spans, SpansCodec.decode(old, n -> { }));
    }

    @Test
    void aBatchReadsBackIdentical() throws Exception {
        List<Span> spans = TestSpans.mixed(50);
        assertEquals(spans, SpansCodec.decode(SpansV1.encode(spans)));
        assertEquals(List.of(), SpansCodec.decode(SpansV1.encode(List.of())));
    }

    @Test
    void repeatedStringsAreStoredOnceSoTheChunkIsSmallerThanOtlp() {
        List<Span> spans = TestSpans.mixed(200);
        int chunk = SpansV1.encode(spans).length;
        int otlp = OtlpProtobuf.encodeRequest(spans).length;
        assertTrue(chunk < otlp * 0.8, "chunk " + chunk + " bytes vs OTLP protobuf " + otlp);
    }

    @Test
    void everyTruncationOfAChunkIsACleanError() {
        byte[] good = SpansV1.encode(TestSpans.mixed(2));
        for (int cut = 0; cut < good.length; cut++) {
            byte[] bad = Arrays.copyOf(good, cut);
            OtlpFormatException e = assertThrows(OtlpFormatException.class, () -> SpansCodec.decode(bad), "cut " + cut);
            assertTrue(e.getMessage().startsWith("corrupt SPANS chunk"), e.getMessage());
        }
    }

    @Test
    void anUnknownVersionIsNamed() {
        byte[] chunk = SpansV1.encode(TestSpans.mixed(1));
        chunk[0] = 9;
        OtlpFormatException e = assertThrows(OtlpFormatException.class, () -> SpansCodec.decode(chunk));
        assertTrue(e.getMessage().contains("version 9"), e.getMessage());
    }
}
