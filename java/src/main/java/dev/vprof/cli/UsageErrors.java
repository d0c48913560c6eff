package dev.vprof.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A command line vprof cannot parse gets one sentence and where to read more, exit 2: "vprof
 * report: missing required parameter FILE; see vprof report --help". Printing the whole usage
 * (up to 75 lines) buries the one line that says what was wrong.
 */
final class UsageErrors implements IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(sentence(ex));
        err.flush();
        return ExitCode.CANNOT.code();
    }

    /** The error as one line: the command, what is wrong, a suggestion when picocli has one, and where help is. */
    static String sentence(ParameterException ex) {
        String name = ex.getCommandLine().getCommandSpec().qualifiedName();
        String what = clean(ex.getMessage());
        if (ex instanceof UnmatchedArgumentException u && !ex.getCommandLine().getSubcommands().isEmpty()
                && !u.getUnmatched().isEmpty() && !u.getUnmatched().getFirst().startsWith("-")) {
            what = "unknown command '" + u.getUnmatched().getFirst() + "'";
        }
        StringBuilder s = new StringBuilder(name).append(": ").append(what);
        if (ex instanceof UnmatchedArgumentException u) {
            List<String> suggestions = u.getSuggestions();
            if (!suggestions.isEmpty()) {
                s.append(" (did you mean ").append(String.join(" or ", suggestions.subList(0,
                        Math.min(3, suggestions.size())))).append("?)");
            }
        }
        return s.append("; see ").append(name).append(" --help").toString();
    }

    /** picocli's message, as part of a sentence: first letter lower case, no trailing period or line break. */
    private static String clean(String message) {
        String m = message == null ? "invalid command line" : message.strip();
        int nl = m.indexOf('\n');
        if (nl >= 0) {
            m = m.substring(0, nl).strip();
        }
        while (m.endsWith(".")) {
            m = m.substring(0, m.length() - 1);
        }
        if (m.length() > 1 && Character.isUpperCase(m.charAt(0)) && !Character.isUpperCase(m.charAt(1))) {
            m = m.substring(0, 1).toLowerCase(Locale.ROOT) + m.substring(1);
        }
        return m;
    }
}
