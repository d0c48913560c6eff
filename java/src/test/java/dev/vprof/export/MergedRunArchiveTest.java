package dev.vprof.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.cli.Main;
import dev.vprof.merge.OffsetEstimate;
import dev.vprof.merge.RunMerge;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Two "nodes" on one machine: each a {@code vprof run} of a simulator rank, the ranks meeting at
 * every all-reduce through {@code --rendezvous}; node 1's front end and simulator run under
 * faketime with CLOCK_REALTIME moved by +3.7 ms (CLOCK_MONOTONIC left alone, as
 * docs/multinode.md explains). The merge must find the 3.7 ms, and its archive must follow every
 * rule of Perfetto's manifest reference; the archive is read by the system's {@code tar} and each
 * trace by the independent Perfetto reader of these tests.
 */
class MergedRunArchiveTest {
    private static final long FAKED_NS = 3_700_000;
    private static final Set<String> CLOCK_NAMES =
            Set.of("REALTIME", "REALTIME_COARSE", "MONOTONIC", "MONOTONIC_COARSE", "MONOTONIC_RAW", "BOOTTIME");

    @TempDir
    Path dir;

    private static Path nativeDir() {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native")).toAbsolutePath();
        if (!Files.isExecutable(nat.resolve("vprof-simgpu"))) {
            fail("the native build is missing in " + nat + "; build it with `make -C native`");
        }
        return nat;
    }

    private static Path faketime() {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            Path p = Path.of(d, "faketime");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        fail("faketime is not installed: apt-get install faketime (Debian's libfaketime; .ci/run installs it)");
        return null;
    }

    /** The command line of a front end in a JVM of its own: this test's classpath, the launcher's flags. */
    private static List<String> frontEnd(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xshare:auto", "-cp",
                System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static String[] runArgs(Path out, Path sim, String... simArgs) {
        List<String> a = new ArrayList<>(List.of("run", "--capture-range=cudaProfilerApi", "-o", out.toString(), "--",
                sim.toString()));
        a.addAll(List.of(simArgs));
        return a.toArray(String[]::new);
    }

    private static int inProcess(StringWriter log, String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(log, true));
        cl.setErr(new PrintWriter(log, true));
        return cl.execute(args);
    }

    @Test
    void twoNodesOneMovedByFaketimeMergeWithTheOffsetMeasuredOnAllReduces() throws Exception {
        Path sim = nativeDir().resolve("vprof-simgpu");
        String rdv = "mergetest-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        Path a = dir.resolve("node0.vprof"), b = dir.resolve("node1.vprof");
        String[] schedule = {"--world", "2", "--steps", "160", "--step-us", "2000", "--profiler-range", "30:130"};
        List<String> nodeB = new ArrayList<>(List.of(faketime().toString(), "-f", "+0.0037"));
        List<String> simB = new ArrayList<>(List.of("--rendezvous", rdv, "--rank", "1"));
        simB.addAll(List.of(schedule));
        nodeB.addAll(frontEnd(runArgs(b, sim, simB.toArray(String[]::new))));
        ProcessBuilder pb = new ProcessBuilder(nodeB).redirectErrorStream(true).redirectOutput(dir.resolve("node1.log").toFile());
        pb.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        Process p = pb.start();
        List<String> simA = new ArrayList<>(List.of("--rendezvous", rdv, "--rank", "0"));
        simA.addAll(List.of(schedule));
        StringWriter logA = new StringWriter();
        int codeA = inProcess(logA, runArgs(a, sim, simA.toArray(String[]::new)));
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "node 1 did not finish");
        assertEquals(0, codeA, logA.toString());
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("node1.log")));

        // the wall clocks themselves disagree by the faked 3.7 ms: the front ends' start pairs say so
        Path out = dir.resolve("run.tar");
        RunMerge.Result r = RunMerge.merge(List.of(a, b), out);
        OffsetEstimate e = r.nodes().get(1).estimate();
        String logs = r.nodes().get(0).capture().collectiveCount() + " and " + r.nodes().get(1).capture().collectiveCount()
                + " collectives\n" + logA + "\n" + Files.readString(dir.resolve("node1.log"));
        assertEquals(OffsetEstimate.COLLECTIVES, e.method(), e.describe() + "\n" + logs);
        assertTrue(Math.abs(e.offsetNs() - FAKED_NS) <= 50_000, "estimated " + e.describe());
        assertTrue(e.uncertaintyNs() >= 0 && e.uncertaintyNs() < 50_000, e.describe());
        // every collective of the shorter capture is matched (100 steps × 6 all-reduces each, unless an
        // overloaded machine made an agent close its range early: the logs then say "heartbeat")
        int shorter = Math.min(r.nodes().get(0).capture().collectiveCount(), r.nodes().get(1).capture().collectiveCount());
        assertEquals(shorter, e.pairs(), "collectives matched: " + e.pairs() + " of " + logs);
        assertTrue(shorter >= 8, logs);

        Map<String, byte[]> members = untar(out);
        JsonNode manifest = checkManifest(members);
        JsonNode f1 = manifest.get("files").get(1);
        assertEquals(-e.offsetNs(), f1.get("clocks").get("offset_ns").asLong());
        // each file says its node and the rank it holds; the files are related on REALTIME, the clock
        // their times are on and the offset was measured on
        String host = r.nodes().get(0).capture().host();
        assertEquals(host + "_rank0.pftrace", manifest.get("files").get(0).get("path").asText());
        assertEquals(host + "_rank1.pftrace", f1.get("path").asText());
        assertEquals("REALTIME", f1.get("clocks").get("clock").asText());
        assertEquals("REALTIME", manifest.get("trace_time").get("clock").asText());
        JsonNode attrs = manifest.get("attributes");
        assertEquals("collectives", attrs.get("vprof.offset_method").asText());
        assertEquals(e.uncertaintyNs(), attrs.get("vprof.offset_uncertainty_ns").asLong());

        // each trace decodes; node 1's all-reduce ends moved by offset_ns meet node 0's
        List<Long> ends0 = allReduceEnds(members.get(manifest.get("files").get(0).get("path").asText()));
        List<Long> ends1 = allReduceEnds(members.get(f1.get("path").asText()));
        assertEquals(ends0.size(), ends1.size());
        long offsetNs = f1.get("clocks").get("offset_ns").asLong();
        List<Long> gaps = new ArrayList<>();
        for (int i = 0; i < ends0.size(); i++) {
            gaps.add(ends1.get(i) + offsetNs - ends0.get(i));
        }
        gaps.sort(Long::compare);
        long median = gaps.get(gaps.size() / 2);
        assertTrue(Math.abs(median) < 5_000, "after the offset, node 1's all-reduces end " + median + " ns from node 0's");
        // without the offset they are the faked 3.7 ms apart: the decoded traces carry each node's own clock
        assertTrue(Math.abs(median - offsetNs - FAKED_NS) < 50_000, "raw gap " + (median - offsetNs));
    }

    @Test
    void withoutCollectivesTheMergeUsesAndStatesTheNtpBound() throws Exception {
        Path sim = nativeDir().resolve("vprof-simgpu");
        Path a = dir.resolve("n0.vprof"), b = dir.resolve("n1.vprof");
        // five kernels a step: norms, GEMM, rotary, cache write, attention, and no all-reduce
        String[] sched = {"--steps", "40", "--kernels-per-step", "5", "--profiler-range", "5:35"};
        StringWriter log = new StringWriter();
        assertEquals(0, inProcess(log, runArgs(a, sim, sched)), log.toString());
        assertEquals(0, inProcess(log, runArgs(b, sim, sched)), log.toString());
        Path out = dir.resolve("ntp.tar");
        StringWriter cli = new StringWriter();
        assertEquals(0, inProcess(cli, "merge", a.toString(), b.toString(), "-o", out.toString()), cli.toString());
        String said = cli.toString();
        assertTrue(said.contains("no collectives matched") && said.contains("NTP bound"), said);

        Map<String, byte[]> members = untar(out);
        JsonNode manifest = checkManifest(members);
        JsonNode attrs = manifest.get("attributes");
        assertEquals("ntp-bound", attrs.get("vprof.node.1.method").asText());
        assertEquals(0, manifest.get("files").get(1).get("clocks").get("offset_ns").asLong());
        // the bound is what each node's kernel said (adjtimex, as recorded in the capture): summed, or unbounded
        long bound = 0;
        for (Path cap : List.of(a, b)) {
            try (var reader = dev.vprof.source.CaptureSources.open(cap)) {
                Map<String, String> o = reader.metadata().orElseThrow().options();
                assertNotNull(o.get("node.boot_id"), "node evidence in " + o);
                assertNotNull(o.get("node.start_monotonic_ns"));
                assertTrue(reader.window().orElseThrow().counts().containsKey("node_end_realtime_ns"));
                boolean sync = Boolean.parseBoolean(o.get("node.time_synchronised"));
                long us = Long.parseLong(o.get("node.time_max_error_us"));
                bound = bound < 0 || !sync ? -1 : bound + us * 1000;
            }
        }
        JsonNode stated = attrs.get("vprof.offset_uncertainty_ns");
        if (bound < 0) {
            assertEquals("unbounded", stated.asText());
            assertTrue(said.contains("no bound on the error"), said);
        } else {
            assertTrue(stated.asLong() >= bound, stated + " vs " + bound); // the end's error may be larger
        }
        // a second merge onto the same archive is refused without --force
        StringWriter again = new StringWriter();
        assertEquals(2, inProcess(again, "merge", a.toString(), b.toString(), "-o", out.toString()));
        assertTrue(again.toString().contains("--force"), again.toString());
    }

    /** The archive as the system's tar reads it: name → bytes. */
    private Map<String, byte[]> untar(Path tar) throws IOException, InterruptedException {
        Path x = Files.createTempDirectory(dir, "x");
        Process p = new ProcessBuilder("tar", "-xf", tar.toString(), "-C", x.toString()).redirectErrorStream(true).start();
        String msg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "tar could not read the archive: " + msg);
        Map<String, byte[]> out = new java.util.LinkedHashMap<>();
        try (var s = Files.list(x)) {
            for (Path f : s.toList()) {
                out.put(f.getFileName().toString(), Files.readAllBytes(f));
            }
        }
        return out;
    }

    /** Every rule of Perfetto's manifest reference that this archive touches (listed in docs/multinode.md). */
    private static JsonNode checkManifest(Map<String, byte[]> members) throws IOException {
        List<String> manifests = members.entrySet().stream()
                .filter(m -> new String(m.getValue(), StandardCharsets.UTF_8).replaceAll("\\s", "").startsWith("{\"perfetto_manifest\""))
                .map(Map.Entry::getKey).toList();
        assertEquals(List.of("perfetto_manifest.json"), manifests, "exactly one manifest, detected by its content");
        JsonNode root = new ObjectMapper().readTree(members.get("perfetto_manifest.json"));
        assertEquals(1, root.size(), "one top-level key");
        JsonNode m = root.get("perfetto_manifest");
        assertTrue(m.get("version").isIntegralNumber() && m.get("version").asInt() == 1, "version 1");
        JsonNode files = m.get("files");
        assertTrue(files.isArray() && files.size() >= 2);
        Set<String> paths = new HashSet<>(), machines = new HashSet<>();
        for (JsonNode f : files) {
            String path = f.get("path").asText();
            assertTrue(members.containsKey(path), path + " is in the archive");
            assertTrue(paths.add(path));
            assertFalse(f.has("machine") && f.has("machines"), "machine and machines are exclusive");
            String name = f.get("machine").get("name").asText();
            assertFalse(name.isEmpty(), "machine names are non-empty");
            assertTrue(machines.add(name), "one machine per node: " + name);
        }
        for (JsonNode f : files) {
            if (!f.has("clocks")) {
                continue;
            }
            JsonNode c = f.get("clocks");
            assertTrue(c.has("sync_to"), "clocks need sync_to");
            assertTrue(paths.contains(c.get("sync_to").get("file").asText()), "sync_to.file is among files");
            assertTrue(CLOCK_NAMES.contains(c.get("clock").asText()), "clock name " + c.get("clock"));
            assertTrue(CLOCK_NAMES.contains(c.get("sync_to").get("clock").asText()));
            JsonNode off = c.get("offset_ns");
            assertTrue(off.isIntegralNumber() && off.canConvertToLong() && off.asLong() != Long.MIN_VALUE,
                    "offset_ns is an integer: " + off);
        }
        JsonNode tt = m.get("trace_time");
        assertTrue(CLOCK_NAMES.contains(tt.get("clock").asText()));
        assertTrue(paths.contains(tt.get("file").asText()), "trace_time.file is among files");
        JsonNode attrs = m.get("attributes");
        assertTrue(attrs.isObject());
        for (Iterator<Map.Entry<String, JsonNode>> it = attrs.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> a = it.next();
            assertFalse(a.getKey().isEmpty());
            assertTrue(a.getValue().isTextual() || a.getValue().isIntegralNumber(), a.getKey() + " = " + a.getValue());
        }
        assertFalse(attrs.get("vprof.run_id").asText().isEmpty());
        assertTrue(attrs.has("vprof.offset_method") && attrs.has("vprof.offset_uncertainty_ns"));
        for (String p : paths) {
            PerfettoTraceReader r = PerfettoTraceReader.read(members.get(p));
            assertTrue(r.packets > 0 && !r.events.isEmpty(), p + " decodes with events");
        }
        return m;
    }

    private static List<Long> allReduceEnds(byte[] trace) throws IOException {
        PerfettoTraceReader r = PerfettoTraceReader.read(trace);
        List<Long> ends = new ArrayList<>();
        for (PerfettoTraceReader.Track t : r.tracks.values()) {
            for (PerfettoTraceReader.Slice s : r.slices(t.uuid())) {
                if (s.name() != null && s.name().contains("AllReduce")) {
                    ends.add(s.end());
                }
            }
        }
        ends.sort(Long::compare);
        return ends;
    }
}
