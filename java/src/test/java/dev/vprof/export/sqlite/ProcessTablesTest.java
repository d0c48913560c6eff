package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.timeline.CaptureRange;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Processes, every thread with a name, wide thread ids whole, streams with their contexts, capture ranges. */
class ProcessTablesTest {
    @Test
    void everyThreadHasANameItsOwnOrItsProcesses() throws Exception {
        Timeline t = new Timeline();
        TimelineProcess p = t.process(1102, "python", List.of("python", "train.py"));
        p.thread(1102).name("pt_main_thread");
        p.thread(1262).name("pt_autograd_0");
        p.thread(-247463936L);
        p.thread(1300);
        p.device(0).stream(7).context(1);
        p.device(1).stream(9);
        p.addCaptureRange(new CaptureRange(0, 1_500, 2_500, "profiler"));
        ThreadIds threads = new ThreadIds(t);
        StringIds strings = new StringIds(t.strings());
        try (Connection c = Databases.withAllTables()) {
            ProcessTables.write(c, t, threads, strings, ns -> ns - 1_000);
            strings.write(c);
            assertEquals(List.of(List.of(Long.toString(NsysSchema.globalPid(1102)), "1102", "python")),
                    Databases.query(c, "SELECT globalPid, pid, name FROM PROCESSES"));
            assertEquals(List.of(List.of("1102", "pt_main_thread", "1"), List.of("1262", "pt_autograd_0", "1"),
                            List.of("-247463936", "python", "0"), List.of("1300", "python", "0")),
                    Databases.query(c, "SELECT v.tid, s.value, v.namedBySource FROM VPROF_THREADS v JOIN ThreadNames t "
                            + "ON t.globalTid = v.globalTid JOIN StringIds s ON s.id = t.nameId ORDER BY v.rowid"));
            assertEquals(List.of(List.of("4")), Databases.query(c, "SELECT count(DISTINCT globalTid) FROM ThreadNames"));
            assertEquals(List.of(List.of("7", "0", "1", "1102", "1", "0", "0"), List.of("9", "0", "1", "1102", "0", "0", "0")),
                    Databases.query(c, "SELECT * FROM TARGET_INFO_CUDA_STREAM ORDER BY streamId"));
            assertEquals(List.of(List.of("1102", "0", "500", "1500", "profiler")),
                    Databases.query(c, "SELECT pid, rangeIndex, start, end, source FROM VPROF_CAPTURE_RANGES"));
        }
    }
}
