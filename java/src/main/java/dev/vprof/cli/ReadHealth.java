package dev.vprof.cli;

import dev.vprof.capture.ReadStats;
import dev.vprof.diff.DiffText;
import java.io.PrintWriter;
import java.util.List;

/**
 * How every command that reads a capture or a trace shows its read health ({@link ReadStats}), the
 * same way: each sentence the reader noted as a {@code vprof: warning:} line, then, when data was lost,
 * one line {@code vprof COMMAND: SUMMARY} and the exit code {@link ExitCode#READ_PARTLY}. A live
 * capture (its writer still running) is read as far as it goes and says so; it is not read partly.
 */
final class ReadHealth {
    private ReadHealth() {}

    /** The prefix of every warning line on stderr. */
    static final String WARNING = "vprof: warning: ";

    /** One warning line, spelt as every warning of vprof is. */
    static void warn(PrintWriter err, String sentence) {
        err.println(WARNING + DiffText.escape(sentence)); // a trace's names reach these sentences
    }

    /** One note line: something to know that is not a loss ({@code vprof: note: SENTENCE}). */
    static void note(PrintWriter err, String sentence) {
        err.println("vprof: note: " + DiffText.escape(sentence));
    }

    /** Prints every sentence the reader noted, whatever its severity. */
    static void warnings(PrintWriter err, ReadStats stats) {
        for (ReadStats.Sentence s : stats.sentences()) {
            warn(err, s.text());
        }
    }

    /** The one line for a source read partly ({@code vprof COMMAND: SUMMARY}), or null when read whole. */
    static String sentence(String command, ReadStats stats) {
        String summary = stats.summary();
        return summary == null ? null : "vprof " + command + ": " + DiffText.escape(summary);
    }

    /**
     * The line for one side of a comparison read partly ({@code vprof diff: the new side, SUMMARY;
     * WHAT_FOLLOWS}), or null when that side was read whole.
     */
    static String side(String command, String side, ReadStats stats, String whatFollows) {
        String summary = stats.summary();
        return summary == null ? null
                : "vprof " + command + ": the " + side + ", " + DiffText.escape(summary) + "; " + whatFollows;
    }

    /** {@link ExitCode#READ_PARTLY} when any of them lost data, else {@link ExitCode#OK}. */
    static ExitCode exit(List<ReadStats> stats) {
        for (ReadStats s : stats) {
            if (s != null && s.readPartly()) {
                return ExitCode.READ_PARTLY;
            }
        }
        return ExitCode.OK;
    }

    /**
     * The end of a command that read {@code stats}: the summary line of each source read partly, and
     * the exit code that says so ({@code done} when every one was read whole).
     */
    static int finish(PrintWriter err, String command, ExitCode done, List<ReadStats> stats) {
        for (ReadStats s : stats) {
            String line = s == null ? null : sentence(command, s);
            if (line != null) {
                err.println(line);
            }
        }
        err.flush();
        return exit(stats) == ExitCode.READ_PARTLY ? ExitCode.READ_PARTLY.code() : done.code();
    }
}
