package dev.vprof.nsys;

import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ClockSync;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RecordEncoder;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The export's processes as the capture's: one per nsys process that has a row the reader
 * keeps, started (its PROCESS chunk, GPUs and clock pairs) at its first row, so the hundreds of
 * processes nsys lists from the system (kernel threads, shells) that did no CUDA or NVTX work are
 * not in the capture. What is known of every process before the rows is read first and bounded:
 * the names ({@code PROCESSES}), the thread names ({@code ThreadNames}), NVTX domain names.
 */
final class ProcessTable {
    /** Processes a capture reader decodes (capture.CaptureReader's bound). */
    static final int MAX_PROCESSES = 1 << 16;
    /** Names kept from PROCESSES and ThreadNames, and NVTX domains: more is not a real export. */
    static final int MAX_NAMED = 1 << 20;
    /** Thread names one process's facts carry, as for a PyTorch trace. */
    static final int MAX_THREAD_NAMES = 4096;
    /** Pids given to a process whose own pid another process of the capture has (another VM's). */
    private static final int SYNTHETIC_PID = 0x40000000;

    private final NsysDatabase db;
    private final CaptureWriter writer;
    private final RecordOut out;
    private final SessionClock clock;
    private final Map<String, String> facts;
    private final List<GpuRows.Gpu> gpus;
    private final NsysProcess.Names budget = new NsysProcess.Names();
    private final Map<Long, String> processNames = new HashMap<>();
    private final Map<Long, Map<Integer, String>> threadNames = new HashMap<>();
    private final Map<Long, Map<Long, String>> domainNames = new HashMap<>();
    private final Map<Long, NsysProcess> started = new LinkedHashMap<>();
    private final Set<Integer> pids = new HashSet<>();
    private int nextSynthetic = SYNTHETIC_PID;
    private NsysProcess last;

    ProcessTable(NsysDatabase db, CaptureWriter writer, RecordOut out, SessionClock clock, Map<String, String> facts)
            throws SQLException, IOException {
        this.db = db;
        this.writer = writer;
        this.out = out;
        this.clock = clock;
        this.facts = facts;
        this.gpus = GpuRows.read(db);
        readNames();
    }

    private void readNames() throws SQLException, IOException {
        if (db.columns("PROCESSES").containsAll(List.of("globalPid", "name"))) {
            query("SELECT globalPid, name FROM PROCESSES WHERE globalPid IS NOT NULL AND name IS NOT NULL",
                    rs -> processNames.putIfAbsent(NsysIds.processKey(rs.getLong(1)), rs.getString(2)));
        }
        if (db.columns("ThreadNames").containsAll(List.of("globalTid", "nameId"))) {
            query("SELECT t.globalTid, s.value FROM ThreadNames AS t JOIN StringIds AS s ON s.id = t.nameId "
                            + "WHERE t.globalTid IS NOT NULL",
                    rs -> {
                        long g = rs.getLong(1);
                        Map<Integer, String> m = threadNames.computeIfAbsent(NsysIds.processKey(g), k -> new HashMap<>());
                        if (m.size() < MAX_THREAD_NAMES) {
                            m.putIfAbsent(NsysIds.tid(g), rs.getString(2));
                        }
                    });
        }
        if (db.columns("NVTX_EVENTS").containsAll(List.of("eventType", "domainId", "globalTid"))) {
            String text = db.column("NVTX_EVENTS", "n", "text");
            String textId = db.column("NVTX_EVENTS", "n", "textId");
            query("SELECT n.globalTid, n.domainId, coalesce(" + text + ", s.value) FROM NVTX_EVENTS AS n "
                            + "LEFT JOIN StringIds AS s ON s.id = " + textId + " WHERE n.eventType = "
                            + NsysIds.NVTX_DOMAIN_CREATE + " AND n.domainId IS NOT NULL",
                    rs -> {
                        String name = rs.getString(3);
                        if (name != null) {
                            domainNames.computeIfAbsent(NsysIds.processKey(rs.getLong(1)), k -> new HashMap<>())
                                    .putIfAbsent(rs.getLong(2), name);
                        }
                    });
        }
    }

    private interface Row {
        void take(ResultSet rs) throws SQLException;
    }

    /** Runs {@code sql}, handing each row to {@code row}, at most {@link #MAX_NAMED} rows. */
    private void query(String sql, Row row) throws SQLException {
        try (Statement st = db.statement(); ResultSet rs = st.executeQuery(sql + " LIMIT " + MAX_NAMED)) {
            while (rs.next()) {
                row.take(rs);
            }
        }
    }

    /** The capture process of the nsys process {@code globalId} names (a globalPid or globalTid), started if new. */
    NsysProcess of(long globalId) throws IOException {
        long key = NsysIds.processKey(globalId);
        NsysProcess p = last;
        if (p != null && p.key == key) {
            return p;
        }
        p = started.get(key);
        if (p == null) {
            p = start(key);
        }
        last = p;
        return p;
    }

    private NsysProcess start(long key) throws IOException {
        if (started.size() >= MAX_PROCESSES) {
            throw new CaptureFormatException(db.file + " has CUDA or NVTX rows of more than " + MAX_PROCESSES
                    + " processes, more than a capture holds");
        }
        int nsysPid = NsysIds.pid(key);
        int pid = nsysPid;
        if (pid <= 0 || !pids.add(pid)) {
            while (!pids.add(nextSynthetic)) {
                nextSynthetic++;
            }
            pid = nextSynthetic;
        }
        String name = processNames.getOrDefault(key, "pid " + nsysPid);
        NsysProcess p = new NsysProcess(key, pid, name, budget);
        started.put(key, p);
        Map<String, String> f = new LinkedHashMap<>(facts);
        f.put("nsysGlobalPid", Long.toString(key << 24));
        if (pid != nsysPid) {
            f.put("nsysPid", Integer.toString(nsysPid));
        }
        Map<Integer, String> threads = threadNames.get(key);
        if (threads != null) {
            new TreeMap<>(threads).forEach((tid, t) -> f.put(ProcessInfo.THREAD_NAME_FACT + tid, t));
        }
        writer.process(new ProcessInfo(pid, 0, name, 0, 0, 0, clock.epochNs(clock.firstNs()), null, null, null, f));
        long vm = key >>> 24;
        for (GpuRows.Gpu g : gpus) {
            if (g.vm() == null || g.vm() == vm) {
                GpuRows.write(out, pid, g, g.name() == null ? 0 : p.intern(out, g.name()));
            }
        }
        if (clock.anchored()) {
            // Two pairs of session time and epoch time, at the session's start and end: the clock
            // fit is their one offset, exactly.
            for (long t : new long[] {clock.firstNs(), clock.lastNs()}) {
                RecordEncoder.clockSync(out.to(pid), new ClockSync(t, clock.epochNs(t), 0, 0));
            }
        }
        return p;
    }

    /** The STRING id, in {@code p}, of the name of its NVTX domain {@code domainId} (0: the default domain). */
    int domain(NsysProcess p, long domainId) throws IOException {
        if (domainId == 0) {
            return 0;
        }
        Integer id = p.domains.get(domainId);
        if (id == null) {
            Map<Long, String> names = domainNames.get(p.key);
            String name = names == null ? null : names.get(domainId);
            id = p.intern(out, name != null ? name : "NVTX domain " + domainId);
            p.domains.put(domainId, id);
        }
        return id;
    }

    Collection<NsysProcess> processes() {
        return started.values();
    }

    NsysProcess.Names budget() {
        return budget;
    }

    /** The nsys processes that had no row the reader keeps. */
    int unstarted() {
        Set<Long> all = new HashSet<>(processNames.keySet());
        all.removeAll(started.keySet());
        return all.size();
    }

    List<String> gpuNames() {
        List<String> names = new ArrayList<>();
        gpus.forEach(g -> names.add(g.name()));
        return names;
    }
}
