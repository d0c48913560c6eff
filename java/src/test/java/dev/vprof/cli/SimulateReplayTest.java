package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.source.CaptureSources;
import dev.vprof.trace.TraceOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof simulate --replay TRACE}: a recorded capture's GPU work played through the CUPTI
 * test double and recorded again by the real agent. Oracles: the source itself, read record by
 * record in the test (every operation's name, stream, device, grid, block, bytes, kind, duration
 * and offset from its process's first one), and for the real PyTorch trace an independent count of
 * its JSON ({@link TraceOracle}) as well as {@code vprof report} of the trace.
 */
@Timeout(240)
class SimulateReplayTest {
    private static final Path REAL_TRACE =
            TraceOracle.REAL.resolve("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");

    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    /** One GPU operation as a test compares it. */
    private record Op(char kind, String name, long start, long duration, int stream, int device, String shape,
                      long bytes, int copyKind) {}

    private record Process(Integer rank, List<Op> ops) {}

    /** Each process's GPU operations, sorted by start (ties: stream, name), keyed by pid. */
    private static Map<Integer, Process> ops(Path file) throws IOException {
        Map<Integer, List<Op>> byPid = new TreeMap<>();
        Map<Integer, Integer> ranks = new HashMap<>();
        try (CaptureReader r = CaptureSources.open(file)) {
            for (ProcessInfo p : r.processes()) {
                if (p.rank() != null) {
                    ranks.put(p.pid(), p.rank());
                }
            }
            r.forEachRecord(new RecordVisitor() {
                @Override
                public void kernel(int pid, long start, long end, int corr, KernelDesc d, String name) {
                    String shape = d.gridX() + "x" + d.gridY() + "x" + d.gridZ() + "/" + d.blockX() + "x" + d.blockY()
                            + "x" + d.blockZ();
                    add(pid, new Op('k', name, start, end - start, d.streamId(), d.deviceId(), shape, 0, 0));
                }

                @Override
                public void memcpy(int pid, MemcpyEvent m) {
                    add(pid, new Op('c', "", m.start(), m.end() - m.start(), m.streamId(), m.deviceId(), "",
                            m.bytes(), m.copyKind()));
                }

                @Override
                public void memset(int pid, MemsetEvent m) {
                    add(pid, new Op('s', "", m.start(), m.end() - m.start(), m.streamId(), m.deviceId(), "",
                            m.bytes(), 0));
                }

                private void add(int pid, Op op) {
                    byPid.computeIfAbsent(pid, k -> new ArrayList<>()).add(op);
                }
            });
        }
        Map<Integer, Process> out = new TreeMap<>();
        byPid.forEach((pid, l) -> {
            l.sort(Comparator.comparingLong(Op::start).thenComparingInt(Op::stream).thenComparing(Op::name));
            out.put(pid, new Process(ranks.get(pid), l));
        });
        return out;
    }

    private Path replay(String name, List<String> runOpts, String... simulateArgs) throws IOException {
        Path file = dir.resolve(name);
        Path log = dir.resolve(name + ".log");
        List<String> opts = new ArrayList<>(runOpts);
        opts.addAll(List.of("-o", file.toString()));
        List<String> sim = new ArrayList<>(List.of("simulate"));
        sim.addAll(List.of(simulateArgs));
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", "exec \"$0\" \"$@\" 2>>'" + log + "'"));
        cmd.addAll(e2e.vprofCommand(sim.toArray(String[]::new)));
        E2e.run(opts, cmd);
        String text = Files.readString(log);
        assertTrue(text.contains("vprof simulate: replaying "), text);
        return file;
    }

    private static long late(Path file) throws IOException {
        return E2e.simCount(Path.of(file + ".log"), "replay_late");
    }

    private static Op withoutStart(Op o) {
        return new Op(o.kind(), o.name(), 0, o.duration(), o.stream(), o.device(), o.shape(), o.bytes(), o.copyKind());
    }

    @Test
    void twoWorkersReplayWithTheirNamesDurationsStreamsDevicesShapesCopiesAndGaps() throws IOException {
        Path source = dir.resolve("source.vprof");
        E2e.run(List.of("-o", source.toString()), e2e.sim("--workers", "2", "--steps", "20", "--seed", "3"));
        Map<Integer, Process> want = ops(source);
        Map<Integer, Process> got = ops(replay("replay.vprof", List.of(), "--replay", source.toString()));
        assertEquals(2, want.size());
        assertEquals(2, got.size(), "a process per traced process");
        Map<Integer, Process> wantByRank = new TreeMap<>();
        want.values().forEach(p -> wantByRank.put(p.rank(), p));
        Map<Integer, Process> gotByRank = new TreeMap<>();
        got.values().forEach(p -> gotByRank.put(p.rank(), p));
        assertEquals(wantByRank.keySet(), gotByRank.keySet(), "the same ranks");
        long late = late(dir.resolve("replay.vprof"));
        for (Integer rank : wantByRank.keySet()) {
            List<Op> w = wantByRank.get(rank).ops();
            List<Op> g = gotByRank.get(rank).ops();
            assertEquals(20 * 40 + 20 * 2, w.size());
            assertEquals(w.size(), g.size(), "rank " + rank);
            long first = w.getFirst().start();
            long firstReplayed = g.getFirst().start();
            // on each stream the same work in the same order (across streams a late launch may reorder)
            Map<Integer, List<Op>> ws = byStream(w);
            Map<Integer, List<Op>> gs = byStream(g);
            assertTrue(ws.size() >= 2, "several streams: " + ws.keySet());
            assertEquals(ws.keySet(), gs.keySet(), "the same stream ids, rank " + rank);
            ws.forEach((stream, wl) -> {
                List<Op> gl = gs.get(stream);
                assertEquals(wl.stream().map(SimulateReplayTest::withoutStart).toList(),
                        gl.stream().map(SimulateReplayTest::withoutStart).toList(), "rank " + rank + " stream " + stream);
                for (int i = 0; i < wl.size(); i++) {
                    long wantGap = wl.get(i).start() - first;
                    long gotGap = gl.get(i).start() - firstReplayed;
                    if (late == 0) {
                        assertEquals(wantGap, gotGap, "the gap before op " + i + " of stream " + stream + ", rank " + rank);
                    } else { // the launching thread fell behind: work may start later, never earlier
                        assertTrue(gotGap >= wantGap, "op " + i + " of stream " + stream + ", rank " + rank);
                    }
                }
            });
        }
    }

    @Test
    void aRealTraceReplaysWithEachKernelNamesCountAndTotalOfTheTraceItself() throws IOException {
        Path replayed = replay("real.vprof", List.of(), "--replay", REAL_TRACE.toString());
        JsonNode got = E2e.report(replayed);
        JsonNode got1000 = reportTop(replayed);
        JsonNode trace = reportTop(REAL_TRACE);
        TraceOracle.Kernels oracle = TraceOracle.kernels(REAL_TRACE);
        assertEquals(oracle.count(), E2e.kernels(got));
        Map<String, long[]> replayedByName = byName(got1000);
        assertEquals(oracle.byName().keySet(), replayedByName.keySet(), "names exactly as in the file");
        oracle.byName().forEach((name, c) -> {
            assertEquals(c[0], replayedByName.get(name)[0], "count of " + name);
            assertEquals(c[1], replayedByName.get(name)[1], "total ns of " + name);
        });
        Map<String, long[]> traceByName = byName(trace);
        traceByName.forEach((name, c) -> {
            assertEquals(c[0], replayedByName.get(name)[0], "count of " + name + " against vprof report of the trace");
            assertEquals(c[1], replayedByName.get(name)[1], "total of " + name + " against vprof report of the trace");
        });
        for (String k : List.of("memcpys", "memcpy_bytes", "memsets")) {
            assertEquals(trace.at("/totals/" + k).asLong(), got.at("/totals/" + k).asLong(), k);
        }
        assertEquals(0, E2e.lost(got));
        // the names are demangled already: nothing re-demangles or mangles them on the way
        assertFalse(replayedByName.keySet().stream().anyMatch(n -> n.startsWith("_Z")));
    }

    private static Map<Integer, List<Op>> byStream(List<Op> ops) {
        Map<Integer, List<Op>> m = new TreeMap<>();
        for (Op o : ops) {
            m.computeIfAbsent(o.stream(), k -> new ArrayList<>()).add(o);
        }
        return m;
    }

    @Test
    void aFolderOfRankTracesReplaysAsOneWorkerPerRankWithTheTracesRanks() throws IOException {
        Path folder = TraceOracle.REAL.resolve("hta/trace_filter");
        JsonNode got = E2e.report(replay("ranks.vprof", List.of(), "--replay", folder.toString()));
        assertEquals(2, got.get("processes").size(), got.toPrettyString());
        Map<Integer, Long> kernelsByRank = new TreeMap<>();
        for (JsonNode p : got.get("processes")) {
            assertEquals(128, p.get("world_size").asInt(), "the traces' world size");
            kernelsByRank.put(p.get("rank").asInt(), p.get("kernels").asLong());
        }
        assertEquals(Map.of(0, TraceOracle.kernels(folder.resolve("sampled_rank-0.json.gz")).count(),
                1, TraceOracle.kernels(folder.resolve("sampled_rank-1.json.gz")).count()), kernelsByRank);
    }

    private static JsonNode reportTop(Path file) {
        Cli.Result r = E2e.ok(Cli.run("report", "--json", "--top", "1000", file.toString()));
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        } catch (IOException e) {
            throw new AssertionError(r.out(), e);
        }
    }

    private static Map<String, long[]> byName(JsonNode report) {
        Map<String, long[]> m = new TreeMap<>();
        for (JsonNode k : report.get("top_kernels")) {
            m.put(k.get("name").asText(), new long[] {k.get("count").asLong(), k.get("total_ns").asLong()});
        }
        return m;
    }

    @Test
    void loopRepeatsThePassesAndTheRangeOptionsCountPasses() throws IOException {
        Path source = dir.resolve("one.vprof");
        E2e.run(List.of("-o", source.toString()), e2e.sim("--steps", "10"));
        List<Op> one = ops(source).values().iterator().next().ops();
        long kernels = one.stream().filter(o -> o.kind() == 'k').count();
        assertEquals(400, kernels);

        Process three = ops(replay("three.vprof", List.of(), "--replay", source.toString(), "--loop", "3",
                "--slow", "paged_attention:2")).values().iterator().next();
        assertEquals(3 * one.size(), three.ops().size());
        // on each stream, pass k is the source's work again in the same order, after the pass before it
        // (the slowed kernels push later work on their stream back, so the order across streams may change)
        Map<Integer, List<Op>> wantByStream = byStream(one);
        Map<Integer, List<Op>> gotByStream = byStream(three.ops());
        assertEquals(wantByStream.keySet(), gotByStream.keySet());
        long[] passEnd = new long[3];
        long[] passStart = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
        wantByStream.forEach((stream, w) -> {
            List<Op> g = gotByStream.get(stream);
            assertEquals(3 * w.size(), g.size(), "stream " + stream);
            for (int pass = 0; pass < 3; pass++) {
                for (int i = 0; i < w.size(); i++) {
                    Op a = w.get(i);
                    Op b = g.get(pass * w.size() + i);
                    long want = a.name().contains("paged_attention") ? 2 * a.duration() : a.duration();
                    assertEquals(a.name(), b.name(), "pass " + pass + " op " + i + " of stream " + stream);
                    assertEquals(want, b.duration(), "pass " + pass + " op " + i + " " + a.name());
                    passStart[pass] = Math.min(passStart[pass], b.start());
                    passEnd[pass] = Math.max(passEnd[pass], b.start() + b.duration());
                }
            }
        });
        assertTrue(passStart[1] >= passEnd[0] && passStart[2] >= passEnd[1], "passes one after another");
        assertTrue(one.stream().anyMatch(o -> o.name().contains("paged_attention")));

        JsonNode ranged = E2e.report(replay("ranged.vprof", List.of("--capture-range=cudaProfilerApi"),
                "--replay", source.toString(), "--loop", "3", "--profiler-range", "1:2"));
        assertEquals(kernels, E2e.kernels(ranged), "exactly the second pass");
        assertEquals(1, ranged.get("ranges").size(), ranged.toPrettyString());
    }

    @Test
    void badReplaysAreOneSentenceWithExit2() throws IOException {
        Cli.Result missing = Cli.run("simulate", "--replay", dir.resolve("nothing.json.gz").toString());
        assertEquals(2, missing.code(), missing.err());
        assertTrue(missing.err().contains("no such file or folder"), missing.err());
        assertFalse(missing.err().contains("Exception"), missing.err());

        Path notATrace = Files.writeString(dir.resolve("x.vprof"), "not a capture");
        Cli.Result bad = Cli.run("simulate", "--replay", notATrace.toString());
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("cannot replay " + notATrace), bad.err());
        assertFalse(bad.err().contains("\tat "), bad.err());
    }
}
