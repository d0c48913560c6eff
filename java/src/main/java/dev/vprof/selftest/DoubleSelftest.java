package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code vprof selftest} without --gpu: the whole capture path (agent, ring, front
 * end, file, report) on the CUPTI test double, with counts the simulator knows.
 * It proves the installation works; it says nothing about a GPU.
 */
public final class DoubleSelftest {
    private final PrintWriter out;
    private final Path work;

    public DoubleSelftest(PrintWriter out, Path work) {
        this.out = out;
        this.work = work;
    }

    public int run() throws IOException, InterruptedException {
        Path file = work.resolve("double.vprof");
        List<String> cmd = SelfCli.vprof("run", "--capture-range=cudaProfilerApi", "--capture-range-end=repeat",
                "-o", file.toString(), "--", "simulate", "--steps", "300", "--kernels-per-step", "40",
                "--profiler-range", "50:100", "--profiler-range", "200:230");
        // `run -- simulate` would look for a program called simulate: run our own CLI's simulate.
        int sep = cmd.indexOf("--");
        cmd.remove(sep + 1);
        cmd.addAll(sep + 1, SelfCli.vprof("simulate"));
        SelfCli.Result r = SelfCli.run(cmd, Map.of(), 300, work);
        if (r.exitCode() != 0) {
            out.println("vprof run on the CUPTI test double failed (exit " + r.exitCode() + "):\n" + r.stderr());
            return 1;
        }
        SelfCli.Result rep = SelfCli.run(SelfCli.vprof("report", "--json", file.toString()), Map.of(), 120, work);
        if (rep.exitCode() != 0) {
            out.println("vprof report failed (exit " + rep.exitCode() + "):\n" + rep.stderr());
            return 1;
        }
        JsonNode j = SelfCli.parse(rep.stdout());
        long kernels = j.path("totals").path("kernels").asLong();
        long ranges = j.path("ranges").size();
        long drops = j.path("totals").path("ring_drops").asLong() + j.path("totals").path("cupti_drops").asLong();
        boolean ok = kernels == 3200 && ranges == 2 && drops == 0;
        out.printf("CUPTI test double: %d ranges (expected 2), %d kernels (expected 3200), %d drops (expected 0): %s%n",
                ranges, kernels, drops, ok ? "ok" : "MISMATCH");
        out.println("This checks vprof's own capture path. It is not a GPU measurement: run 'vprof selftest --gpu' on a GPU machine.");
        return ok ? 0 : 1;
    }
}
