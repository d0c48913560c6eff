package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.adapt.DisorderlyCapture;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ChunkInfo;
import dev.vprof.names.KernelNames;
import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.TimelineSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture streamed from its file through the per-track reorder windows exports exactly what the
 * simplest source of the same events exports ({@link ListTimeline}: each track a list, sorted whole,
 * its NVTX ranges nested from the complete ranges): Perfetto packet for packet on every sequence,
 * Chrome JSON and Kineto JSON event for event (their order in the file is free). So each track
 * leaves the windows in slice order and the ranges nest as a sort of the whole would nest them.
 */
class StreamedExportTest {
    @TempDir
    Path dir;

    /** A format written from a source. */
    interface Write {
        void to(TimelineSource source, Path out) throws IOException;
    }

    /**
     * {@code write} from the streamed file, and from its events as lists sorted whole (into
     * "memory"), each into its own folder.
     */
    private void both(Path capture, Write write, String name) throws IOException {
        Files.createDirectories(dir.resolve("memory"));
        Files.createDirectories(dir.resolve("streamed"));
        try (CaptureReader reader = CaptureReader.open(capture)) {
            TimelineSource streamed = CaptureTimeline.stream(reader, KernelNames.demangled(), null).source();
            write.to(streamed, dir.resolve("streamed").resolve(name));
            write.to(ListTimeline.of(streamed), dir.resolve("memory").resolve(name));
        }
    }

    private void assertSamePerfetto(Path capture, PerfettoWriter.Options options) throws IOException {
        both(capture, (s, out) -> Files.write(out, perfetto(s, options)), "t.pftrace");
        Map<Long, List<ByteString>> memory = PerfettoTraceReader.packetsBySequence(Files.readAllBytes(dir.resolve("memory/t.pftrace")));
        Map<Long, List<ByteString>> streamed = PerfettoTraceReader.packetsBySequence(Files.readAllBytes(dir.resolve("streamed/t.pftrace")));
        assertEquals(memory.keySet(), streamed.keySet(), "the same sequences");
        for (Long seq : memory.keySet()) {
            assertEquals(memory.get(seq), streamed.get(seq), "packets of sequence " + seq);
        }
        assertTrue(memory.size() > 10, "tracks of every kind: " + memory.size() + " sequences");
    }

    private static byte[] perfetto(TimelineSource s, PerfettoWriter.Options options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PerfettoWriter(options).write(s, out);
        return out.toByteArray();
    }

    /** A JSON trace's text outside the event list, then its events sorted. */
    static List<String> jsonEvents(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> frame = new ArrayList<>();
        List<String> events = new ArrayList<>();
        int state = 0;
        for (String line : lines) {
            if (state == 0) {
                frame.add(line);
                state = line.endsWith("\"traceEvents\":[") || line.endsWith("\"traceEvents\": [") ? 1 : 0;
            } else if (state == 1 && line.stripLeading().startsWith("]")) {
                frame.add(line);
                state = 2;
            } else if (state == 1) {
                events.add(line.endsWith(",") ? line.substring(0, line.length() - 1) : line);
            } else {
                frame.add(line);
            }
        }
        events.sort(null);
        frame.add("-- " + events.size() + " events --");
        frame.addAll(events);
        return frame;
    }

    @Test
    void aDisorderlyCaptureStreamedGivesTheSamePerfettoTracePacketForPacket() throws IOException {
        for (long seed = 1; seed <= 4; seed++) {
            Path capture = DisorderlyCapture.write(dir.resolve("c" + seed + ".vprof"), seed, 120, 40);
            assertSamePerfetto(capture, PerfettoWriter.Options.defaults().uncompressed());
        }
    }

    @Test
    void compressedAndLeanPerfettoAreTheSameStreamedToo() throws IOException {
        Path capture = DisorderlyCapture.write(dir.resolve("c.vprof"), 9, 80, 25);
        assertSamePerfetto(capture, PerfettoWriter.Options.defaults());
        assertSamePerfetto(capture, PerfettoWriter.Options.lean());
    }

    @Test
    void aDisorderlyCaptureStreamedGivesTheSameChromeJsonEvents() throws IOException {
        Path capture = DisorderlyCapture.write(dir.resolve("c.vprof"), 5, 120, 40);
        both(capture, (s, out) -> Exporter.export(s, out, ExportFormat.CHROME), "t.json");
        List<String> memory = jsonEvents(dir.resolve("memory/t.json"));
        assertEquals(memory, jsonEvents(dir.resolve("streamed/t.json")));
        assertTrue(memory.stream().anyMatch(l -> l.contains("\"ph\":\"f\"")), "flows from launches to kernels");
        assertTrue(memory.stream().anyMatch(l -> l.contains("\"cat\":\"nvtx\"")), "NVTX ranges");
    }

    @Test
    void aDisorderlyCaptureStreamedGivesTheSameKinetoFilesWithSteps() throws IOException {
        Path capture = DisorderlyCapture.write(dir.resolve("c.vprof"), 6, 120, 40);
        ProfilerSteps.Spec steps = ProfilerSteps.Spec.parse("nvtx:step");
        both(capture, (s, out) -> KinetoFiles.write(s, out, steps), "t.json");
        List<Path> files;
        try (Stream<Path> list = Files.list(dir.resolve("memory"))) {
            files = list.map(Path::getFileName).sorted().toList();
        }
        assertEquals(2, files.size(), "one file per process: " + files);
        for (Path f : files) {
            List<String> memory = jsonEvents(dir.resolve("memory").resolve(f));
            assertEquals(memory, jsonEvents(dir.resolve("streamed").resolve(f)), f.toString());
            assertTrue(memory.stream().anyMatch(l -> l.contains("ProfilerStep#119")), "120 steps in " + f);
        }
    }

    @Test
    void theSyntheticCaptureWithSpansAndMetricsStreamsAlike() throws IOException {
        Path capture = SyntheticCapture.write(dir.resolve("s.vprof"), true);
        both(capture, (s, out) -> Files.write(out, perfetto(s, PerfettoWriter.Options.defaults())), "t.pftrace");
        Map<Long, List<ByteString>> memory = PerfettoTraceReader.packetsBySequence(Files.readAllBytes(dir.resolve("memory/t.pftrace")));
        assertEquals(memory, PerfettoTraceReader.packetsBySequence(Files.readAllBytes(dir.resolve("streamed/t.pftrace"))));
    }

    /**
     * A file cut inside a RECORDS chunk: the whole records before the cut come back last, as a
     * chunk after every other, and stream through the windows like any chunk's.
     */
    @Test
    void aCaptureCutInsideAChunkStreamsItsRecoveredRecordsToo() throws IOException {
        Path whole = DisorderlyCapture.write(dir.resolve("whole.vprof"), 11, 120, 40);
        List<ChunkInfo> records;
        try (CaptureReader reader = CaptureReader.open(whole)) {
            records = reader.chunks(CaptureFormat.KIND_RECORDS);
        }
        ChunkInfo cut = records.get(records.size() * 3 / 5);
        Path torn = dir.resolve("torn.vprof");
        byte[] bytes = Files.readAllBytes(whole);
        Files.write(torn, Arrays.copyOf(bytes, (int) (cut.offset() + CaptureFormat.CHUNK_HEADER_SIZE + cut.length() / 2)));
        try (CaptureReader reader = CaptureReader.open(torn)) {
            assertTrue(reader.unverifiedRecords() > 0, "records recovered from the cut chunk: " + reader.warnings());
        }
        assertSamePerfetto(torn, PerfettoWriter.Options.defaults().uncompressed());
        both(torn, (s, out) -> Exporter.export(s, out, ExportFormat.CHROME), "t.json");
        assertEquals(jsonEvents(dir.resolve("memory/t.json")), jsonEvents(dir.resolve("streamed/t.json")));
    }

    @Test
    void aStreamedSourceCanBeWalkedAgainForAnotherFormat() throws IOException {
        Path capture = DisorderlyCapture.write(dir.resolve("c.vprof"), 3, 40, 20);
        try (CaptureReader reader = CaptureReader.open(capture)) {
            TimelineSource s = CaptureTimeline.stream(reader, KernelNames.demangled(), null).source();
            byte[] first = perfetto(s, PerfettoWriter.Options.defaults().uncompressed());
            Exporter.export(s, dir.resolve("between.json"), ExportFormat.CHROME);
            byte[] again = perfetto(s, PerfettoWriter.Options.defaults().uncompressed());
            assertTrue(Arrays.equals(first, again), "a second walk writes the same bytes");
        }
    }
}
