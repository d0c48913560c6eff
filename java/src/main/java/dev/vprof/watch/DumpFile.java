package dev.vprof.watch;

import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ChunkInfo;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.WindowChunk;
import dev.vprof.html.HtmlReport;
import dev.vprof.names.KernelNames;
import dev.vprof.output.OutputFile;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import dev.vprof.report.TextReport;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A dump: one ordinary capture file made of the consecutive segments that cover a trigger's
 * window, its chunks copied as they are (RECORDS are the ring's bytes: a copy, not a re-encode),
 * with each process's prelude taken from the first segment it appears in only, one WINDOW over
 * all of them, and the watch's metadata naming what fired. Beside it, the report (text) and its
 * HTML page, made by {@code report} and {@code html} themselves.
 */
final class DumpFile {
    private DumpFile() {}

    /** What a dump holds, from its own report. */
    record Made(Path file, Path page, Path text, long startEpochNs, long endEpochNs, int segments, int missing,
                long bytes, long kernels, long requests, String verdict, String verdictTitle, long damaged) {}

    /**
     * Writes {@code out} from {@code segments} (consecutive, oldest first) and the report and page
     * beside it. {@code extra} goes into the metadata's options (what fired, when). Segments the
     * window lost meanwhile (a full disk took them) are skipped and counted.
     */
    static Made write(List<Segment> segments, Path out, List<String> commandLine, Map<String, String> extra)
            throws IOException {
        List<Segment> present = new ArrayList<>();
        for (Segment s : segments) {
            if (Files.isRegularFile(s.path())) {
                present.add(s);
            }
        }
        if (present.isEmpty()) {
            throw new IOException("none of the " + segments.size() + " segments of its window is left on disk");
        }
        long start = present.getFirst().startEpochNs();
        long end = present.getLast().endEpochNs();
        CaptureMetadata md;
        try (CaptureReader first = CaptureReader.open(present.getFirst().path())) {
            CaptureMetadata m = first.metadata().orElseThrow(() -> new IOException("segment "
                    + present.getFirst().path() + " has no metadata"));
            Map<String, String> opts = new LinkedHashMap<>(m.options());
            opts.remove("watch-segment");
            opts.put(WindowChunk.START_KEY, Long.toString(start));
            opts.putAll(extra);
            md = new CaptureMetadata(m.host(), start, m.vprofVersion(), commandLine, opts);
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        long damaged = 0;
        // Written aside and moved into place when whole (OutputFile, as every writer): a dump cut
        // short by a full disk or a signal leaves nothing under its name, and a killed watch's
        // temporary file is removed by the next writer into the folder. A later dump of the same
        // name replaces the earlier one, as before.
        CaptureWriter w = CaptureWriter.createWhole(out, md, true);
        try {
            Set<Integer> announced = new HashSet<>();
            for (int i = 0; i < present.size(); i++) {
                Segment s = present.get(i);
                Set<Integer> before = Set.copyOf(announced);
                try (CaptureReader r = CaptureReader.open(s.path())) {
                    damaged += r.damagedChunks();
                    for (ProcessInfo p : r.processes()) {
                        if (announced.add(p.pid())) {
                            w.process(p);
                        }
                    }
                    for (ChunkInfo c : r.chunks()) {
                        copy(r, c, s, i > 0, before, w, counts);
                    }
                }
            }
            w.chunk(CaptureFormat.KIND_WINDOW, new WindowChunk(start, end, counts).toJson());
        } catch (IOException | RuntimeException e) {
            w.abandon();
            throw e;
        }
        w.close();
        return describe(out, start, end, present.size(), segments.size() - present.size(), damaged);
    }

    private static void copy(CaptureReader r, ChunkInfo c, Segment s, boolean later, Set<Integer> earlier,
                             CaptureWriter w, Map<String, Long> counts) throws IOException {
        int kind = c.kind();
        if (kind == CaptureFormat.KIND_METADATA || kind == CaptureFormat.KIND_PROCESS || kind == CaptureFormat.KIND_INDEX) {
            return;
        }
        Optional<byte[]> got = r.payload(c);
        if (got.isEmpty()) {
            return; // damaged: the segment's own reader counted it
        }
        byte[] payload = got.get();
        if (kind == CaptureFormat.KIND_RECORDS) {
            if (payload.length < CaptureFormat.RECORDS_HEADER_SIZE) {
                return;
            }
            int pid = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            // A later segment's prelude repeats what an earlier segment of this dump already holds.
            if (later && c.offset() < s.bodyOffset() && earlier.contains(pid)) {
                return;
            }
            w.records(pid, MemorySegment.ofArray(payload), CaptureFormat.RECORDS_HEADER_SIZE,
                    payload.length - CaptureFormat.RECORDS_HEADER_SIZE);
        } else if (kind == CaptureFormat.KIND_WINDOW) {
            r.window().ifPresent(win -> win.counts().forEach((k, v) -> counts.merge(k, v, Long::sum)));
        } else {
            w.chunk(kind, payload);
        }
    }

    /** The dump's own report: the verdict, the page and the text beside the file. */
    private static Made describe(Path file, long start, long end, int segments, int missing, long damaged)
            throws IOException {
        String base = file.getFileName().toString().replaceFirst("\\.vprof$", "");
        Path page = file.resolveSibling(base + ".html");
        Path text = file.resolveSibling(base + ".txt");
        try (CaptureReader r = CaptureReader.open(file)) {
            Report report = CaptureReport.build(r, 10);
            HtmlReport.write(HtmlReport.render(r, report, KernelNames.demangled()), page);
            try (OutputFile f = OutputFile.create(text, true)) {
                f.stream().write(TextReport.render(report).getBytes(StandardCharsets.UTF_8));
                f.commit();
            }
            long requests = report.spans() == null ? 0 : report.spans().requests();
            return new Made(file, page, text, start, end, segments, missing, Files.size(file),
                    report.totals().kernels(), requests,
                    report.verdict() == null ? null : report.verdict().verdict(),
                    report.verdict() == null ? null : report.verdict().title(), damaged + r.damagedChunks());
        }
    }
}
