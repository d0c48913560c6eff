package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * The PyTorch cases (torch_selftest.py): vprof against torch.profiler over the same workload in two
 * processes, and torch.profiler inside vprof's own process, before and during a vprof range (R1).
 * The Python's environment is left as it is (not the program's CUDA_HOME): the agent must find the
 * libcupti PyTorch loaded, as it does in a user's server.
 */
final class TorchCases {
    private final SelftestRun run;

    TorchCases(SelftestRun run) {
        this.run = run;
    }

    void run() throws IOException, InterruptedException {
        Path dir = run.caseDir("pytorch");
        Path script = dir.resolve("torch_selftest.py");
        try (InputStream in = GpuSelftest.class.getResourceAsStream("/dev/vprof/selftest/torch_selftest.py")) {
            if (in == null) {
                run.table.add(Row.of("pytorch: torch_selftest.py", "in the vprof jar", "missing", false));
                return;
            }
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        String python = Toolchain.pythonWithTorch(dir);
        if (python == null) {
            run.table.add(Row.skipped("pytorch", "no python3 here that imports torch and sees a CUDA device"));
            return;
        }
        SelfCli.Result theirs = SelfCli.run(List.of(python, script.toString(), "torch"), Map.of(), run.timeout(300), dir,
                "torch");
        JsonNode reference = theirs.exitCode() == 0 ? theirs.lastJsonLine() : null;
        if (reference == null) {
            run.table.add(Row.of("pytorch: torch.profiler alone (the reference)", "exit 0 and its counts",
                    "exit " + theirs.exitCode() + ": " + SelftestRun.tail(theirs.stderr()), false));
            return;
        }
        run.table.fact("torch.profiler's kernels in the workload", TorchCheck.total(reference.path("kernels")));

        Path file = dir.resolve("vprof.vprof");
        SelfCli.Result ours = SelfCli.run(SelfCli.vprof("run", "--capture-range=cudaProfilerApi", "-o", file.toString(),
                "--", python, script.toString(), "vprof"), Map.of(), run.timeout(300), dir, "vprof");
        if (ours.exitCode() != 0 || !Files.exists(file)) {
            run.table.add(Row.of("pytorch: vprof run of the workload", "exit 0", "exit " + ours.exitCode() + ": "
                    + SelftestRun.tail(ours.stderr()), false));
        } else {
            JsonNode report = report(file, dir, "vprof");
            run.table.addAll(TorchCheck.compare("pytorch", reference.path("kernels"),
                    report.path("totals").path("kernels").asLong(), TorchCheck.names(report.path("top_kernels"))));
        }

        Path same = dir.resolve("same-process.vprof");
        SelfCli.Result both = SelfCli.run(SelfCli.vprof("run", "--capture-range=cudaProfilerApi",
                "--capture-range-end=repeat:2", "-o", same.toString(), "--", python, script.toString(), "same-process"),
                Map.of(), run.timeout(300), dir, "same-process");
        JsonNode report = Files.exists(same) ? report(same, dir, "same-process") : null;
        JsonNode result = both.lastJsonLine();
        run.table.addAll(TorchCheck.sameProcess(reference.path("kernels"), both.exitCode(),
                result != null && result.has("torch_before") ? result : null,
                report == null ? null : SelftestRun.range(report, 1), report == null ? null : SelftestRun.range(report, 2)));
    }

    private JsonNode report(Path capture, Path dir, String name) throws IOException {
        Path sub = Files.createDirectories(dir.resolve(name));
        JsonNode report = run.report(capture, sub, "PyTorch");
        run.facts(capture, sub);
        return report;
    }
}
