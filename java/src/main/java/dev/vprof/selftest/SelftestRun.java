package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.vprof.capture.CaptureReader;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import dev.vprof.report.CaptureReport;
import dev.vprof.report.ReportJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * What every case of one GPU self-test run shares: the table, the built program and the
 * environment it runs in, the agent, the kernels' launch shapes, the time limit; and the steps
 * cases are made of (a folder per case, `vprof run`, the report and the facts of a capture, an
 * agent's state).
 */
final class SelftestRun {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Captures larger than this are deleted once read (report.json and facts.json stay). */
    static final long KEEP_CAPTURE_BYTES = 8L << 20;

    final SelftestTable table;
    final Path work;
    /** The self-test program (vprof-selftest, or the double's). */
    Path program;
    /** Added to the program's environment in every case (CUDA_HOME for its libcupti, the double's switches). */
    final Map<String, String> programEnv = new HashMap<>();
    /** Why `vprof doctor` says attach --inject cannot work on this machine (ptrace), or null. */
    String injectionRefused;
    /** Kernel name to "GRIDx1x1/BLOCKx1x1", from the program's info case. */
    final Map<String, String> shapes = new HashMap<>();
    private final long deadlineNanos;

    SelftestRun(SelftestTable table, Path work, long limitSeconds) {
        this.table = table;
        this.work = work;
        this.deadlineNanos = System.nanoTime() + limitSeconds * 1_000_000_000L;
    }

    /** Seconds left of the run's time limit. */
    long secondsLeft() {
        return Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000_000L);
    }

    /** A child's timeout: its own bound, or what is left of the run less a margin to write the table. */
    long timeout(long bound) {
        return Math.max(1, Math.min(bound, secondsLeft() - 5));
    }

    /** The case's folder under work/cases, created. */
    Path caseDir(String name) throws IOException {
        return Files.createDirectories(work.resolve("cases").resolve(name));
    }

    /** `vprof run OPTS -o DIR/capture.vprof -- PROGRAM CASE`, logs as DIR/run.*; the program's result line or null. */
    Captured vprofRun(Path dir, String programCase, long bound, String... opts) throws IOException, InterruptedException {
        Path file = dir.resolve("capture.vprof");
        List<String> cmd = new ArrayList<>(List.of("run"));
        cmd.addAll(List.of(opts));
        cmd.addAll(List.of("-o", file.toString(), "--", program.toString(), programCase));
        SelfCli.Result r = SelfCli.run(SelfCli.vprof(cmd.toArray(String[]::new)), programEnv, timeout(bound), dir, "run");
        JsonNode result = r.lastJsonLine();
        return new Captured(r.exitCode(), result != null && result.has("case") ? result : null, file, r.stderr());
    }

    /** A capture and what ran it: the runner's exit code, the program's result line (null: none). */
    record Captured(int exitCode, JsonNode result, Path file, String stderr) {
        boolean ok() {
            return exitCode == 0 && result != null && Files.exists(file);
        }

        /** A row saying why there is nothing to check, from the end of stderr. */
        Row failure(String label) {
            String why = exitCode != 0 ? "exit " + exitCode : result == null ? "no result line from the program"
                    : "no capture file";
            return Row.of(label + ": vprof and the program ran", "exit 0, a result, a capture",
                    why + ": " + tail(stderr), false);
        }
    }

    /** The report of a capture, as `vprof report --json --top 1000 FILE` prints it, kept as DIR/report.json. */
    JsonNode report(Path capture, Path dir) throws IOException {
        return report(capture, dir, "the program");
    }

    /** As {@link #report(Path, Path)}; {@code who} ran the capture ("the program", "PyTorch"), for the facts. */
    JsonNode report(Path capture, Path dir, String who) throws IOException {
        String json;
        try (CaptureReader reader = CaptureReader.open(capture)) {
            json = ReportJson.render(CaptureReport.build(reader, 1000));
        }
        Files.writeString(dir.resolve("report.json"), json);
        JsonNode report = SelfCli.parse(json);
        processFacts(report, who);
        return report;
    }

    /** The capture's facts (CaptureFacts), kept as DIR/facts.json; deletes a large capture after. */
    CaptureFacts facts(Path capture, Path dir) throws IOException {
        CaptureFacts f = CaptureFacts.of(capture);
        Files.writeString(dir.resolve("facts.json"), JSON.writeValueAsString(f.json()));
        long size = Files.size(capture);
        if (size > KEEP_CAPTURE_BYTES) {
            Files.delete(capture);
            Files.writeString(dir.resolve("capture.deleted.txt"), "capture.vprof was " + size
                    + " bytes: deleted after report.json and facts.json were written from it\n");
        }
        return f;
    }

    /** The report's range with this index (of the only, or first, process), or null. */
    static JsonNode range(JsonNode report, int index) {
        for (JsonNode r : report.path("ranges")) {
            if (r.path("index").asInt() == index) {
                return r;
            }
        }
        return null;
    }

    /** Judges every range the program's result lists against the capture. */
    List<Row> ranges(String label, JsonNode result, JsonNode report, CaptureFacts facts, RangeCheck.Graphs graphs,
                     UnaryOperator<RangeCheck> tune) {
        List<Row> rows = new ArrayList<>();
        int i = 1;
        for (JsonNode want : result.path("ranges")) {
            RangeCheck c = new RangeCheck(label + (result.path("ranges").size() > 1 ? " r" + i : ""), want,
                    range(report, i), facts.range(i), shapes);
            rows.addAll(tune.apply(c).check(graphs).rows());
            i++;
        }
        return rows;
    }

    /** Facts about the capturing process: CUPTI's version, the agent's own warnings (the latest capture's). */
    private void processFacts(JsonNode report, String who) {
        JsonNode p = report.path("processes").path(0);
        if (p.isMissingNode()) {
            return;
        }
        table.fact("CUPTI API version (cuptiGetVersion), " + who, p.path("cupti_version").asLong());
        List<String> w = new ArrayList<>();
        p.path("agent_warnings").forEach(x -> w.add(x.asText()));
        table.fact("CUPTI record layout verified by vprof, " + who, w.contains("unverified_record_layout")
                ? "NO (every record sanity-checked; see agent_warnings)" : "yes");
        table.fact("agent warnings about this CUPTI, " + who, w.isEmpty() ? "none" : w.toString());
    }

    /** Waits until the agent of pid is in a state the predicate accepts; its state then (null: no region). */
    AgentState awaitAgent(long pid, Predicate<AgentState> done, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        AgentState s = null;
        do {
            s = agentState(pid);
            if (s != null && (done.test(s) || s == AgentState.FAILED)) {
                return s;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        return s;
    }

    /** The agent's state in pid, or null when its region cannot be read. */
    static AgentState agentState(long pid) {
        try (Region r = Region.open(region(pid), Posix.getuid(), false)) {
            return r.state();
        } catch (Exception e) {
            return null;
        }
    }

    /** The agent's reason string (why it FAILED, its last warning), or "" when unreadable. */
    static String agentReason(long pid) {
        try (Region r = Region.open(region(pid), Posix.getuid(), false)) {
            return r.reason();
        } catch (Exception e) {
            return "";
        }
    }

    /** The agent's cupti_facts bits (VprofRing.CUPTI_*), or -1 when unreadable. */
    static long cuptiFacts(long pid) {
        try (Region r = Region.open(region(pid), Posix.getuid(), false)) {
            return r.cuptiFacts();
        } catch (Exception e) {
            return -1;
        }
    }

    private static Path region(long pid) {
        return Path.of("/dev/shm/vprof." + pid);
    }

    static String tail(String s) {
        String t = s.strip();
        int nl = t.lastIndexOf('\n');
        return nl < 0 ? t : t.substring(nl + 1);
    }
}
