package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.output.Leftovers;
import dev.vprof.timeline.ListTimeline;
import dev.vprof.timeline.Timeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExporterTest {
    @TempDir
    Path dir;

    @Test
    void formatComesFromTheExtensionWhenNotGiven() {
        assertEquals(ExportFormat.PERFETTO, ExportFormat.choose(null, Path.of("out.pftrace")));
        assertEquals(ExportFormat.PERFETTO, ExportFormat.choose("", Path.of("x/out.perfetto-trace")));
        assertEquals(ExportFormat.CHROME, ExportFormat.choose(null, Path.of("OUT.JSON")));
        assertEquals(ExportFormat.KINETO, ExportFormat.choose("Kineto", Path.of("out.json")));
        assertEquals(ExportFormat.KINETO, ExportFormat.choose(null, Path.of("tb/worker.pt.trace.json")));
    }

    @Test
    void anUnclearExtensionOrUnknownFormatIsAnErrorThatSaysWhatToDo() {
        var e = assertThrows(IllegalArgumentException.class, () -> ExportFormat.choose(null, Path.of("trace.bin")));
        assertTrue(e.getMessage().contains("--format perfetto|chrome|kineto"), e.getMessage());
        var f = assertThrows(IllegalArgumentException.class, () -> ExportFormat.parse("nsys"));
        assertTrue(f.getMessage().contains("unknown export format 'nsys'"), f.getMessage());
    }

    @Test
    void eachFormatWritesItsFileAndLeavesNoPartialFileBehind() throws IOException {
        ListTimeline t = SampleTimelines.everything();
        Path pf = dir.resolve("t.pftrace");
        assertEquals(List.of(pf), Exporter.export(t, pf, ExportFormat.PERFETTO));
        assertTrue(PerfettoTraceReader.read(Files.readAllBytes(pf)).packets > 10);
        Path json = dir.resolve("t.json");
        Exporter.export(t, json, ExportFormat.CHROME);
        assertTrue(Files.readString(json).startsWith("{\"displayTimeUnit\""));
        Path kineto = dir.resolve("k.json");
        assertEquals(List.of(kineto), Exporter.export(t, kineto, ExportFormat.KINETO));
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(Leftovers::isTemporary));
        }
    }

    @Test
    void kinetoWritesOneFilePerProcessBecauseHtaReadsOneFilePerRank() throws IOException {
        ListTimeline t = SampleTimelines.everything();
        t.kernel(t.process(777, "worker-1", List.of()).device(0).stream(7), t.intern("k"), SampleTimelines.T0, SampleTimelines.T0 + 5, 0, 1, 1, 1, 1, 1, 1, 0, 0);
        List<Path> files = Exporter.export(t, dir.resolve("trace.json"), ExportFormat.KINETO);
        assertEquals(List.of(dir.resolve("trace-pid4242.json"), dir.resolve("trace-pid777.json")), files);
        assertTrue(Files.exists(files.get(1)));
        assertEquals(dir.resolve("w-pid777.pt.trace.json"), Exporter.perProcess(dir.resolve("w.pt.trace.json"), 777),
                "TensorBoard reads only *.pt.trace.json");
    }

    @Test
    void kinetoFilesNoteOtherTracesInTheFolderBecauseHtaReadsEveryJsonThereAsARank() throws IOException {
        Files.writeString(dir.resolve("old-chrome.json"), "{}");
        ListTimeline t = SampleTimelines.everything();
        KinetoFiles.Result r = KinetoFiles.write(t, dir.resolve("trace.json"), null);
        assertEquals(List.of(dir.resolve("trace.json")), r.paths());
        assertEquals(1, r.notes().size(), r.notes().toString());
        assertTrue(r.notes().getFirst().contains("also holds old-chrome.json; give the export a folder of its own"),
                r.notes().getFirst());
        assertTrue(KinetoFiles.write(t, Files.createDirectories(dir.resolve("own")).resolve("t.json"), null).notes().isEmpty());
    }

    @Test
    void aMissingOutputDirectoryIsReportedByName() {
        Path out = dir.resolve("no-such-dir").resolve("t.pftrace");
        var e = assertThrows(IOException.class, () -> Exporter.export(new ListTimeline(), out, ExportFormat.PERFETTO));
        assertTrue(e.getMessage().contains("no-such-dir"), e.getMessage());
    }
}
