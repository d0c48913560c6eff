package dev.vprof.nsys;

import dev.vprof.VprofVersion;
import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Nsight Systems SQLite exports ({@code nsys export --type sqlite}, schema 2.x and 3.x) as a
 * source of a capture's records: kernels, copies, sets, CUDA runtime and driver calls, NVTX
 * ranges and marks, processes with their threads' names, GPUs, and the session clock's anchor,
 * streamed in start order into the same ring records an agent writes, one capture process per
 * nsys process. {@link #claims} and {@link #open} are what {@code source.CaptureSources} calls;
 * {@link #write} is {@code vprof import}'s. The mapping, and what is not read: docs/nsys-input.md.
 */
public final class NsysExport {
    private NsysExport() {}

    /** The source every process read from an export names in its facts. */
    public static final String SOURCE = "nsight-systems-export";

    /** One nsys process as one process of the capture. */
    public record ProcessSummary(int pid, String command, long kernels, long memcpys, long memsets, long apiCalls,
                                 long nvtxRanges, long nvtxMarks) {}

    /**
     * What a read made: the processes, the notes (one sentence each: tables it lacked, rows it left
     * out), the export's schema version (null: not said), and how many processes nsys listed that
     * had no row vprof reads (the system's other processes).
     */
    public record Result(List<ProcessSummary> processes, List<String> notes, String schema, int processesWithoutRows) {
        public Result {
            processes = List.copyOf(processes);
            notes = List.copyOf(notes);
        }

        public long kernels() {
            return processes.stream().mapToLong(ProcessSummary::kernels).sum();
        }
    }

    /**
     * Whether {@code path} is to be read as an Nsight Systems export: a file that starts as an
     * SQLite database does, or one named {@code .sqlite}/{@code .sqlite3} (so an empty or damaged
     * one gets the reader's sentence, not a capture reader's).
     */
    public static boolean claims(Path path) throws IOException {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".sqlite") || name.endsWith(".sqlite3") || NsysDatabase.startsAsSqlite(path);
    }

    /**
     * Reads {@code export} into a temporary capture in {@code tempDir} and opens it: the reader
     * names itself {@code export}, starts its warnings with the notes, and removes the capture
     * when closed; on failure nothing is left in {@code tempDir}.
     */
    public static CaptureReader open(Path export, Path tempDir) throws IOException {
        return CaptureReader.openConverted(export, tempDir.resolve("vprof-nsys"), "export.vprof",
                capture -> write(capture, export, List.of()).notes());
    }

    /**
     * Writes {@code export} as a new capture file {@code out} (replacing it: the caller checks
     * {@code --force}); on failure {@code out} is removed. The export is only read.
     */
    public static Result write(Path out, Path export, List<String> commandLine) throws IOException {
        return write(out, export, commandLine, true);
    }

    /** As {@link #write(Path, Path, List)}; {@code out} appears only when whole, replacing a file only when {@code replace}. */
    public static Result write(Path out, Path export, List<String> commandLine, boolean replace) throws IOException {
        try (NsysDatabase db = NsysDatabase.open(export)) {
            List<String> notes = new ArrayList<>();
            String schema = db.schemaVersion();
            if (schema != null && !schema.startsWith("2.") && !schema.startsWith("3.")) {
                notes.add(export.getFileName() + " is an export of schema " + schema + ", which vprof has not "
                        + "been checked against (it reads 2.x and 3.x); columns it does not know are not read");
            }
            SessionClock clock = SessionClock.read(db, notes);
            Map<String, String> facts = new LinkedHashMap<>();
            facts.put("source", SOURCE);
            facts.put("file", export.toString());
            facts.put("timePrecision", "ns");
            if (schema != null) {
                facts.put("nsysExportSchema", schema);
            }
            if (db.product() != null) {
                facts.put("nsysProduct", db.product());
            }
            Map<String, String> options = new LinkedHashMap<>();
            options.put("source", SOURCE);
            options.put("nsysExportSchema", schema == null ? "unknown" : schema);
            CaptureMetadata meta = new CaptureMetadata(host(db), clock.epochNs(clock.firstNs()), VprofVersion.get(),
                    commandLine, options);
            CaptureWriter writer = CaptureWriter.createWhole(out, meta, replace);
            boolean ok = false;
            try (RecordOut records = new RecordOut(writer)) {
                ProcessTable procs = new ProcessTable(db, writer, records, clock, facts);
                new ActivityRows(db, procs, records, notes).read();
                records.flush();
                writer.close();
                ok = true;
                List<ProcessSummary> summaries = new ArrayList<>();
                for (NsysProcess p : procs.processes()) {
                    summaries.add(new ProcessSummary(p.pid, p.name, p.kernels, p.memcpys, p.memsets, p.apiCalls,
                            p.ranges, p.marks));
                }
                return new Result(summaries, notes, schema, procs.unstarted());
            } catch (SQLException e) {
                throw db.damaged(e);
            } finally {
                if (!ok) {
                    writer.abandon(); // nothing under out: it was never moved there
                }
            }
        } catch (SQLException e) {
            throw NsysDatabase.damaged(export, e);
        } catch (ArithmeticException e) {
            throw new CaptureFormatException(export + " has times outside what 64-bit ns hold; "
                    + "it is not an export vprof reads");
        }
    }

    /** The profiled machine's name ({@code TARGET_INFO_SYSTEM_ENV}'s {@code Hostname}), or "". */
    private static String host(NsysDatabase db) throws SQLException {
        String t = "TARGET_INFO_SYSTEM_ENV";
        if (!db.columns(t).containsAll(List.of("name", "value"))) {
            return "";
        }
        try (Statement st = db.statement();
             ResultSet rs = st.executeQuery("SELECT value FROM " + t + " WHERE name = 'Hostname' LIMIT 1")) {
            return rs.next() && rs.getString(1) != null ? rs.getString(1) : "";
        }
    }
}
