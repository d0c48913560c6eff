package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The README's promises about the command line: one-sentence usage errors, help that teaches by example. */
class HelpAndUsageTest {

    private static void assertOneSentence(Cli.Result r, String command, String fragment) {
        assertEquals(2, r.code(), r.err());
        List<String> lines = r.err().strip().lines().toList();
        assertEquals(1, lines.size(), "one line, not the whole usage: " + r.err());
        String line = lines.getFirst();
        assertTrue(line.startsWith(command + ": "), line);
        assertTrue(line.contains(fragment), "'" + fragment + "' in: " + line);
        assertTrue(line.endsWith("; see " + command + " --help"), line);
        assertFalse(r.err().contains("Usage:"), r.err());
        assertEquals("", r.out(), "nothing on stdout");
    }

    @Test
    void aUsageErrorIsOneSentenceThatPointsAtTheCommandsHelp() {
        assertOneSentence(Cli.run("report"), "vprof report", "missing required parameter");
        assertOneSentence(Cli.run("attach", "--duration", "1s"), "vprof attach", "--pid");
        assertOneSentence(Cli.run("list", "--bogus"), "vprof list", "unknown option: '--bogus'");
        assertOneSentence(Cli.run("report", "--top", "many", "x.vprof"), "vprof report", "'many' is not an int");
        assertOneSentence(Cli.run("triage", "--url", "h:1", "--window", "1s", "--interval", "2s"), "vprof triage",
                "must be at least --interval");
    }

    @Test
    void anUnknownCommandIsNamedWithTheNearestOnes() {
        Cli.Result r = Cli.run("atach", "--pid", "1");
        assertOneSentence(r, "vprof", "unknown command 'atach'");
        assertTrue(r.err().contains("did you mean attach"), r.err());
    }

    /** Every command teaches by example, and no example is broken across lines for copy and paste. */
    @Test
    void everyCommandsHelpHasExamplesPrintedUnwrapped() {
        Map<String, CommandLine> commands = Main.commandLine().getSubcommands();
        for (Map.Entry<String, CommandLine> c : commands.entrySet()) {
            if (c.getKey().equals("help")) {
                continue;
            }
            // simulate hands --help to the simulator (its own usage); its picocli help is rendered directly.
            String help = c.getKey().equals("simulate") ? c.getValue().getUsageMessage() : Cli.run(c.getKey(), "--help").out();
            assertTrue(help.contains("Example"), c.getKey() + " has examples: " + help);
            List<String> shown = help.lines().toList();
            int examples = 0;
            for (String line : c.getValue().getCommandSpec().usageMessage().footer()) {
                if (line.startsWith("  ")) {
                    examples++;
                    assertTrue(shown.contains(line), c.getKey() + ": the example is printed whole, on one line: '"
                            + line + "' in\n" + help);
                }
            }
            assertTrue(examples > 0, c.getKey() + " has at least one example line");
        }
    }

    @Test
    void longExamplesStayWholeEvenPastTheHelpWidth() {
        String help = Cli.run("attach", "--help").out();
        assertTrue(help.lines().anyMatch(l -> l.length() > 80 && l.startsWith("  vprof attach")),
                "an example longer than 80 columns is printed whole: " + help);
    }

    /**
     * picocli formats descriptions with String.format: a bare '%' (as in "95%") makes it warn on
     * stderr at every --help and print the raw text. Every command's help renders without one.
     */
    @Test
    void everyCommandsHelpRendersWithoutAFormatWarning() {
        PrintStream saved = System.err;
        ByteArrayOutputStream caught = new ByteArrayOutputStream();
        System.setErr(new PrintStream(caught, true, StandardCharsets.UTF_8));
        int rendered = 0;
        try {
            ArrayDeque<CommandLine> todo = new java.util.ArrayDeque<>(List.of(Main.commandLine()));
            while (!todo.isEmpty()) {
                CommandLine c = todo.pop();
                c.getUsageMessage();
                rendered++;
                todo.addAll(c.getSubcommands().values());
            }
        } finally {
            System.setErr(saved);
        }
        assertTrue(rendered > 10, rendered + " commands");
        assertEquals("", caught.toString(StandardCharsets.UTF_8));
    }
}
