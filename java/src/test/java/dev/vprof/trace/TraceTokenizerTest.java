package dev.vprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.capture.ArgsCodec;
import dev.vprof.capture.CaptureFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tokenizer stage alone: a trace's bytes into events and top-level fields (a recording handler
 * stands for the mapper), bounds, and gzip checked whole: a damaged byte that still inflates, a
 * wrong length, bytes after the data, several members.
 */
class TraceTokenizerTest {
    @TempDir
    Path dir;

    /** Records each event as a line, and names keys with ids of its own. */
    private static class Recorder implements TraceTokenizer.Handler {
        final List<String> events = new ArrayList<>();
        final Map<String, Integer> ids = new HashMap<>();
        final Map<Integer, String> names = new HashMap<>();

        @Override
        public void event(KinetoEvent e) throws IOException {
            StringBuilder b = new StringBuilder();
            b.append(e.ph).append(' ').append(e.kind).append(e.catCanonical ? "" : "(old)").append(' ').append(e.name)
                    .append(" pid ").append(e.pid).append(" tid ").append(e.tidIsInt ? e.tid : e.tidText)
                    .append(" ts ").append(e.ts).append(e.tsText == null ? "" : "(" + e.tsText + ")")
                    .append(" dur ").append(e.dur).append(" device ").append(e.device).append(" exact ").append(e.exact);
            try {
                b.append(" args ").append(ArgsCodec.decodeObject(MemorySegment.ofArray(wrap(e.args)), 0,
                        e.args.length() + 2, names::get));
            } catch (ArgsCodec.Malformed x) {
                throw new IOException(x);
            }
            b.append(" others ").append(e.others);
            events.add(b.toString());
        }

        /** The encoded args, which the tokenizer writes as pairs, as one object. */
        private static byte[] wrap(ArgsCodec.Encoder args) {
            byte[] b = new byte[args.length() + 2];
            b[0] = 8; // OBJECT
            System.arraycopy(args.buffer(), 0, b, 1, args.length());
            return b; // the last byte, 0, is END
        }

        @Override
        public int key(String key) {
            return ids.computeIfAbsent(key, k -> {
                names.put(ids.size() + 1, k);
                return ids.size() + 1;
            });
        }

        @Override
        public int headKey(String key) {
            return key(key);
        }
    }

    private Path file(String name, byte[] bytes) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    private static final String TRACE = """
            {"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 3},
             "traceEvents": [
              {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 3, "tid": 7, "ts": 1.5004, "dur": 2,
               "args": {"device": 3, "stream": 7, "queued": 0, "grid": [64, 1, 1]}},
              {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": "thread 4", "ts": 1, "dur": 0.25,
               "args": {"cbid": 211}, "s": "t"}
             ],
             "traceName": "x"}""";

    @Test
    void eventsComeOutWithTheirFieldsAndArgsEncoded() throws IOException {
        Recorder r = new Recorder();
        TraceTokenizer t = new TraceTokenizer(file("t.json", TRACE.getBytes(StandardCharsets.UTF_8)), 1 << 20, r);
        TraceTokenizer.Top top = t.read();
        int exactKernel = KinetoEvent.Arg.DEVICE.bit() | KinetoEvent.Arg.STREAM.bit() | KinetoEvent.Arg.GRID.bit();
        assertEquals(List.of(
                "X KERNEL gemm pid 3 tid 7 ts 1500(1.5004) dur 2000 device 3 exact " + exactKernel
                        + " args {queued=0} others 0", // the args read exactly into the event are not encoded
                "X RUNTIME(old) cudaLaunchKernel pid 9 tid thread 4 ts 1000 dur 250 device -1 exact "
                        + KinetoEvent.Arg.CBID.bit() + " args {} others 1"), r.events);
        assertEquals(Map.of("backend", "nccl", "rank", 3L), top.fields().get("distributedInfo"));
        assertEquals("x", top.fields().get("traceName"));
        assertEquals(List.of("schemaVersion", "distributedInfo", "traceName"), List.copyOf(top.fields().keySet()));
        assertTrue(t.fractionalTimes());
        assertEquals(TRACE.length(), t.jsonBytes());
    }

    @Test
    void anEventTheHandlerWillNotKeepHasItsFieldsSkippedAndArgsBeforeCatAreRead() throws IOException {
        Recorder r = new Recorder() {
            @Override
            public boolean mayKeep(KinetoEvent e) {
                return e.ph != 's' && e.ph != 'M';
            }
        };
        String trace = """
                {"traceEvents": [
                  {"ph": "s", "id": 4, "cat": "ac2g", "name": "flow", "args": {"queued": 1}, "bp": "e"},
                  {"ph": "M", "name": "process_name", "pid": 3, "args": {"name": "python3", "other": 2}},
                  {"args": {"queued": 0, "device": 1}, "name": "gemm", "ph": "X", "cat": "kernel", "ts": 1, "dur": 1}
                ]}""";
        new TraceTokenizer(file("k.json", trace.getBytes(StandardCharsets.UTF_8)), 1 << 20, r).read();
        assertEquals(List.of("s OTHER(old) flow pid 0 tid null ts 0 dur 0 device -1 exact 0 args {} others 0",
                "M null(old) process_name pid 3 tid null ts 0 dur 0 device -1 exact 0 args {} others 0",
                "X KERNEL gemm pid 0 tid null ts 1000 dur 1000 device 1 exact " + KinetoEvent.Arg.DEVICE.bit()
                        + " args {queued=0} others 0"), r.events);
    }

    @Test
    void aShortStringValueTheHandlerSharesIsEncodedByItsId() throws IOException {
        Recorder r = new Recorder() {
            @Override
            public int valueId(char[] c, int off, int len) {
                return key(new String(c, off, len));
            }
        };
        String trace = """
                {"traceEvents": [
                  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 1,
                   "args": {"Trace name": "PyTorch Profiler", "Input type": ["float", ""], "Long": "%s"}}
                ]}""".formatted("x".repeat(TraceTokenizer.MAX_SHARED_VALUE + 1));
        new TraceTokenizer(file("v.json", trace.getBytes(StandardCharsets.UTF_8)), 1 << 20, r).read();
        assertEquals("X CPU_OP aten::mm pid 0 tid null ts 1000 dur 1000 device -1 exact 0 args {Trace name=PyTorch Profiler, "
                + "Input type=[float, ], Long=" + "x".repeat(TraceTokenizer.MAX_SHARED_VALUE + 1) + "} others 0",
                r.events.getFirst());
        assertTrue(r.ids.containsKey("PyTorch Profiler") && r.ids.containsKey("float") && r.ids.containsKey(""),
                "short values shared: " + r.ids.keySet());
        assertTrue(r.ids.keySet().stream().noneMatch(k -> k.startsWith("xx")), "a long value is written inline");
    }

    @Test
    void moreThanTheByteBoundIsRefused() throws IOException {
        Path f = file("t.json", TRACE.getBytes(StandardCharsets.UTF_8));
        CaptureFormatException e = assertThrows(CaptureFormatException.class,
                () -> new TraceTokenizer(f, 100, new Recorder()).read());
        assertTrue(e.getMessage().contains("--max-bytes"), e.getMessage());
    }

    @Test
    void jsonAfterTheTopLevelObjectIsRefused() throws IOException {
        Path f = file("t.json", (TRACE + " {}").getBytes(StandardCharsets.UTF_8));
        CaptureFormatException e = assertThrows(CaptureFormatException.class,
                () -> new TraceTokenizer(f, 1 << 20, new Recorder()).read());
        assertTrue(e.getMessage().contains("more JSON after its top-level object"), e.getMessage());
    }

    /** Found by TorchTraceFuzzTest: an exponent past an int was an unchecked NumberFormatException. */
    @ParameterizedTest
    @ValueSource(strings = {"1e99999999999", "1e999999999", "-1E+999999999", "9.3e15"})
    void aTimeOutsideWhatNsHoldIsRefusedInOneSentence(String ts) throws IOException {
        Path f = file("t.json", oneKernelAt(ts).getBytes(StandardCharsets.UTF_8));
        CaptureFormatException e = assertThrows(CaptureFormatException.class,
                () -> new TraceTokenizer(f, 1 << 20, new Recorder()).read());
        assertTrue(e.getMessage().contains("outside what 64-bit ns hold"), e.getMessage());
    }

    private static String oneKernelAt(String ts) {
        return "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 3, \"tid\": 7, \"ts\": "
                + ts + ", \"dur\": 2}]}";
    }

    @Test
    void aTimeNearerZeroThanHalfANsIsZeroAndAnExponentIsReadExactly() throws IOException {
        Recorder tiny = new Recorder();
        new TraceTokenizer(file("t.json", oneKernelAt("1e-999999999").getBytes(StandardCharsets.UTF_8)), 1 << 20, tiny).read();
        assertTrue(tiny.events.getFirst().contains(" ts 0(1e-999999999) "), tiny.events.getFirst()); // 0 ns, its text kept
        Recorder exp = new Recorder();
        new TraceTokenizer(file("t.json", oneKernelAt("2.5e0").getBytes(StandardCharsets.UTF_8)), 1 << 20, exp).read();
        assertTrue(exp.events.getFirst().contains(" ts 2500 "), exp.events.getFirst());
    }

    static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(b)) {
            z.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }

    /**
     * A gzip file whose deflate data inflates to {@code changed} while its trailer still gives the
     * CRC of {@code original} (the same length): one duration changed, as a damaged byte would.
     */
    static byte[] wrongCrc(String original, String changed) throws IOException {
        byte[] gz = gzip(changed);
        CRC32 crc = new CRC32();
        crc.update(original.getBytes(StandardCharsets.UTF_8));
        ByteBuffer.wrap(gz, gz.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
        return gz;
    }

    @Test
    void aGzipWhoseCrcIsWrongIsRefusedInOneSentence() throws IOException {
        String changed = TRACE.replace("\"dur\": 2,", "\"dur\": 9,");
        Path f = file("t.json.gz", wrongCrc(TRACE, changed));
        CaptureFormatException e = assertThrows(CaptureFormatException.class,
                () -> new TraceTokenizer(f, 1 << 20, new Recorder()).read());
        assertTrue(e.getMessage().startsWith(f + " is damaged: gzip CRC mismatch"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void aGzipWhoseLengthIsWrongOrWithBytesAfterItIsRefused() throws IOException {
        byte[] gz = gzip(TRACE);
        byte[] badLength = gz.clone();
        badLength[badLength.length - 1] ^= 1;
        CaptureFormatException e = assertThrows(CaptureFormatException.class,
                () -> new TraceTokenizer(file("l.json.gz", badLength), 1 << 20, new Recorder()).read());
        assertTrue(e.getMessage().contains("gzip length mismatch"), e.getMessage());
        byte[] trailing = Arrays.copyOf(gz, gz.length + 3);
        e = assertThrows(CaptureFormatException.class,
                () -> new TraceTokenizer(file("g.json.gz", trailing), 1 << 20, new Recorder()).read());
        assertTrue(e.getMessage().contains("that are not gzip"), e.getMessage());
    }

    @Test
    void gzipMembersOneAfterAnotherReadAsOneStream() throws IOException {
        int cut = TRACE.indexOf("\"traceEvents\"");
        byte[] a = gzip(TRACE.substring(0, cut));
        byte[] b = gzip(TRACE.substring(cut));
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        Recorder r = new Recorder();
        new TraceTokenizer(file("m.json.gz", both), 1 << 20, r).read();
        assertEquals(2, r.events.size());
    }
}
