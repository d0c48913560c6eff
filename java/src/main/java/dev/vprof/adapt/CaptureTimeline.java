package dev.vprof.adapt;

import dev.vprof.capture.BootClock;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ClockMapping;
import dev.vprof.capture.Warnings;
import dev.vprof.names.KernelNames;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanWindow;
import dev.vprof.time.CaptureWindow;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.timeline.TimelineSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Reads a capture file as the {@link TimelineSource} the exporters write: one clock (epoch ns) for
 * kernels (CUPTI time through each process's clock pairs), metric samples (the scrape's epoch time)
 * and spans (their own epoch ns).
 *
 * <p>Passes over the records: the first fits the clock mappings (the pairs are spread through the
 * file), the second maps each record as it streams by into the layout ({@link Timeline}). Each
 * trace is then written from one more pass, holding per track only what the file leaves out of
 * order: a 10 M-kernel capture exports within a 256 MiB heap.
 */
public final class CaptureTimeline {
    private CaptureTimeline() {}

    /**
     * What a build produced besides the timeline.
     *
     * @param window  the capture window spans and metrics were placed against
     * @param spans   which spans fell inside the window (on the timeline) and which outside (reported only)
     * @param notes   what was changed, left out or could not be read, one sentence each
     * @param gpuOps  kernels, copies and sets on the timeline
     * @param records records read in the mapping pass
     * @param source  what a trace is written from: the file streamed again
     */
    public record Result(Timeline timeline, CaptureWindow window, SpanWindow.Result spans, int requests,
                         long metricScrapes, int metricGaps, List<String> notes, long gpuOps, long records,
                         TimelineSource source) {
        public Result {
            notes = List.copyOf(notes);
        }
    }

    /** The adapter's notes: what it changed, left out or could not read, at most 100 sentences. */
    static Warnings notes() {
        return new Warnings(100, "notes");
    }

    /**
     * The capture as a streamed source: one pass over the records builds its layout (a
     * {@link Timeline}: every count, with the notes), and each walk is one more pass that hands the slices out, holding only what the file leaves out
     * of order ({@link StreamedCapture}). The reader must stay open while the source is walked.
     * {@code progress} hears the records read during the layout pass.
     */
    public static Result stream(CaptureReader reader, KernelNames names, LongConsumer progress) {
        Timeline timeline = new Timeline();
        Warnings notes = notes();
        Map<String, Integer> kernelNameIds = new HashMap<>();
        StreamedCapture.TrackTimes tracks = new StreamedCapture.TrackTimes();
        RecordAdapter records = mapRecords(reader, timeline, tracks, names, kernelNameIds, notes, progress);
        BootClock.of(reader).ifPresent(b -> timeline.bootOffsetNs(b.realtimeMinusBoottimeNs()));
        tracks.seal();
        StreamedCapture source = new StreamedCapture(reader, timeline, reader.clocks(), names, kernelNameIds, tracks);
        return result(reader, timeline, source, records, notes);
    }

    /** The fitting pass (the clocks), then the mapping pass into {@code out}. */
    private static RecordAdapter mapRecords(CaptureReader reader, Timeline timeline, AdaptedRecords out, KernelNames names,
                                            Map<String, Integer> kernelNameIds, Warnings notes, LongConsumer progress) {
        reader.processes().forEach(p -> {
            TimelineProcess process = describe(timeline.process(p.pid()), p.command())
                    .distributed(p.rank(), p.localRank(), p.worldSize()).facts(p.facts());
            p.threadNames().forEach((tid, name) -> process.thread(tid).name(name));
        });
        Map<Integer, ClockMapping> clocks = reader.clocks(); // the fitting pass
        RecordAdapter records = new RecordAdapter(timeline, out, clocks, names, kernelNameIds, notes, progress);
        reader.forEachRecord(records); // the mapping pass
        out.chunk(StreamedCapture.AFTER_LAST_CHUNK);
        records.finish();
        return records;
    }

    /** Window, metrics and spans onto the timeline, after the records. */
    private static Result result(CaptureReader reader, Timeline timeline, TimelineSource source, RecordAdapter records,
                                 Warnings notes) {
        CaptureWindow window = CaptureWindow.choose(reader.window().orElse(null), records.rangesStart,
                records.rangesEnd, records.dataStart, records.dataEnd);

        MetricTracks metrics = new MetricTracks(timeline);
        reader.scrapes(metrics).forEach(notes::add);
        metrics.finish(window.endNs());
        if (metrics.gaps() > 0) {
            notes.add(metrics.gaps() + " gap(s) in the metrics (scrapes failed): drawn on the '"
                    + MetricTracks.GAP_SERVICE + "' lane");
        }

        CaptureReader.Spans spans = reader.spans();
        spans.notes().forEach(notes::add);
        SpanWindow.Result placed = SpanWindow.filter(spans.spans(), window.startNs(), window.endNs());
        if (!window.present() && !spans.spans().isEmpty()) {
            // No window at all (a capture without records or ranges): keep every span rather than none.
            placed = new SpanWindow.Result(spans.spans(), List.of(), 0, 0, 0, 0, 0);
        }
        String outside = placed.describe();
        if (!outside.isEmpty()) {
            notes.add(outside);
        }
        int requests = SpanTracks.add(timeline, placed.inside());
        return new Result(timeline, window, placed, requests, metrics.scrapes, metrics.gaps(), notes.list(),
                records.gpuOps, records.records(), source);
    }

    private static TimelineProcess describe(TimelineProcess p, String command) {
        if (command == null || command.isBlank()) {
            return p;
        }
        List<String> argv = new ArrayList<>(List.of(command.trim().split("\\s+")));
        String exe = argv.getFirst();
        return p.describe(exe.substring(exe.lastIndexOf('/') + 1), argv);
    }

    /** The spans of a result that fell outside its window, for callers that list them. */
    public static List<Span> outside(Result r) {
        return r.spans().outside();
    }
}
