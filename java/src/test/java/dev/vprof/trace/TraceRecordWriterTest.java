package dev.vprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ArgsCodec;
import dev.vprof.capture.KernelShape;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The record writer stage alone: vprof events into ring records, read back with the capture's decoder. */
class TraceRecordWriterTest {
    @TempDir
    Path dir;

    private TraceRecordWriter writer() {
        return new TraceRecordWriter(dir.resolve("t.json"), dir);
    }

    @Test
    void aKernelShapeIsInternedOnceAndItsArgsComeJustBeforeIt() throws IOException {
        TraceRecordWriter w = writer();
        int name = w.intern("gemm");
        int key = w.intern("queued");
        ArgsCodec.Encoder e = new ArgsCodec.Encoder();
        e.beginObject();
        e.key(key);
        e.integer(0);
        e.end();
        KernelShape shape = new KernelShape(name, 3, 1, 7, 64, 1, 1, 128, 1, 1, 0, 32, 0, 0);
        w.kernel(shape, 100, 200, 5, e.buffer(), e.length());
        w.kernel(shape, 300, 400, 6, e.buffer(), 0);
        assertEquals(List.of("desc 1", "args {queued=0}", "kernel gemm 100..200 corr 5 dev 3 ctx 1 stream 7 grid 64",
                "kernel gemm 300..400 corr 6 dev 3 ctx 1 stream 7 grid 64"), TraceStages.decode(w.records));
        w.records.close();
        w.head.close();
    }

    @Test
    void aNameOverTheStringBoundIsCutOnACharacterAndSaidSo() throws IOException {
        TraceRecordWriter w = writer();
        String longName = "é".repeat((int) VprofRing.STRING_MAX); // two bytes each: 8 KiB of UTF-8
        int id = w.intern(longName);
        assertTrue(w.lastCut());
        w.intern("short");
        assertFalse(w.lastCut());
        assertEquals(id, w.intern(longName));
        assertTrue(w.lastCut(), "the same cut name again is still cut");
        w.cpuOp(id, 1, 2, 3, VprofRing.CPU_OP_OPERATOR, null, 0);
        String line = TraceStages.decode(w.records).getFirst();
        String kept = line.substring("cpu_op ".length(), line.indexOf(" kind"));
        assertEquals(VprofRing.STRING_MAX, kept.getBytes(StandardCharsets.UTF_8).length);
        assertEquals(1, w.namesCut);
        w.records.close();
        w.head.close();
    }

    @Test
    void argsLongerThanARecordGoInPiecesThatTheDecoderPutsTogether() throws IOException {
        TraceRecordWriter w = writer();
        int key = w.intern("Call stack");
        ArgsCodec.Encoder e = new ArgsCodec.Encoder();
        e.beginObject();
        e.key(key);
        String stack = "x".repeat(3 * TraceRecordWriter.ARGS_PIECE);
        e.string(stack);
        e.end();
        long before = w.argsRecords;
        w.api(1, 2, 9, 211, VprofRing.API_RUNTIME, -4, Arrays.copyOf(e.buffer(), e.length()), e.length());
        assertEquals(4, w.argsRecords - before, "3 pieces of " + TraceRecordWriter.ARGS_PIECE + " bytes and a last one");
        assertEquals(List.of("args {Call stack=" + stack + "}", "api 211 null tid -4"), TraceStages.decode(w.records));
        w.records.close();
        w.head.close();
    }

    @Test
    void aRepeatedStringValueIsOneStringAndTheirNumberIsBounded() throws IOException {
        TraceRecordWriter w = writer();
        char[] v = "xPyTorch Profilerx".toCharArray();
        int id = w.internValue(v, 1, 16);
        assertTrue(id > 0);
        assertEquals(id, w.internValue("PyTorch Profiler".toCharArray(), 0, 16), "found again from other chars");
        assertEquals(w.intern("PyTorch Profiler"), id, "the same STRING as a name of that text");
        for (int i = 1; i < TraceRecordWriter.MAX_SHARED_VALUES; i++) {
            assertTrue(w.internValue(("v" + i).toCharArray(), 0, ("v" + i).length()) > 0);
        }
        assertEquals(0, w.internValue("one more".toCharArray(), 0, 8), "past the bound: written inline");
        assertEquals(id, w.internValue(v, 1, 16), "one already kept is still shared");
        w.records.close();
        w.head.close();
    }

    @Test
    void aRangeIsAStartAndAnEndSharingAnId() throws IOException {
        TraceRecordWriter w = writer();
        int name = w.intern("ProfilerStep#1");
        w.range(name, 0, 10, 20, 77, null, 0);
        assertEquals(List.of("marker " + VprofRing.MARKER_START + " ProfilerStep#1 null tid 77",
                "marker " + VprofRing.MARKER_END + " null null tid 77"), TraceStages.decode(w.records));
        w.records.close();
        w.head.close();
    }
}
