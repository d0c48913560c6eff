package dev.vprof.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.LinkedHashMap;

/**
 * The one table of vprof's exit codes: each number has one meaning in every command, so a script
 * or a CI gate can tell a regression from a broken input from a refusal. {@code vprof --help} and
 * the README print this table; a command's {@code --help} lists the rows it can return.
 * {@code vprof run} is the exception the table names: it exits with its command's own status (and
 * {@code vprof launch} with it when the command dies within {@code --wait}).
 */
public enum ExitCode {
    OK(0, "success: the command did what was asked"),
    REGRESSED(1, "a regression was found (diff --fail-on-regression)"),
    CANNOT(2, "vprof cannot do what was asked: a bad option, an input that cannot be read, no agent, "
            + "an output that cannot be written; nothing was written under the output's name"),
    READ_PARTLY(3, "an input was read only partly (damaged, cut short or never closed by its writer); "
            + "what was shown or written covers only what could be read (diff and merge give no verdict or archive "
            + "unless --accept-loss)"),
    NOT_COMPARABLE(4, "the two inputs are not comparable (diff; --force compares anyway)"),
    NOT_EXPECTED(5, "the target, server or machine is not what was expected (triage: no vLLM metrics; "
            + "doctor: a check FAILed; bench: requests failed; selftest: a result did not match, or --require-gpu "
            + "found no GPU)"),
    INTERRUPTED(130, "stopped by SIGINT, SIGTERM or SIGHUP before its output was complete: nothing was left "
            + "under the output's name (a capture ended by a signal is complete and exits 0)");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }

    /** The rows of picocli's exit-code list ({@code N -> meaning}), of the given codes in that order. */
    static Map<String, String> helpList(List<ExitCode> codes) {
        Map<String, String> out = new LinkedHashMap<>();
        for (ExitCode c : codes) {
            out.put(Integer.toString(c.code), c.meaning);
        }
        return out;
    }

    /**
     * A command that says which rows of the table it can return; {@link Main} prints them under its
     * {@code --help}, so a command's help never words a code differently from the table.
     */
    interface Returns {
        List<ExitCode> exitCodes();
    }

    /** The whole table as lines of at most {@code width} characters, for {@code vprof --help}. */
    static List<String> table(int width) {
        List<String> out = new ArrayList<>();
        for (ExitCode c : values()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %3d  ", c.code));
            for (String word : c.meaning.split(" ")) {
                if (line.length() + 1 + word.length() > width && line.length() > 7) {
                    out.add(line.toString());
                    line.setLength(0);
                    line.append("       ");
                } else if (line.length() > 7) {
                    line.append(' ');
                }
                line.append(word);
            }
            out.add(line.toString());
        }
        return out;
    }
}
