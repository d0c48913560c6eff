package dev.vprof.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.DropsEvent;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RecordVisitor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader on a small export written here row by row in nsys's 3.x schema, so every expected
 * record is a hand tally of the rows below: which process each row lands in, the names it keeps,
 * the NVTX kinds, copy kinds, rows it refuses, the clock anchor, and the temporary capture's life.
 */
class NsysExportTest {
    /** Session clock reading at the start, and that instant in epoch ns. */
    private static final long SYSTEM_CLOCK = 5_000_000_000L;
    private static final long UTC = 1_700_000_000_000_000_000L;
    /** globalPid of pid 4242 on hardware 0, VM 1, as nsys packs it; a thread of it is + tid. */
    private static final long PID_4242 = (1L << 48) | (4242L << 24);
    private static final long PID_77 = (1L << 48) | (77L << 24);

    @TempDir
    Path dir;

    private static void exec(Connection db, String... sql) throws SQLException {
        try (Statement st = db.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    /** A small 3.25-shaped export; {@code rows} holds the statements that fill it. */
    private Path export(String name, String... rows) throws SQLException {
        Path f = dir.resolve(name);
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + f)) {
            exec(db,
                    "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT)",
                    "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.25.0'), "
                            + "('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'), ('EXPORT_PARAM_TIME_NORMALIZE', 'false')",
                    "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT, "
                            + "systemClockNs INTEGER)",
                    "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (" + UTC + ", '', '', " + SYSTEM_CLOCK + ")",
                    "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)",
                    "INSERT INTO StringIds VALUES (1, '_Z4gemmv'), (2, 'gemm()'), (3, 'gemm'), (4, 'plain_kernel'), "
                            + "(5, 'cudaLaunchKernel_v7000'), (6, 'cuMemAlloc_v2'), (7, 'worker'), (8, 'registered')",
                    "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT)",
                    "INSERT INTO PROCESSES VALUES (" + PID_4242 + ", 4242, 'python3'), (" + PID_77 + ", 77, 'bash'), "
                            + "(" + ((1L << 48) | (9L << 24)) + ", 9, 'idle')",
                    "CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER)",
                    "INSERT INTO ThreadNames VALUES (7, 0, " + (PID_4242 + 4243) + ")",
                    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                            + "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
                            + "correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, "
                            + "shortName INTEGER NOT NULL, mangledName INTEGER, registersPerThread INTEGER NOT NULL, "
                            + "gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, "
                            + "blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, "
                            + "staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL, "
                            + "graphNodeId INTEGER, graphId INTEGER)",
                    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                            + "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
                            + "correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, "
                            + "copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER)",
                    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                            + "eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, "
                            + "nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL)",
                    "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, "
                            + "text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER)");
            exec(db, rows);
        }
        return f;
    }

    private static final String T = SYSTEM_CLOCK + 1_000_000 + "";

    /**
     * A kernel row of {@link #small}'s mangled kernel on pid 4242 (device 0, context 1, stream 7, one
     * launch configuration), from {@code start} to {@code end} ns after {@link #T}.
     */
    private static String mangledKernelOn4242(int start, int end, int correlationId) {
        return "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + T + " + " + start + ", " + T + " + " + end + ", 0, 1, 7, "
                + correlationId + ", " + PID_4242 + ", 2, 3, 1, 32, 4, 1, 1, 128, 1, 1, 1024, 512, NULL, NULL)";
    }

    private Path small() throws SQLException {
        long tid = PID_4242 + 4243;
        return export("small.sqlite",
                // two launches of one mangled kernel, one of a kernel nsys has no mangled name for, on pid 4242
                mangledKernelOn4242(100, 600, 11),
                mangledKernelOn4242(900, 1000, 12),
                "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + T + " + 50, " + T + " + 70, 1, 2, 9, 13, "
                        + PID_77 + ", 4, 4, NULL, 16, 1, 1, 1, 32, 1, 1, 0, 0, 5, 3)",
                // one that ends before it starts: counted, left out
                mangledKernelOn4242(2000, 1500, 14),
                // device to host into pinned memory (nsys kinds 2, 1); one with unknown kinds (7, NULL)
                "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (" + T + " + 200, " + T + " + 300, 0, 1, 7, 15, "
                        + PID_4242 + ", 4096, 2, 2, 1)",
                "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (" + T + " + 400, " + T + " + 450, 0, 1, 7, 16, "
                        + PID_4242 + ", 10, 8, 7, NULL)",
                // a runtime launch, a driver call, and a backtrace row (class 67) that repeats the launch
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + T + " + 10, " + T + " + 90, 0, " + tid
                        + ", 11, 5, 0)",
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + T + " + 20, " + T + " + 30, 1, " + tid
                        + ", 11, 6, 0)",
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + T + " + 10, " + T + " + 90, 67, " + tid
                        + ", 11, 5, 0)",
                // NVTX: a domain, a push/pop range in it by registered name, a start/end range ended on
                // another thread, a mark, and a range the capture ended inside
                "INSERT INTO NVTX_EVENTS VALUES (" + T + ", NULL, 75, 'mydomain', " + tid + ", NULL, NULL, 3)",
                "INSERT INTO NVTX_EVENTS VALUES (" + T + " + 5, " + T + " + 800, 59, NULL, " + tid + ", NULL, 8, 3)",
                "INSERT INTO NVTX_EVENTS VALUES (" + T + " + 6, " + T + " + 700, 60, 'step', " + tid + ", "
                        + (PID_4242 + 4250) + ", NULL, 0)",
                "INSERT INTO NVTX_EVENTS VALUES (" + T + " + 7, NULL, 34, 'here', " + tid + ", NULL, NULL, 0)",
                "INSERT INTO NVTX_EVENTS VALUES (" + T + " + 8, NULL, 59, 'unended', " + tid + ", NULL, NULL, 0)");
    }

    /** Every record of the capture, as text, in file order per process. */
    private static List<String> records(CaptureReader r) {
        List<String> out = new ArrayList<>();
        r.forEachRecord(new RecordVisitor() {
            @Override
            public void kernel(int pid, long start, long end, int corr, KernelDesc d, String name) {
                out.add(pid + " kernel " + name + " " + (end - start) + " corr " + corr + " dev " + d.deviceId()
                        + " stream " + d.streamId() + " grid " + d.gridX() + " block " + d.blockX() + " smem "
                        + d.sharedMemory() + " regs " + d.registers() + " graph " + d.graphId() + "/" + d.graphNodeId());
            }

            @Override
            public void memcpy(int pid, MemcpyEvent m) {
                out.add(pid + " memcpy " + m.bytes() + " kind " + m.copyKind() + " " + m.srcKind() + "->" + m.dstKind());
            }

            @Override
            public void api(int pid, ApiEvent a) {
                out.add(pid + " api domain " + a.domain() + " cbid " + a.cbid() + " corr " + a.correlationId()
                        + " tid " + a.tid());
            }

            @Override
            public void marker(int pid, MarkerEvent m) {
                out.add(pid + " marker " + m.flags() + " " + m.name() + " @" + m.domain() + " tid " + m.tid());
            }

            @Override
            public void drops(int pid, DropsEvent d) {
                out.add(pid + " drops " + d.reasonName() + " " + VprofRing.recordName(d.recordType()) + " " + d.count());
            }
        });
        return out;
    }

    /** Records come in start order across the tables, as an agent's ring would hold them. */
    @Test
    void everyRowBecomesTheRecordItIsInItsOwnProcess() throws Exception {
        try (CaptureReader r = NsysExport.open(small(), dir)) {
            List<String> got = records(r);
            assertEquals(List.of(
                    "4242 marker 2 registered @mydomain tid 4243",
                    "4242 marker 4 null @mydomain tid 4243",
                    "4242 marker 2 step @null tid 4243",
                    "4242 marker 4 null @null tid 4250",
                    "4242 marker 1 here @null tid 4243",
                    "4242 marker 1 unended @null tid 4243",
                    "4242 api domain 1 cbid 211 corr 11 tid 4243",
                    "4242 api domain 2 cbid 243 corr 11 tid 4243",
                    "4242 kernel _Z4gemmv 500 corr 11 dev 0 stream 7 grid 4 block 128 smem 1536 regs 32 graph 0/0",
                    "4242 memcpy 4096 kind 2 3->2",
                    "4242 memcpy 10 kind 8 0->0",
                    "4242 kernel _Z4gemmv 100 corr 12 dev 0 stream 7 grid 4 block 128 smem 1536 regs 32 graph 0/0",
                    "4242 drops end_before_start KERNEL 1"), got.stream().filter(s -> s.startsWith("4242")).toList());
            assertEquals(List.of("77 kernel plain_kernel 20 corr 13 dev 1 stream 9 grid 1 block 32 smem 0 regs 16 graph 3/5"),
                    got.stream().filter(s -> s.startsWith("77")).toList());
            List<ProcessInfo> procs = r.processes();
            assertEquals(List.of(4242, 77), procs.stream().map(ProcessInfo::pid).toList()); // not the idle pid 9
            assertEquals("python3", procs.get(0).command());
            assertEquals("worker", procs.get(0).threadNames().get(4243L));
            assertEquals("3.25.0", procs.get(0).facts().get("nsysExportSchema"));
            // The session clock anchored as nsys says: utcEpochNs is session time systemClockNs.
            assertEquals(UTC + 1_000_100, r.clock(4242).toEpochNs(SYSTEM_CLOCK + 1_000_100));
            String warnings = String.join("\n", r.warnings());
            assertTrue(warnings.contains("1 NVTX ranges have no end"), warnings);
            assertTrue(warnings.contains("1 KERNEL rows of pid 4242 end before they start"), warnings);
            assertTrue(warnings.contains("has no CUPTI_ACTIVITY_KIND_MEMSET table"), warnings);
            try (Stream<Path> s = Files.list(dir)) {
                assertEquals(2, s.count()); // the export and the temporary capture
            }
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("small.sqlite")), s.toList()); // removed when the reader closed
        }
    }

    @Test
    void aTableWithoutAColumnEveryExportHasIsOneSentenceAndLeavesNothing() throws Exception {
        Path f = dir.resolve("odd.sqlite");
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + f)) {
            exec(db, "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT)",
                    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER)");
        }
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> NsysExport.open(f, temp));
        assertTrue(e.getMessage().contains("CUPTI_ACTIVITY_KIND_KERNEL has no column demangledName"), e.getMessage());
        try (Stream<Path> s = Files.list(temp)) {
            assertEquals(0, s.count());
        }
    }

    @Test
    void whatIsNotAnExportIsNotClaimedUnlessNamedSqlite() throws IOException {
        Path json = Files.writeString(dir.resolve("t.json"), "{\"traceEvents\": []}");
        Path named = Files.writeString(dir.resolve("t.sqlite"), "not sqlite");
        assertEquals(false, NsysExport.claims(json));
        assertEquals(true, NsysExport.claims(named));
        assertEquals(true, NsysExport.claims(Path.of("../fixtures/real/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite")));
        assertEquals(false, NsysExport.claims(dir)); // a folder is a folder of traces
    }
}
