package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CPU_OP and ARGS records (the trace reader's): decoded field by field; an ARGS object, whole or in
 * pieces, goes to the visitor just before the record it belongs to; short, damaged, out-of-order
 * or orphaned ones are skipped and counted, and the records around them still read.
 */
class CpuOpAndArgsRecordTest {
    @TempDir
    Path dir;

    private record Read(List<String> events, List<String> warnings) {}

    private Read read(RingRecords r, boolean wantArgs) throws IOException {
        Path file = dir.resolve("f.vprof");
        ProcessInfo info = new ProcessInfo(10, 1, "python", 0, 1, 1 << 20, 5L, null, null, null);
        try (CaptureWriter w = CaptureWriter.create(file, CaptureFileTest.META)) {
            w.process(info);
            r.writeTo(w, info.pid());
        }
        List<String> events = new ArrayList<>();
        RecordVisitor v = new RecordVisitor() {
            @Override
            public boolean wantsEventArgs() {
                return wantArgs;
            }

            @Override
            public void eventArgs(int pid, EventArgs args) {
                events.add("args " + args.target() + " " + args.fields());
            }

            @Override
            public void cpuOp(int pid, CpuOpEvent op) {
                events.add(op.toString());
            }

            @Override
            public void api(int pid, ApiEvent a) {
                events.add("api " + a.cbid() + " " + a.name());
            }

            @Override
            public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
                events.add("kernel " + name);
            }
        };
        try (CaptureReader c = CaptureReader.open(file)) {
            c.forEachRecord(v);
            return new Read(events, c.warnings());
        }
    }

    /** {"args": {"External id": 7, "queued": 0, "blocks per SM": 0.59}, "name": NAME} with keys 1..5. */
    private static byte[] kernelArgs(String name) {
        ArgsCodec.Encoder e = new ArgsCodec.Encoder();
        e.beginObject();
        e.key(1);
        e.beginObject();
        e.key(2);
        e.integer(7);
        e.key(3);
        e.integer(0);
        e.key(4);
        e.number("0.59");
        e.end();
        e.key(5);
        e.string(name);
        e.end();
        return Arrays.copyOf(e.buffer(), e.length());
    }

    private static RingRecords keys() {
        return new RingRecords().string(1, "args").string(2, "External id").string(3, "queued")
                .string(4, "blocks per SM").string(5, "name").string(6, "aten::mm").string(7, "gemm");
    }

    @Test
    void aCpuOpIsDecodedFieldByField() throws IOException {
        Read read = read(keys().cpuOp(1_000, 1_500, 6, -5, VprofRing.CPU_OP_OPERATOR)
                .cpuOp(1_100, 1_200, 0, 9, VprofRing.CPU_OP_PYTHON), false);
        assertEquals(List.of(), read.warnings());
        assertEquals(List.of(new CpuOpEvent(1_000, 1_500, VprofRing.CPU_OP_OPERATOR, "aten::mm", -5).toString(),
                new CpuOpEvent(1_100, 1_200, VprofRing.CPU_OP_PYTHON, null, 9).toString()), read.events());
        assertEquals("CPU_OP", RecordDecoder.typeName(VprofRing.REC_CPU_OP));
        assertEquals("ARGS", RecordDecoder.typeName(VprofRing.REC_ARGS));
    }

    @Test
    void aBadCpuOpIsSkippedAndCounted() throws IOException {
        Read read = read(keys().raw(24, 24, VprofRing.REC_CPU_OP)
                .cpuOp(1_000, 900, 6, 1, VprofRing.CPU_OP_OPERATOR) // ends before it starts
                .cpuOp(1_000, 1_100, 6, 1, 7) // no such kind
                .cpuOp(2_000, 2_100, 6, 1, VprofRing.CPU_OP_OPERATOR), false);
        assertEquals(1, read.events().size(), read.events().toString());
        assertTrue(read.warnings().getFirst().contains("skipped 3 CPU_OP records"), read.warnings().toString());
    }

    @Test
    void argsWholeOrInPiecesGoJustBeforeTheirRecord() throws IOException {
        byte[] obj = kernelArgs("x".repeat(40));
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("External id", 7L);
        inner.put("queued", 0L);
        inner.put("blocks per SM", new EventArgs.Number("0.59"));
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("args", inner);
        fields.put("name", "x".repeat(40));
        String expected = "args " + VprofRing.REC_KERNEL + " " + fields;
        for (int piece : new int[] {obj.length, 16, 1}) {
            Read read = read(keys().kernelDesc(1, 7, 0, 7).args(VprofRing.REC_KERNEL, obj, piece)
                    .kernel(10, 20, 3, 1), true);
            assertEquals(List.of(), read.warnings(), "pieces of " + piece);
            assertEquals(List.of(expected, "kernel gemm"), read.events(), "pieces of " + piece);
        }
    }

    @Test
    void anApiCallTakesItsNameFromItsArgsEvenWhenTheVisitorWantsNoArgs() throws IOException {
        Read read = read(keys().args(VprofRing.REC_API, kernelArgs("cudaFancyCall"), 4096)
                .api(1, 2, 3, 0, VprofRing.API_RUNTIME, 9)
                .api(3, 4, 5, 211, VprofRing.API_RUNTIME, 9), false);
        assertEquals(List.of("api 0 cudaFancyCall", "api 211 null"), read.events());
    }

    @Test
    void anApiCallsNameKeptByTheIdOfItsStringIsFoundToo() throws IOException {
        ArgsCodec.Encoder e = new ArgsCodec.Encoder();
        e.beginObject();
        e.key(5);
        e.stringRef(8);
        e.end();
        Read read = read(keys().string(8, "cudaOtherCall").args(VprofRing.REC_API, Arrays.copyOf(e.buffer(), e.length()), 4096)
                .api(1, 2, 3, 0, VprofRing.API_RUNTIME, 9), false);
        assertEquals(List.of("api 0 cudaOtherCall"), read.events());
    }

    @Test
    void theProcessFieldsAlwaysGoToTheVisitor() throws IOException {
        Read read = read(keys().args(0, kernelArgs("trace"), 4096), false);
        assertEquals(1, read.events().size());
        assertTrue(read.events().getFirst().startsWith("args 0 {args="), read.events().toString());
    }

    @Test
    void argsNotFollowedByTheirRecordOrOutOfOrderAreSkippedAndCounted() throws IOException {
        byte[] obj = kernelArgs("y");
        RingRecords r = keys().kernelDesc(1, 7, 0, 7)
                .args(VprofRing.REC_KERNEL, obj, 4096).cpuOp(1, 2, 6, 1, VprofRing.CPU_OP_OPERATOR) // orphaned
                .argsPiece(VprofRing.REC_KERNEL, VprofRing.ARGS_LAST, obj, 4, obj.length - 4) // a piece without its first
                .argsPiece(VprofRing.REC_KERNEL, VprofRing.ARGS_FIRST, obj, 0, obj.length) // a first never ended
                .argsPiece(99, VprofRing.ARGS_FIRST | VprofRing.ARGS_LAST, obj, 0, obj.length) // a target that is no event
                .kernel(10, 20, 3, 1);
        Read read = read(r, true);
        assertEquals(2, read.events().size(), read.events().toString()); // the CPU op and the kernel, no args
        assertFalse(read.events().stream().anyMatch(e -> e.startsWith("args")), read.events().toString());
        String w = String.join("\n", read.warnings());
        assertTrue(w.contains("skipped 2 ARGS records"), w);
        assertTrue(w.contains("1 ARGS records were not followed by the record they belong to"), w);
    }

    @Test
    void theCodecRefusesWhatIsNotItsEncoding() {
        IntFunctionKeys keys = new IntFunctionKeys();
        byte[] ok = kernelArgs("z");
        assertThrows(ArgsCodec.Malformed.class, () -> decode(Arrays.copyOf(ok, ok.length - 1), keys), "cut short");
        byte[] unknownKey = ok.clone();
        unknownKey[1] = 40; // the first key names no string
        assertThrows(ArgsCodec.Malformed.class, () -> decode(unknownKey, keys), "a key naming no string");
        ArgsCodec.Encoder e = new ArgsCodec.Encoder();
        e.beginObject();
        e.key(2);
        e.number("1e");
        e.end();
        assertThrows(ArgsCodec.Malformed.class, () -> decode(Arrays.copyOf(e.buffer(), e.length()), keys),
                "a number that is not one");
        ArgsCodec.Encoder deep = new ArgsCodec.Encoder();
        deep.beginObject();
        deep.key(2);
        for (int i = 0; i < ArgsCodec.MAX_DEPTH + 1; i++) {
            deep.beginArray();
        }
        assertThrows(ArgsCodec.Malformed.class, () -> decode(Arrays.copyOf(deep.buffer(), deep.length()), keys), "too deep");
        ArgsCodec.Encoder ref = new ArgsCodec.Encoder();
        ref.beginObject();
        ref.key(5);
        ref.stringRef(3);
        ref.end();
        assertDoesNotThrow(() -> assertEquals(Map.of("name", "queued"), decode(Arrays.copyOf(ref.buffer(), ref.length()),
                keys)), "a string value by the id of its STRING");
        ArgsCodec.Encoder badRef = new ArgsCodec.Encoder();
        badRef.beginObject();
        badRef.key(5);
        badRef.stringRef(40);
        badRef.end();
        assertThrows(ArgsCodec.Malformed.class, () -> decode(Arrays.copyOf(badRef.buffer(), badRef.length()), keys),
                "a string value naming no string");
        assertTrue(ArgsCodec.isJsonNumber("-0.5e+3") && !ArgsCodec.isJsonNumber("01") && !ArgsCodec.isJsonNumber("NaN"));
    }

    /** Keys 1..5 as {@link #keys()} interns them. */
    private static final class IntFunctionKeys implements IntFunction<String> {
        @Override
        public String apply(int id) {
            return id >= 1 && id <= 5 ? List.of("args", "External id", "queued", "blocks per SM", "name").get(id - 1) : null;
        }
    }

    private static Map<String, Object> decode(byte[] b, IntFunctionKeys keys) throws ArgsCodec.Malformed {
        return ArgsCodec.decodeObject(MemorySegment.ofArray(b), 0, b.length, keys);
    }
}
