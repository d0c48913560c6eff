package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The one exit-code table is the same everywhere: the README's table is {@link ExitCode#values()},
 * row for row; every command says which rows it returns; and no command's source returns a literal
 * number instead of a row.
 */
class ExitCodeTableTest {

    @Test
    void theReadmeTableIsTheEnum() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        int at = readme.indexOf("<!-- exit codes: cli.ExitCode");
        assertTrue(at > 0, "README has the exit-code table");
        List<String> rows = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^\\| (\\d+) \\| (.+) \\|$").matcher(readme.substring(at));
        while (m.find() && rows.size() < ExitCode.values().length + 1) {
            rows.add(m.group(1) + " " + m.group(2));
        }
        List<String> expected = new ArrayList<>();
        for (ExitCode c : ExitCode.values()) {
            expected.add(c.code() + " " + c.meaning());
        }
        assertEquals(expected, rows.subList(0, Math.min(rows.size(), expected.size())));
    }

    @Test
    void everyCommandListsTheRowsItReturns() {
        CommandLine cl = Main.commandLine();
        for (var e : cl.getSubcommands().entrySet()) {
            if (e.getValue().getCommand() instanceof CommandLine.HelpCommand) {
                continue;
            }
            assertTrue(e.getValue().getCommand() instanceof ExitCode.Returns,
                    "vprof " + e.getKey() + " lists the exit codes it returns (ExitCode.Returns)");
            List<ExitCode> codes = ((ExitCode.Returns) e.getValue().getCommand()).exitCodes();
            assertTrue(codes.contains(ExitCode.OK), e.getKey());
            if (e.getKey().equals("simulate")) {
                continue; // its --help is vprof-simgpu's own, which it passes its arguments to
            }
            String help = Cli.run(e.getKey(), "--help").out();
            assertTrue(help.contains("Exit codes:"), e.getKey() + "'s --help lists them: " + help);
        }
    }

    /** The method that starts at {@code from}: up to the brace that closes its first one. */
    private static String body(String src, int from) {
        int open = src.indexOf('{', from);
        int depth = 0;
        for (int i = open; i < src.length(); i++) {
            char c = src.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return src.substring(open, i + 1);
            }
        }
        return src.substring(open);
    }

    @Test
    void noCommandReturnsALiteralExitNumber() throws IOException {
        Pattern literal = Pattern.compile("return\\s+(?:[^;?]*\\?\\s*)?-?[0-9]+\\s*(?::\\s*-?[0-9]+\\s*)?;");
        try (Stream<Path> files = Files.list(Path.of("src/main/java/dev/vprof/cli"))) {
            for (Path f : files.filter(p -> p.toString().endsWith("Command.java") || p.endsWith("OtlpExport.java")).toList()) {
                String src = Files.readString(f);
                int call = src.indexOf("public Integer call()");
                if (call < 0) {
                    call = src.indexOf("static int run(");
                }
                if (call < 0) {
                    continue;
                }
                Matcher m = literal.matcher(body(src, call));
                assertFalse(m.find(), f.getFileName() + " returns a literal exit code: " + (m.hitEnd() ? "" : m.group()));
            }
        }
    }
}
