package dev.vprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.adapt.ApiNames;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CpuOpEvent;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RecordLists;
import dev.vprof.source.CaptureSources;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strange and bad PyTorch profiler traces: each either reads with a named warning or is refused
 * with one sentence naming the file, and nothing is read past a bound. Traces are written by hand
 * here, so every expected number is in the test.
 */
class TorchTraceInputTest {
    @TempDir
    Path dir;

    private static final String KERNEL = """
            {"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": 7, "ts": %s, "dur": %s,
             "args": {"device": 0, "context": 1, "stream": 7, "correlation": %d, "registers per thread": 32,
                      "shared memory": 0, "grid": [4, 2, 1], "block": [128, 1, 1]}}""";

    private static String kernel(String name, String ts, String dur, int corr) {
        return KERNEL.formatted(name, ts, dur, corr);
    }

    private Path trace(String name, String events, String tail) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, "{\"schemaVersion\": 1, \"traceEvents\": [" + events + "]" + tail + "}");
        return f;
    }

    private static RecordLists read(Path trace, List<String> warnings, List<ProcessInfo> processes) throws IOException {
        RecordLists seen = new RecordLists();
        try (CaptureReader r = CaptureSources.open(trace)) {
            r.forEachRecord(seen);
            warnings.addAll(r.warnings());
            processes.addAll(r.processes());
        }
        return seen;
    }

    private static RecordLists read(Path trace, List<String> warnings) throws IOException {
        return read(trace, warnings, new ArrayList<>());
    }

    private static void refused(Path trace, String... phrases) {
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureSources.open(trace));
        assertTrue(e.getMessage().contains(trace.toString()), e.getMessage());
        for (String p : phrases) {
            assertTrue(e.getMessage().contains(p), "'" + p + "' not in: " + e.getMessage());
        }
        assertTrue(!e.getMessage().contains("\n"), "one sentence: " + e.getMessage());
    }

    @Test
    void timesKeepTheirNanosecondsFromTheBaseAndTheNumbersText() throws IOException {
        Path f = trace("ns.json", kernel("k", "1419247333430.849", "3.136", 5),
                ", \"baseTimeNanoseconds\": 1751410836000000000");
        List<ProcessInfo> procs = new ArrayList<>();
        RecordLists s = read(f, new ArrayList<>(), procs);
        long start = 1751410836000000000L + 1419247333430849L;
        assertEquals(List.of(start), s.starts);
        assertEquals(List.of(start + 3136), s.ends);
        assertEquals("ns", procs.getFirst().facts().get("timePrecision"));
        KernelDesc d = s.descs.getFirst();
        assertEquals(List.of(0, 7, 4, 2, 1, 128, 32), List.of(d.deviceId(), d.streamId(), d.gridX(), d.gridY(),
                d.gridZ(), d.blockX(), d.registers()));
    }

    @Test
    void wholeMicrosecondTracesSayTheirPrecision() throws IOException {
        List<ProcessInfo> procs = new ArrayList<>();
        read(trace("us.json", kernel("k", "1661203463029566", "7", 1), ""), new ArrayList<>(), procs);
        assertEquals("us", procs.getFirst().facts().get("timePrecision"));
    }

    @Test
    void anOldTraceWithCapitalCategoriesAndStreamThreadNamesReads() throws IOException {
        Path f = trace("old.json", """
                {"ph": "X", "cat": "Kernel", "name": "old_kernel", "pid": 2, "tid": "stream 9", "ts": 100,
                 "dur": 5, "args": {"correlation": 3}},
                {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 77, "tid": 78, "ts": 99,
                 "dur": 2, "args": {"correlation": 3}}""", "");
        List<ProcessInfo> procs = new ArrayList<>();
        RecordLists s = read(f, new ArrayList<>(), procs);
        assertEquals(List.of("old_kernel"), s.names);
        assertEquals(2, s.descs.getFirst().deviceId());
        assertEquals(9, s.descs.getFirst().streamId());
        assertEquals(1, s.apis.size());
        assertEquals(211, s.apis.getFirst().cbid()); // cudaLaunchKernel, found by name: no cbid in the event
        assertEquals(77, procs.getFirst().pid());
    }

    @Test
    void annotationsBecomeRangesAndCpuOpsTheirOwnRecords() throws IOException {
        Path f = trace("ann.json", """
                {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 10, "tid": 11, "ts": 1000,
                 "dur": 50},
                {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 11, "ts": 1010, "dur": 5},
                {"ph": "X", "cat": "python_function", "name": "model.py(3): f", "pid": 10, "tid": 12, "ts": 1009,
                 "dur": 7}""", "");
        RecordLists s = read(f, new ArrayList<>());
        assertEquals(2, s.markers.size(), "the annotation's START and END; no marker for a CPU op");
        MarkerEvent step = s.markers.get(0);
        assertEquals("ProfilerStep#3", step.name());
        assertEquals(11, step.tid());
        assertEquals(2, s.cpuOps.size());
        CpuOpEvent op = s.cpuOps.get(0);
        assertEquals("aten::mm", op.name());
        assertEquals(VprofRing.CPU_OP_OPERATOR, op.kind());
        assertEquals(11, op.tid());
        assertEquals(1_010_000L, op.start());
        assertEquals(1_015_000L, op.end());
        CpuOpEvent py = s.cpuOps.get(1);
        assertEquals(VprofRing.CPU_OP_PYTHON, py.kind());
        assertEquals(List.of("model.py(3): f", 12, 1_009_000L, 1_016_000L), List.of(py.name(), py.tid(), py.start(), py.end()));
    }

    @Test
    void memcpyKindsComeFromTheName() throws IOException {
        Path f = trace("cp.json", """
                {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7,
                 "ts": 10, "dur": 2, "args": {"device": 0, "stream": 7, "correlation": 4, "bytes": 4096}}""", "");
        MemcpyEvent m = read(f, new ArrayList<>()).memcpys.getFirst();
        assertEquals(List.of(2, 3, 2, 4096L), List.of(m.copyKind(), m.srcKind(), m.dstKind(), m.bytes()));
    }

    @Test
    void aTruncatedGzipIsRefused() throws IOException {
        byte[] whole = Files.readAllBytes(TraceOracle.REAL.resolve("hta/trace_compare/base/base.json.gz"));
        Path f = dir.resolve("cut.json.gz");
        Files.write(f, Arrays.copyOf(whole, whole.length / 2));
        refused(f, "cut short");
    }

    @Test
    void invalidJsonIsRefusedWithWhereItBroke() throws IOException {
        Path f = dir.resolve("bad.json");
        Files.writeString(f, "{\"traceEvents\": [{\"ph\": \"X\",, }]}");
        refused(f, "not valid JSON", "line 1");
    }

    @Test
    void aChromeTraceNotFromPyTorchIsRefused() throws IOException {
        Path obj = trace("chrome.json", """
                {"ph": "X", "cat": "v8", "name": "Compile", "pid": 1, "tid": 1, "ts": 1, "dur": 2}""", "");
        refused(obj, "not a PyTorch profiler trace");
        Path arr = dir.resolve("array.json");
        Files.writeString(arr, "[{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1, \"dur\": 1}]");
        refused(arr, "array");
    }

    @Test
    void aGzipBombStopsAtMaxBytes() throws IOException {
        Path f = dir.resolve("bomb.json.gz");
        byte[] spaces = new byte[1 << 20];
        Arrays.fill(spaces, (byte) ' ');
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
            out.write("{\"traceEvents\": [".getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 64; i++) {
                out.write(spaces);
            }
            out.write("]}".getBytes(StandardCharsets.US_ASCII));
        }
        assertTrue(Files.size(f) < 1 << 20, "the bomb is small on disk");
        CaptureFormatException e = assertThrows(CaptureFormatException.class,
                () -> CaptureSources.open(f, new TorchTraceOptions(16L << 20, true)));
        assertTrue(e.getMessage().contains("more than 16777216 bytes") && e.getMessage().contains("--max-bytes"),
                e.getMessage());
    }

    @Test
    void aSingleLineLongerThanMaxBytesStopsThere() throws IOException {
        // A trace of one line (as Kineto writes them) is read at its bound, not to its end.
        StringBuilder events = new StringBuilder();
        for (int i = 0; i < 40_000; i++) {
            events.append(i == 0 ? "" : ",").append(kernel("k" + (i % 7), Integer.toString(1000 + i), "1", i + 1)
                    .replace('\n', ' '));
        }
        Path f = trace("line.json", events.toString(), "");
        long size = Files.size(f);
        assertEquals(-1, Files.readString(f).indexOf('\n'));
        CaptureFormatException e = assertThrows(CaptureFormatException.class,
                () -> CaptureSources.open(f, new TorchTraceOptions(size / 2, true)));
        assertTrue(e.getMessage().contains("--max-bytes"), e.getMessage());
    }

    @Test
    void aStringTokenPastTheReadersBoundIsRefused() throws IOException {
        Path f = dir.resolve("token.json");
        try (OutputStream out = Files.newOutputStream(f)) {
            out.write("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"".getBytes(StandardCharsets.US_ASCII));
            byte[] a = new byte[1 << 20];
            Arrays.fill(a, (byte) 'a');
            for (int i = 0; i <= TraceTokenizer.MAX_TOKEN_CHARS >> 20; i++) {
                out.write(a);
            }
            out.write("\"}]}".getBytes(StandardCharsets.US_ASCII));
        }
        refused(f, "bounds");
    }

    @Test
    void aTenMegabyteKernelNameIsCutCountedAndNamed() throws IOException {
        String huge = "void k<" + "int, ".repeat(2_000_000) + "int>()";
        Path f = trace("huge.json", kernel(huge, "10", "1", 1) + "," + kernel(huge, "20", "1", 2)
                + "," + kernel("small", "30", "1", 3), "");
        List<String> warnings = new ArrayList<>();
        RecordLists s = read(f, warnings);
        assertEquals(3, s.names.size());
        assertEquals(s.names.get(0), s.names.get(1));
        assertEquals(4096, s.names.get(0).getBytes(StandardCharsets.UTF_8).length);
        assertTrue(huge.startsWith(s.names.get(0)));
        assertEquals("small", s.names.get(2));
        assertTrue(warnings.stream().anyMatch(w -> w.contains("1 names longer than 4096 bytes were cut")
                && w.contains(Integer.toString(huge.length()))), warnings.toString());
    }

    @Test
    void controlCharactersInNamesAreKeptAsTheyAre() throws IOException {
        RecordLists s = read(trace("ctl.json", kernel("a\\u0001b\\u001b[31mc\\ud83d\\ude00", "10", "1", 1), ""),
                new ArrayList<>());
        assertEquals(List.of("a\u0001b\u001b[31mc\uD83D\uDE00"), s.names);
    }

    @Test
    void invalidUtf8AndRawControlCharactersAreRefused() throws IOException {
        Path f = dir.resolve("utf8.json");
        byte[] head = ("{\"traceEvents\": [" + kernel("x", "1", "1", 1).replace("\"x\"", "\"X\"")).getBytes(StandardCharsets.UTF_8);
        String s = new String(head, StandardCharsets.UTF_8);
        int at = s.indexOf("\"X\"") + 1;
        head[at] = (byte) 0xff;
        Files.write(f, concat(head, "]}".getBytes(StandardCharsets.US_ASCII)));
        refused(f, "not valid JSON", "UTF-8");
        Path g = dir.resolve("raw.json");
        Files.writeString(g, "{\"traceEvents\": [" + kernel("a\u0001b", "1", "1", 1) + "]}");
        refused(g, "not valid JSON");
    }

    @Test
    void bytesTheJsonReaderTakesForUtf32AreRefused() throws IOException {
        // Gzip hides the head from the sniffer; three zero bytes first make the JSON reader guess UTF-32; the next code point is beyond
        // Unicode (what the fuzz test found): a decoding failure, refused like any other bad text.
        Path f = dir.resolve("utf32.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
            out.write(new byte[] {0, 0, 0, '{', 0, '?', 0, 0});
        }
        // The input sniffer or the tokenizer refuses it, whichever looks first; one sentence either way.
        refused(f, "JSON");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @Test
    void negativeAndNotANumberDurationsAreLeftOutAndCounted() throws IOException {
        List<String> warnings = new ArrayList<>();
        RecordLists s = read(trace("neg.json", kernel("neg", "10", "-3", 1) + "," + kernel("nan", "10", "\"NaN\"", 2)
                + "," + kernel("ok", "10", "1", 3), ""), warnings);
        assertEquals(List.of("ok"), s.names);
        assertTrue(warnings.stream().anyMatch(w -> w.contains("1 events with a negative duration")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("1 complete events without ts or dur")), warnings.toString());
        refused(trace("nan.json", kernel("nan", "10", "NaN", 2), ""), "not valid JSON");
    }

    @Test
    void eventsOutOfOrderAreAllKept() throws IOException {
        StringBuilder ev = new StringBuilder();
        for (int i = 9; i >= 0; i--) {
            ev.append(i == 9 ? "" : ",").append(kernel("k", Integer.toString(100 + 10 * i), "2", i + 1));
        }
        RecordLists s = read(trace("order.json", ev.toString(), ""), new ArrayList<>());
        assertEquals(10, s.names.size());
        assertEquals(100_000L, s.starts.stream().mapToLong(Long::longValue).min().orElseThrow());
    }

    @Test
    void duplicatedCorrelationIdsAreNamed() throws IOException {
        String api = """
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": %d,
                 "dur": 1, "args": {"cbid": 211, "correlation": 42}}""";
        List<String> warnings = new ArrayList<>();
        RecordLists s = read(trace("dup.json", api.formatted(1) + "," + api.formatted(5) + "," + kernel("k", "3", "1", 42), ""),
                warnings);
        assertEquals(2, s.apis.size());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("1 CUDA API calls repeat a correlation id")),
                warnings.toString());
    }

    @Test
    void aCallCuptiDoesNotNumberKeepsItsOwnName() throws IOException {
        RecordLists s = read(trace("api.json", """
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaFancyNewCall", "pid": 5, "tid": 5, "ts": 1,
                 "dur": 1, "args": {"correlation": 9}},
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": 3,
                 "dur": 1, "args": {"correlation": 10, "cbid": 211}},
                {"ph": "X", "cat": "cuda_driver", "name": "cuFutureCall", "pid": 5, "tid": 5, "ts": 5,
                 "dur": 1, "args": {"correlation": 11, "cbid": 9999}}""", ""), new ArrayList<>());
        assertEquals(3, s.apis.size());
        ApiEvent named = s.apis.get(0);
        assertEquals(List.of(0, "cudaFancyNewCall"), List.of(named.cbid(), named.name()));
        assertEquals(null, s.apis.get(1).name(), "CUPTI's own name of cbid 211 needs nothing kept");
        assertEquals("cudaLaunchKernel", ApiNames.name(s.apis.get(1)));
        ApiEvent future = s.apis.get(2);
        assertEquals(List.of(9999, "cuFutureCall"), List.of(future.cbid(), future.name()),
                "a cbid CUPTI does not define keeps the trace's name");
        assertEquals("driver API cbid 9999 (not a CUPTI callback id)", ApiNames.name(VprofRing.API_DRIVER, 9999));
    }

    @Test
    void aFolderMixingRanksOfTwoRunsNamesTheFiles() throws IOException {
        Path mixed = Files.createDirectory(dir.resolve("mixed"));
        Path a = mixed.resolve("a.pt.trace.json.gz");
        Path b = mixed.resolve("b.pt.trace.json.gz");
        // base (rank 1) and test (rank 1) of HTA's compare pair: two runs, the same rank.
        Files.copy(TraceOracle.REAL.resolve("hta/trace_compare/base/base.json.gz"), a);
        Files.copy(TraceOracle.REAL.resolve("hta/trace_compare/test/test.json.gz"), b);
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureSources.open(mixed));
        assertTrue(e.getMessage().contains(a.toString()) && e.getMessage().contains(b.toString())
                && e.getMessage().contains("two runs"), e.getMessage());
    }

    @Test
    void aRocmTraceReadsItsKernelsAndSaysWhatItLeftOut() throws IOException {
        Path rocm = TraceOracle.REAL.resolve("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz");
        List<String> warnings = new ArrayList<>();
        RecordLists s = read(rocm, warnings);
        assertEquals(TraceOracle.kernels(rocm).count(), s.names.size());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("ROCm") && w.contains("HIP API calls are not")),
                warnings.toString());
    }

    @Test
    void theTemporaryCaptureIsRemovedWhenTheReaderClosesOrTheTraceIsRefused() throws IOException {
        Path f = trace("tmp.json", kernel("k", "1", "1", 1), "");
        Path temp = Files.createDirectory(dir.resolve("temp"));
        try (CaptureReader r = CaptureSources.open(f, TorchTraceOptions.defaults(), temp)) {
            assertEquals(f, r.path());
            try (var s = Files.list(temp)) {
                assertEquals(1, s.count());
            }
        }
        try (var s = Files.list(temp)) {
            assertEquals(0, s.count());
        }
        Path bad = dir.resolve("bad2.json");
        Files.writeString(bad, "{\"traceEvents\": [");
        assertThrows(CaptureFormatException.class, () -> CaptureSources.open(bad, TorchTraceOptions.defaults(), temp));
        try (var s = Files.list(temp)) {
            assertEquals(0, s.count());
        }
    }
}
