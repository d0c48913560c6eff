package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every command's help in one voice, and every example in it well-formed: each {@code vprof ...}
 * command line under "Examples:" (with the vprof commands inside {@code $(...)}, after a pipe and
 * after {@code run ... --}) is parsed by the real command line, as the shell would hand it over,
 * and must give no usage error. The help itself: "Usage: vprof NAME" first, no picocli
 * placeholder made from a field name ({@code <maxTokens>}), no paragraph broken by hand in the
 * middle (a line of one or two words inside a paragraph).
 */
class HelpExamplesTest {
    /** The help as a person sees it: simulate's comes from the simulator itself, under vprof's name. */
    private static String help(String command) throws IOException, InterruptedException {
        if (command.equals("simulate")) {
            ProcessBuilder pb = new ProcessBuilder(E2e.nativeParts().simgpu.toString(), "--help");
            pb.environment().put("VPROF_SIM_NAME", "vprof simulate");
            Process p = pb.redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), out);
            return out;
        }
        Cli.Result r = command.isEmpty() ? Cli.run("--help") : Cli.run(command, "--help");
        assertEquals(0, r.code(), r.err());
        return r.out();
    }

    /** Every command, and "" for vprof's own help. */
    static Stream<String> commands() {
        return Stream.concat(Stream.of(""),
                Main.commandLine().getSubcommands().keySet().stream().filter(c -> !c.equals("help")));
    }

    /** The lines under "Examples:" (or "Example:") up to the first unindented one, continuations joined. */
    static List<String> examples(String help) {
        List<String> out = new ArrayList<>();
        boolean in = false;
        StringBuilder pending = new StringBuilder();
        for (String line : help.lines().toList()) {
            if (line.equals("Examples:") || line.equals("Example:")) {
                in = true;
                continue;
            }
            if (!in) {
                continue;
            }
            if (!line.startsWith(" ")) {
                if (!line.isBlank()) {
                    in = false;
                }
                continue;
            }
            String t = line.strip();
            if (t.startsWith("->") || t.startsWith("(")) {
                continue; // the simulator's notes on what an example prints
            }
            if (t.endsWith("\\")) {
                pending.append(t, 0, t.length() - 1).append(' ');
                continue;
            }
            out.add(pending + t);
            pending.setLength(0);
        }
        return out;
    }

    /**
     * The simple commands of one shell line, as the shell would split them: words with their
     * quotes removed, a comment dropped, split at {@code | && ; &}, redirections dropped, and each
     * {@code $(...)} a command of its own (its place in the outer command becomes a word).
     */
    static List<List<String>> shellCommands(String line) {
        List<List<String>> commands = new ArrayList<>();
        split(line, commands);
        return commands;
    }

    private static void split(String s, List<List<String>> commands) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean word = false;
        boolean redirect = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'' || c == '"') {
                int end = s.indexOf(c, i + 1);
                assertTrue(end > 0, "an unclosed quote in: " + s);
                w.append(s, i + 1, end);
                word = true;
                i = end;
            } else if (c == '$' && i + 1 < s.length() && s.charAt(i + 1) == '(') {
                int depth = 0;
                int j = i + 1;
                for (; j < s.length(); j++) {
                    depth += s.charAt(j) == '(' ? 1 : s.charAt(j) == ')' ? -1 : 0;
                    if (depth == 0) {
                        break;
                    }
                }
                split(s.substring(i + 2, j), commands);
                w.append("SUBSTITUTED");
                word = true;
                i = j;
            } else if (c == '#' && !word) {
                break;
            } else if (c == ' ' || c == '|' || c == '&' || c == ';' || c == '>' || c == '<') {
                if (word) {
                    if (!redirect) {
                        words.add(w.toString());
                    }
                    redirect = false;
                    w.setLength(0);
                    word = false;
                }
                if (c == '>' || c == '<') {
                    redirect = true;
                } else if (c != ' ' && !words.isEmpty()) {
                    commands.add(words);
                    words = new ArrayList<>();
                }
            } else {
                w.append(c);
                word = true;
            }
        }
        if (word && !redirect) {
            words.add(w.toString());
        }
        if (!words.isEmpty()) {
            commands.add(words);
        }
    }

    /** Parses {@code vprof ARGS} and, for run, launch and the like, a vprof command after "--"; the usage error, or null. */
    private static String usageError(List<String> words) {
        List<String> args = new ArrayList<>(words.subList(1, words.size()));
        args.replaceAll(a -> a.equals("$!") ? "4242" : a);
        try {
            Main.commandLine().parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        }
        int dashes = args.indexOf("--");
        if (dashes >= 0 && dashes + 1 < args.size() && args.get(dashes + 1).equals("vprof")) {
            return usageError(args.subList(dashes + 1, args.size()));
        }
        return null;
    }

    @ParameterizedTest(name = "vprof {0} --help")
    @MethodSource("commands")
    void everyExampleInACommandsHelpParsesWithoutAUsageError(String command) throws Exception {
        String help = help(command);
        List<String> examples = examples(help);
        assertFalse(examples.isEmpty(), command + " has examples: " + help);
        int ofThisCommand = 0;
        for (String line : examples) {
            for (List<String> words : shellCommands(line)) {
                if (!words.getFirst().equals("vprof")) {
                    continue; // python, jq, kill: not vprof's to check
                }
                ofThisCommand += command.isEmpty() || words.contains(command) ? 1 : 0;
                if (command.equals("simulate")) {
                    // Its arguments go to the simulator as they are: each option must be one it documents.
                    for (String w : words) {
                        assertTrue(!w.startsWith("--") || help.contains("\n  " + w + " "),
                                "simulate: the example '" + line + "' uses " + w + ", which its help does not list");
                    }
                }
                String error = usageError(words);
                if (error != null) {
                    fail(command + ": the example '" + line + "' is a usage error: " + error);
                }
            }
        }
        assertTrue(ofThisCommand > 0, command + ": at least one example runs it: " + examples);
    }

    /** picocli's placeholder for an option or parameter without a paramLabel: its field's name in angle brackets. */
    private static final Pattern FIELD_PLACEHOLDER = Pattern.compile("(=|^|\\[| )<[a-z][A-Za-z0-9]*>");

    @ParameterizedTest(name = "vprof {0} --help")
    @MethodSource("commands")
    void everyCommandsHelpIsInOneVoice(String command) throws Exception {
        String help = help(command);
        assertTrue(help.startsWith("Usage: vprof " + (command.isEmpty() ? "[" : command + " ")),
                command + ": usage first: " + help);
        String before = help.contains("Examples:") ? help.substring(0, help.indexOf("Examples:")) : help;
        for (String line : before.lines().toList()) {
            // The usage lines and the option list (indented); prose may name patterns such as <host>_<pid>.
            if (line.startsWith("Usage:") || line.startsWith(" ")) {
                var placeholder = FIELD_PLACEHOLDER.matcher(line);
                assertFalse(placeholder.find(), command + ": a placeholder named after a field in '" + line
                        + "': give the option a paramLabel");
            }
        }
        List<String> lines = help.lines().toList();
        for (int i = 1; i + 1 < lines.size(); i++) {
            String l = lines.get(i);
            boolean insideParagraph = !l.isBlank() && !l.startsWith(" ") && !lines.get(i - 1).isBlank()
                    && !lines.get(i + 1).isBlank() && !lines.get(i + 1).startsWith(" ") && !l.endsWith(":");
            // A line that ends a description line ends with its sentence; one cut by hand stops mid-sentence.
            assertFalse(insideParagraph && l.strip().split(" +").length <= 2 && !l.strip().matches(".*[.:!?)]$"),
                    command + ": a paragraph broken by hand at '" + l + "':\n" + help);
        }
    }

    @Test
    void theShellSplitIsTheShells() {
        assertEquals(List.of(List.of("vprof", "list", "--json"), List.of("jq", ".[] | select(.state==\"DORMANT\") | .pid")),
                shellCommands("vprof list --json | jq '.[] | select(.state==\"DORMANT\") | .pid'"));
        assertEquals(List.of(List.of("vprof", "agent-path"), List.of("CUDA_INJECTION64_PATH=SUBSTITUTED", "python", "serve.py")),
                shellCommands("CUDA_INJECTION64_PATH=$(vprof agent-path) python serve.py &"));
        assertEquals(List.of(List.of("vprof", "diff", "--json", "a", "b")), shellCommands("vprof diff --json a b > d.json"));
        assertEquals(List.of(List.of("vprof", "demo")), shellCommands("vprof demo   # the whole story"));
        assertEquals("Unknown option: '--bogus'", usageError(List.of("vprof", "list", "--bogus")),
                "a usage error is found (the test can fail)");
        assertTrue(usageError(List.of("vprof", "run", "--", "vprof", "simulate", "--steps", "3")) == null);
    }
}
