package dev.vprof.export;

import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.timeline.TimelineSource;
import dev.vprof.timeline.TimelineVisitor;
import java.io.IOException;
import java.util.List;

/**
 * One trace file being written from a {@link TimelineSource}, in the order every format needs:
 * what comes before any event (the start of the file, then each process's tracks, names and
 * capture ranges, then the requests, spans and counters, which are small and in the layout), then
 * the walk's events, each on a track declared before it. Perfetto's track and sequence ids follow
 * this order, so it is fixed here once.
 */
abstract class TraceSink implements TimelineVisitor {
    protected final Timeline timeline;

    TraceSink(Timeline timeline) {
        this.timeline = timeline;
    }

    /** The layout, then the walk's events. The caller ends the file. */
    final void write(TimelineSource source) throws IOException {
        begin();
        List<TimelineProcess> processes = timeline.processes();
        for (int p = 0; p < processes.size(); p++) {
            process(processes.get(p), p);
        }
        requests();
        spans();
        counters();
        source.walk(this);
    }

    /** The start of the file. */
    abstract void begin() throws IOException;

    /** Process {@code index}: its tracks, their names, and its capture ranges. */
    abstract void process(TimelineProcess process, int index) throws IOException;

    abstract void requests() throws IOException;

    abstract void spans() throws IOException;

    abstract void counters() throws IOException;
}
