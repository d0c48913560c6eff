package dev.vprof.export.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.adapt.SyntheticCapture;
import dev.vprof.capture.CaptureReader;
import dev.vprof.names.KernelNames;
import dev.vprof.output.Leftovers;
import dev.vprof.source.CaptureSources;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ListTimeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite sink's own rules: what a failure leaves behind, in either writer, short names. */
class SqliteWriterTest {
    @TempDir
    Path dir;

    private static final Path NSYS = NsysSchemaFactsTest.NSYS_2022;

    @Test
    void aFullDiskIsAClearErrorAndThePartialFileIsRemoved() throws IOException {
        Path capture = SyntheticCapture.write(dir.resolve("c.vprof"), true);
        Path out = dir.resolve("c.sqlite");
        try (CaptureReader reader = CaptureSources.open(capture)) {
            CaptureTimeline.Result r = CaptureTimeline.stream(reader, KernelNames.asRecorded(), null);
            // Twenty pages are too few for the database: SQLite fails as on a full disk (SQLITE_FULL).
            IOException e = assertThrows(IOException.class,
                    () -> SqliteWriter.write(r.source(), out, SqliteWriter.Facts.none(), 20));
            assertTrue(e.getMessage().contains("the disk is full; free space or write it elsewhere with -o"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("the partial file was removed"), e.getMessage());
        }
        assertFalse(Files.exists(out));
        try (var files = Files.list(dir)) {
            assertEquals(List.of("c.vprof"), files.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void aDiskThatFillsWhileTheRowsAreWrittenIsTheSameClearErrorAndNothingIsLeft() throws IOException {
        ListTimeline t = new ListTimeline();
        GpuStream s = t.process(1, "p", List.of("p")).device(0).stream(7);
        int name = t.intern("k");
        for (int i = 0; i < 20_000; i++) {
            t.kernel(s, name, 1_000L * i, 1_000L * i + 500, i + 1, 1, 1, 1, 32, 1, 1, 16, 0);
        }
        Path out = dir.resolve("rows.sqlite");
        // Room for the empty tables SQLite makes, not for the kernels' pages after them.
        long pages = NsysSchema.all().size() + 3L;
        IOException e = assertThrows(IOException.class, () -> SqliteWriter.write(t, out, SqliteWriter.Facts.none(), pages));
        assertTrue(e.getMessage().contains("the disk is full; free space or write it elsewhere with -o"), e.getMessage());
        assertTrue(e.getCause() instanceof SqliteFile.Full, "the page writer's, not SQLite's: " + e.getCause());
        assertFalse(Files.exists(out));
        try (var left = Files.list(dir)) {
            assertTrue(left.noneMatch(Leftovers::isTemporary), "no partial file left");
        }
        SqliteWriter.Stats ok = SqliteWriter.write(t, out, SqliteWriter.Facts.none());
        assertEquals(20_000, ok.kernels());
        Databases.assertIntact(out);
    }

    @Test
    void shortNamesAreTheFunctionNameAsNsightSystemsWritesThem() throws SQLException {
        List<String[]> real = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + NSYS.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT d.value, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                     + "JOIN StringIds d ON d.id = k.demangledName JOIN StringIds s ON s.id = k.shortName")) {
            while (rs.next()) {
                real.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        assertFalse(real.isEmpty());
        for (String[] r : real) {
            assertEquals(r[1], NsysSchema.shortName(r[0]), r[0]);
        }
        assertEquals("rms_norm_kernel", NsysSchema.shortName(
                "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, float, int, int)"));
        assertEquals("cunn_SoftMaxForward", NsysSchema.shortName(
                "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float>(float*, float const*, int)"));
        assertEquals("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n",
                NsysSchema.shortName("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n"), "a C name is its own short name");
        assertEquals("", NsysSchema.shortName(""));
    }
}
