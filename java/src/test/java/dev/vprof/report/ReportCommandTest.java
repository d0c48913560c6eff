package dev.vprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.RingRecords;
import dev.vprof.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `vprof report` as a person runs it: exit codes, stdout, stderr. */
class ReportCommandTest {

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine(); // its error handler: one sentence, exit 2
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        String[] withCommand = new String[args.length + 1];
        withCommand[0] = "report";
        System.arraycopy(args, 0, withCommand, 1, args.length);
        int exit = cli.execute(withCommand);
        return new Run(exit, out.toString(), err.toString());
    }

    private Path capture(int ranges) throws IOException {
        return capture(ranges, "kernel_a");
    }

    private Path capture(int ranges, String kernelName) throws IOException {
        Path file = dir.resolve("c.vprof");
        long t0 = 1_700_000_000_000_000_000L;
        try (CaptureWriter w = CaptureWriter.create(file, new CaptureMetadata("h", t0, "0.1.0", List.of(), Map.of()))) {
            for (int r = 1; r <= ranges; r++) {
                RingRecords rec = new RingRecords().rangeBegin(VprofRing.SOURCE_PROFILER, r, 1, t0 + r * 1000L)
                        .string(1, kernelName).kernelDesc(1, 1, 0, 0);
                for (int i = 0; i < 40; i++) {
                    rec.kernel(t0 + r * 1000L + i, t0 + r * 1000L + i + 1, i, 1);
                }
                rec.rangeEnd(VprofRing.SOURCE_PROFILER, r, 1, t0 + r * 1000L + 500, 0, 0, 0).writeTo(w, 42);
                w.flush();
            }
        }
        return file;
    }

    @Test
    void aFileThatIsNotACaptureExitsTwoWithOneSentence() throws IOException {
        Path text = dir.resolve("x.txt");
        Files.writeString(text, "not a capture");
        Run r = run(text.toString());
        assertEquals(2, r.exit());
        assertEquals("vprof: " + text + " is not a vprof capture, a PyTorch profiler trace (.json, .json.gz), a folder of them "
                + "or an Nsight Systems SQLite export\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void aMissingFileOrADirectoryExitsTwo() {
        Run missing = run(dir.resolve("nope.vprof").toString());
        assertEquals(2, missing.exit());
        assertEquals("vprof: " + dir.resolve("nope.vprof") + " does not exist\n", missing.err());
        Run directory = run(dir.toString());
        assertEquals(2, directory.exit());
        // A folder is read as a folder of PyTorch profiler traces: one without any says so.
        assertTrue(directory.err().startsWith("vprof: " + dir + " holds no PyTorch profiler trace"),
                directory.err());
        assertEquals(1, directory.err().lines().count());
    }

    @Test
    void aTruncatedCaptureIsReportedWithAWarningOnStderr() throws IOException {
        Path file = capture(2);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 100));
        Run r = run("--json", file.toString());
        // read partly: what follows the cut is lost, so the exit code says so (and the JSON is still printed)
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().startsWith("vprof: warning: " + file + " is cut short"), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        // The cut falls in the second range's chunk: its whole records come back, unverified.
        assertEquals(80, json.at("/totals/kernels").asLong());
        assertTrue(json.at("/totals/unverified_records").asLong() > 0, json.get("totals").toString());
        assertTrue(r.err().contains("whole records were recovered"), r.err());
        assertEquals(false, json.get("complete").asBoolean());
    }

    @Test
    void jsonAndTextAgreeAndTopLimitsTheKernelLists() throws IOException {
        Path file = capture(2);
        Run json = run("--json", "--top", "1", file.toString());
        assertEquals(0, json.exit());
        assertEquals("", json.err());
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertEquals(80, root.at("/totals/kernels").asLong());
        assertEquals(2, root.at("/ranges").size());
        assertEquals(1, root.at("/top_kernels").size());
        Run text = run(file.toString());
        assertEquals(0, text.exit());
        assertTrue(text.out().contains("range 1 [profiler .. profiler]"), text.out());
        assertTrue(text.out().contains("summary: 1 process, 2 ranges, 80 kernels"), text.out());
        assertTrue(text.out().contains("kernel_a"), text.out());
    }

    @Test
    void aNegativeTopIsRefused() throws IOException {
        Run r = run("--top", "-1", capture(1).toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--top must be 0 or more"), r.err());
    }

    @Test
    void kernelNamesAreDemangledAndMangledShowsThemAsCuptiGaveThem() throws IOException {
        String mangled = "_ZN5flash16flash_fwd_kernelILi128ELi128ELi64ELi4ELb1ELb0ELb1EEEvNS_16Flash_fwd_paramsE";
        Path file = capture(1, mangled);
        JsonNode shown = new ObjectMapper().readTree(run("--json", file.toString()).out());
        assertEquals("void flash::flash_fwd_kernel<128, 128, 64, 4, true, false, true>(flash::Flash_fwd_params)",
                shown.at("/top_kernels/0/name").asText());
        JsonNode raw = new ObjectMapper().readTree(run("--json", "--mangled", file.toString()).out());
        assertEquals(mangled, raw.at("/top_kernels/0/name").asText());
    }
}
