package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged capture is an error: report and export show what they could read, exit 3 ("read
 * partly", in their --help) and say how much was lost; the export's hint names the damage, not a
 * capture range that never opened.
 */
@Timeout(120)
class DamagedInputTest {
    private static final Pattern LOST = Pattern.compile("was read only partly: .*?(\\d+) damaged chunks? "
            + "\\(([0-9.]+ (?:bytes|KiB|MiB)) of its ([0-9.]+ (?:bytes|KiB|MiB))\\) (?:was|were) skipped");

    @TempDir
    Path dir;

    private Path whole;
    private long kernels;

    @BeforeEach
    void aCapture() {
        E2e e2e = E2e.nativeParts();
        whole = dir.resolve("whole.vprof");
        E2e.run(List.of("-o", whole.toString()), e2e.sim("--steps", "2000", "--kernels-per-step", "40"));
        kernels = E2e.kernels(E2e.report(whole));
        assertEquals(2000 * 40, kernels, "the simulator's own count");
    }

    private Path damaged(String name, byte[] bytes) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    @Test
    void twoHundredFlippedBytesMakeReportAndExportExitThreeAndSayHowMuchWasLost() throws Exception {
        byte[] b = Files.readAllBytes(whole);
        Random rnd = new Random(21);
        for (int i = 0; i < 200; i++) {
            int at = 4096 + rnd.nextInt(b.length - 8192);
            b[at] ^= (byte) 0xA5;
        }
        Path file = damaged("flipped.vprof", b);

        Cli.Result r = Cli.run("report", "--json", file.toString());
        assertEquals(3, r.code(), r.err());
        Matcher m = LOST.matcher(r.err());
        assertTrue(m.find(), "says how much was lost: " + r.err());
        assertTrue(Integer.parseInt(m.group(1)) >= 1);
        long shown = new ObjectMapper().readTree(r.out()).at("/totals/kernels").asLong();
        assertTrue(shown < kernels, "the report covers what was readable: " + shown + " of " + kernels);

        Path out = dir.resolve("flipped.pftrace");
        Cli.Result x = Cli.run("export", file.toString(), "-o", out.toString());
        assertEquals(3, x.code(), x.err());
        assertTrue(LOST.matcher(x.err()).find(), x.err());
        assertFalse(x.err().contains("never opened"), "the hint names the damage: " + x.err());
    }

    @Test
    void theFirstHundredBytesOfACaptureAreNothingReadableNotAnEmptyReport() throws Exception {
        Path file = damaged("head.vprof", Arrays.copyOf(Files.readAllBytes(whole), 100));
        Cli.Result r = Cli.run("report", file.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains(file + " was read only partly: it ends at byte 100 in the middle of a chunk "
                + "(cut short): the rest of the file after byte 100 is missing") && r.err().contains("nothing in it was readable"),
                "nothing was readable: " + r.err());

        Cli.Result x = Cli.run("export", file.toString(), "-o", dir.resolve("head.json").toString());
        assertEquals(3, x.code(), x.err());
        assertTrue(x.err().contains("nothing in it was readable") && x.err().contains("no trace was written"), x.err());
        assertFalse(x.err().contains("perhaps never opened"), x.err());
        assertFalse(Files.exists(dir.resolve("head.json")));
    }

    @Test
    void anOtlpExportOfADamagedCaptureWithoutSpansSaysWhatWasLostNotOnlyThatThereAreNoSpans() throws Exception {
        byte[] b = Files.readAllBytes(whole);
        Path file = damaged("cut.vprof", Arrays.copyOf(b, b.length / 2));
        // Nothing listens on the port: a sentence about the collector would mean spans were sent.
        Cli.Result x = Cli.run("export", file.toString(), "--otlp", "http://127.0.0.1:1/v1/traces");
        assertEquals(ExitCode.READ_PARTLY.code(), x.code(), x.err());
        assertTrue(x.err().contains("vprof export: " + file + " was read only partly: "), x.err());
        assertTrue(x.err().contains(file + " holds no request spans (llm_request) in what could be read"), x.err());
        assertFalse(x.err().contains("127.0.0.1:1"), "nothing was sent: " + x.err());
    }

    @Test
    void theExitCodeIsDocumentedInHelp() {
        for (String command : new String[] {"report", "export"}) {
            String help = Cli.run(command, "--help").out();
            assertTrue(help.lines().anyMatch(l -> l.strip().startsWith("3 ")
                    && l.contains(ExitCode.READ_PARTLY.meaning().substring(0, 30))), help);
        }
    }
}
