package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One spelling of a warning: on stderr {@code vprof: warning: SENTENCE} (cli.ReadHealth, the engine's
 * lines), in the text report {@code warning: } (report.TextReport's one constant). No string in the
 * main sources spells it {@code WARNING:}, {@code vprof: WARNING:}, {@code vprof: --flag: warning:},
 * or starts a line with a bare {@code warning: } or {@code note: } elsewhere.
 */
class WarningSpellingTest {
    /** A string literal on one line. */
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    @Test
    void theMainSourcesSpellAWarningOneWay() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    if (line.strip().startsWith("*") || line.strip().startsWith("//")) {
                        continue; // comments may name the old spellings
                    }
                    Matcher m = LITERAL.matcher(line);
                    while (m.find()) {
                        String s = m.group(1);
                        boolean other = s.contains("WARNING:") || s.contains("NOTE:")
                                || (s.startsWith("warning: ") && !allowedBareWarning(f, line))
                                || s.startsWith("note: ")
                                || (s.contains(": warning: ") && !s.startsWith("vprof: warning: "));
                        if (other) {
                            found.add(f + ":" + (i + 1) + ": " + line.strip());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), found, "warnings are 'vprof: warning: ' on stderr, 'warning: ' in the text report");
    }

    /** The text report's own constant is the one bare {@code warning: }. */
    private static boolean allowedBareWarning(Path f, String line) {
        return f.endsWith("report/TextReport.java") && line.contains("public static final String WARNING");
    }
}
