package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The cases the self-test program runs under {@code vprof run}, one capture each: the three
 * capture-range modes, a long kernel at an unsynchronized stop (R3), 32 launching threads (R6), NVTX
 * before CUDA initializes (R12), and 10^6 graph kernels (R4). Each case's folder holds the run's
 * logs, the capture (unless large), report.json and facts.json.
 */
final class CaptureCases {
    private final SelftestRun run;

    CaptureCases(SelftestRun run) {
        this.run = run;
    }

    /** A case's capture, read: the program's result line, the report, the facts. */
    private record Checked(JsonNode result, JsonNode report, CaptureFacts facts) {}

    /**
     * `vprof run OPTS -- PROGRAM NAME` in the case's folder, its report and facts, and the rows of
     * every range the program lists (exact graphs, tuned by {@code tune}); null, with a failed row,
     * when there is nothing to check.
     */
    private Checked capture(String name, long bound, UnaryOperator<RangeCheck> tune,
                            String... opts) throws IOException, InterruptedException {
        Path dir = run.caseDir(name);
        SelftestRun.Captured c = run.vprofRun(dir, name, bound, opts);
        if (!c.ok()) {
            run.table.add(c.failure(name));
            return null;
        }
        JsonNode report = run.report(c.file(), dir);
        CaptureFacts facts = run.facts(c.file(), dir);
        run.table.addAll(run.ranges(name, c.result(), report, facts, RangeCheck.Graphs.EXACT, tune));
        return new Checked(c.result(), report, facts);
    }

    /** The checked phase in one capture-range mode (profiler, nvtx, none). */
    void mode(String mode, String captureRange) throws IOException, InterruptedException {
        Checked c = capture(mode, 120, r -> r, captureRange);
        if (c != null && mode.equals("profiler")) {
            JsonNode report = c.report();
            // The agent enables CUPTI's DEVICE kind with each range, after the context exists.
            JsonNode devices = report.path("processes").path(0).path("devices");
            String names = devices.size() == 0 ? "none" : devices.size() + ": " + devices.path(0).path("name").asText()
                    + ", compute capability " + devices.path(0).path("compute_major").asInt() + "."
                    + devices.path(0).path("compute_minor").asInt() + ", " + devices.path(0).path("sm_count").asInt()
                    + " SMs";
            run.table.add(Row.of("profiler: the GPU's DEVICE record", "1 device", names, devices.size() == 1));
        }
    }

    /** R3: a 0.5 s kernel launched just before cudaProfilerStop, no synchronize; kernels after the stop. */
    void unsyncStop() throws IOException, InterruptedException {
        Checked c = capture("unsync-stop", 120, r -> r, "--capture-range=cudaProfilerApi");
        if (c == null) {
            return;
        }
        CaptureFacts facts = c.facts();
        long spin = c.result().path("spin_ns").asLong();
        CaptureFacts.Kernel k = facts.range(1).kernels.get("vprof_selftest_spin");
        long recorded = k == null || k.count == 0 ? 0 : k.maxNs;
        run.table.add(Row.of("unsync-stop: the long kernel's recorded duration", ">= " + ms(spin * 9 / 10),
                k == null ? "not recorded" : ms(recorded), recorded >= spin * 9 / 10));
        run.table.add(Row.info("unsync-stop: cudaProfilerStop took (it does not wait for the GPU if well under "
                + ms(spin) + ")", ms(c.result().path("stop_call_ns").asLong())));
        JsonNode r1 = SelftestRun.range(c.report(), 1);
        if (r1 != null) {
            run.table.add(Row.info("unsync-stop: records clipped as launched after the stop",
                    Long.toString(r1.path("fidelity").path("clipped").asLong())));
        }
    }

    /** R6: 32 host threads launching in one range (CUDA 13's per-thread activity buffers). */
    void threads() throws IOException, InterruptedException {
        Checked c = capture("threads", 120, r -> r, "--capture-range=cudaProfilerApi");
        if (c == null) {
            return;
        }
        CaptureFacts.Kernel k = c.facts().range(1).kernels.get("vprof_selftest_thread");
        int threads = c.result().path("threads").asInt();
        run.table.add(Row.count("threads: streams the kernels ran on (one per thread)", threads,
                k == null ? 0 : k.streams.size()));
        JsonNode p = c.report().path("processes").path(0);
        JsonNode counters = p.path("counters");
        run.table.add(Row.count("threads: CUPTI buffer requests the pool could not serve from its buffers", 0,
                counters.path("pool_emergency_buffers").asLong() + counters.path("pool_refusals").asLong()));
        List<String> w = new ArrayList<>();
        p.path("agent_warnings").forEach(x -> w.add(x.asText()));
        run.table.add(Row.info("threads: per-thread activity buffers", w.contains("per_thread_buffers_on")
                ? "CUPTI kept them on (the agent keeps 64 buffers ready)" : "off (as the agent asks)"));
    }

    /** R12: an NVTX range before CUDA initializes, then the NVTX capture range. */
    void nvtxEarly() throws IOException, InterruptedException {
        Checked c = capture("nvtx-early", 120, r -> r, "--capture-range=nvtx:vprof_selftest_window");
        if (c == null) {
            return;
        }
        JsonNode r1 = SelftestRun.range(c.report(), 1);
        run.table.add(Row.of("nvtx-early: the NVTX range opened a capture range", "source nvtx",
                r1 == null ? "no range" : "source " + r1.path("source").asText(),
                r1 != null && "nvtx".equals(r1.path("source").asText())));
        if (r1 != null) {
            run.table.add(Row.info("nvtx-early: NVTX ranges recorded in the range", r1.path("markers").asText()));
        }
    }

    /** R4: a graph of 1000 kernels replayed 1000 times: every record kept or rejected by reason, none lost silently. */
    void graphStress() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Checked c = capture("graph-stress", 240, RangeCheck::allowRejected, "--capture-range=cudaProfilerApi");
        long took = System.nanoTime() - t0;
        if (c == null) {
            return;
        }
        JsonNode r1 = SelftestRun.range(c.report(), 1);
        long want = c.result().path("ranges").path(0).path("kernels").path("vprof_selftest_stress").asLong();
        long kept = r1 == null ? 0 : r1.path("kernels").asLong();
        long rejected = 0;
        long dropped = 0;
        if (r1 != null) {
            for (JsonNode v : r1.path("fidelity").path("rejected")) {
                rejected += v.asLong();
            }
            dropped = r1.path("ring_drops").asLong() + r1.path("cupti_drops").asLong();
        }
        run.table.add(Row.of("graph-stress: kernels kept + rejected by reason + dropped and counted (no silent loss)",
                Long.toString(want), kept + " + " + rejected + " + " + dropped, kept + rejected + dropped == want));
        JsonNode res = c.result();
        run.table.add(Row.info("graph-stress: free device memory before / after the replays (CUPTI's device buffers)",
                String.format(Locale.ROOT, "%.1f / %.1f MiB of %.1f GiB", res.path("device_free_before").asDouble() / (1 << 20),
                        res.path("device_free_after").asDouble() / (1 << 20), res.path("device_total").asDouble() / (1 << 30))));
        run.table.add(Row.info("graph-stress: the whole run (vprof run, 10^6 kernels)", ms(took)));
    }

    static String ms(long ns) {
        return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
    }
}
