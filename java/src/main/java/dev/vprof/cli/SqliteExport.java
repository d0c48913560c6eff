package dev.vprof.cli;

import dev.vprof.VprofVersion;
import dev.vprof.capture.CaptureReader;
import dev.vprof.export.sqlite.SqliteWriter;
import dev.vprof.names.KernelNames;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.Report;
import dev.vprof.timeline.TimelineSource;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code vprof export -o OUT.sqlite}: what the SQLite sink needs besides the walk. Its kernel names
 * must be as recorded (it writes mangled, demangled and short names itself), and its VPROF_ tables
 * take GPU time per request phase, drops by range and the devices from the report's own pass, so
 * that they are the numbers {@code vprof report} gives.
 */
final class SqliteExport {
    private SqliteExport() {}

    /** How the walk of an SQLite export names kernels. */
    static KernelNames walkNames() {
        return KernelNames.asRecorded();
    }

    /** Writes {@code source}, a walk of {@code reader}'s capture, to {@code out}. */
    static SqliteWriter.Stats write(CaptureReader reader, Path file, TimelineSource source, Path out, boolean replace)
            throws IOException {
        Report report = CaptureReport.build(reader, 0);
        SqliteWriter.Facts facts = new SqliteWriter.Facts(file.toString(), reader.metadata().orElse(null), report,
                reader.warnings(), VprofVersion.get());
        return SqliteWriter.write(source, out, facts, replace);
    }
}
