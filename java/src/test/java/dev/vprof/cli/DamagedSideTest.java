package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * diff and merge with a damaged side say which side and what was lost, in one sentence, and give
 * no verdict or archive (exit 3) unless the loss is accepted with {@code --accept-loss}; then the
 * verdict or archive is given and the loss is still printed, exit 3. Before: {@code diff damaged
 * good} said NO CHANGE, {@code diff --force good damaged} IMPROVED and {@code merge good damaged}
 * wrote its archive, all with exit 0.
 */
@Timeout(300)
class DamagedSideTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static Path good;
    private static Path damaged;

    @BeforeAll
    static void captures() throws Exception {
        E2e e2e = E2e.nativeParts();
        good = dir.resolve("good.vprof");
        E2e.run(List.of("-o", good.toString()), e2e.sim("--steps", "1000", "--kernels-per-step", "40"));
        byte[] b = Files.readAllBytes(good);
        damaged = Files.write(dir.resolve("damaged.vprof"), Arrays.copyOf(b, b.length / 3)); // cut a third in
    }

    @Test
    void diffWithADamagedBaseGivesNoVerdict() {
        Cli.Result r = readPartly("diff", damaged.toString(), good.toString());
        assertEquals("", r.out(), "no verdict");
        assertSideSentence(r, "diff", "base side", "no verdict was given");
    }

    @Test
    void diffForcedWithADamagedNewSideStillGivesNoVerdict() {
        Cli.Result r = readPartly("diff", "--force", good.toString(), damaged.toString());
        assertEquals("", r.out(), "--force is about comparability, not about loss");
        assertSideSentence(r, "diff", "new side", "pass --accept-loss to compare what could be read");
    }

    @Test
    void diffJsonWithADamagedSideIsReadHealthWithoutAVerdict() throws Exception {
        Cli.Result r = readPartly("diff", "--json", "--fail-on-regression", good.toString(), damaged.toString());
        JsonNode j = newSideReadPartly(r);
        assertTrue(j.get("verdict").isNull(), r.out());
        assertFalse(j.at("/read_health/base/read_partly").asBoolean());
        assertEquals(1, j.at("/read_health/new/stats/cut_short/value").asLong());
        assertEquals("data_loss", j.at("/read_health/new/stats/cut_short/severity").asText());
    }

    @Test
    void diffAcceptingTheLossGivesTheVerdictAndStillSaysWhatWasLost() throws Exception {
        Cli.Result r = readPartly("diff", "--accept-loss", "--json", good.toString(), damaged.toString());
        assertFalse(newSideReadPartly(r).get("verdict").isNull(), r.out());
        assertSideSentence(r, "diff", "new side", "the verdict covers what could be read (--accept-loss)");
    }

    @Test
    void diffOfTwoWholeCapturesCarriesTheirReadHealthAndExitsByItsVerdict() throws Exception {
        Cli.Result r = Cli.run("diff", "--json", good.toString(), good.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode j = JSON.readTree(r.out());
        assertEquals("NO CHANGE", j.get("verdict").asText());
        assertFalse(j.at("/read_health/base/read_partly").asBoolean());
        assertTrue(j.at("/read_health/new/summary").isNull());
    }

    @Test
    void mergeWithADamagedCaptureWritesNoArchiveUnlessTheLossIsAccepted() {
        Path tar = dir.resolve("run.tar");
        Cli.Result r = readPartly("merge", good.toString(), damaged.toString(), "-o", tar.toString());
        assertFalse(Files.exists(tar), "no archive");
        assertSideSentence(r, "merge", "capture of node 1", "no archive was written");

        Cli.Result accepted = readPartly("merge", "--accept-loss", "--force", good.toString(), damaged.toString(), "-o",
                tar.toString()); // --force: the two are copies of one capture, not one run's nodes
        assertTrue(Files.exists(tar), "the archive of what could be read");
        assertSideSentence(accepted, "merge", "capture of node 1", "the archive holds what could be read (--accept-loss)");
    }

    /** Runs {@code args}, which must exit 3: something was read only partly. */
    private static Cli.Result readPartly(String... args) {
        Cli.Result r = Cli.run(args);
        assertEquals(ExitCode.READ_PARTLY.code(), r.code(), r.err());
        return r;
    }

    /** The JSON {@code r} printed, which must say that its new side was read only partly. */
    private static JsonNode newSideReadPartly(Cli.Result r) throws IOException {
        JsonNode j = JSON.readTree(r.out());
        assertTrue(j.at("/read_health/new/read_partly").asBoolean(), r.out());
        return j;
    }

    private static void assertSideSentence(Cli.Result r, String command, String side, String tail) {
        List<String> lines = r.err().lines().filter(l -> l.startsWith("vprof " + command + ": ")).toList();
        assertEquals(1, lines.size(), "one sentence: " + r.err());
        String l = lines.getFirst();
        assertTrue(l.startsWith("vprof " + command + ": the " + side + ", " + damaged + " was read only partly: it ends "
                + "at byte " + sizeOf(damaged) + " in the middle of a chunk"), l);
        assertTrue(l.contains(tail), l);
        assertFalse(r.err().contains("Exception"), r.err());
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
