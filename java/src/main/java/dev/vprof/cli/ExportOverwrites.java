package dev.vprof.cli;

import dev.vprof.export.Exporter;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.nio.file.Path;
import java.util.List;

/**
 * The no-overwrite rule for a Kineto export, whose files are known only once the capture's
 * processes are: {@code OUT} for one process, {@code OUT-pidPID.json} for each of several.
 */
final class ExportOverwrites {
    private ExportOverwrites() {}

    /** The sentence refusing the first file of the export that exists (without --force), or null. */
    static String kinetoFileInTheWay(Timeline timeline, Path out, boolean force) {
        List<TimelineProcess> processes = timeline.processes();
        try {
            if (processes.size() <= 1) {
                OutputPath.refuseExisting(out, force, "the trace");
            } else {
                for (TimelineProcess p : processes) {
                    OutputPath.refuseExisting(Exporter.perProcess(out, p.pid()), force, "the trace");
                }
            }
        } catch (CliException e) {
            return e.getMessage();
        }
        return null;
    }
}
