package dev.vprof.cli;

import dev.vprof.html.HtmlReport;
import dev.vprof.output.OutputTakenException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Expands {@code -o} patterns and checks, before anything starts, that the file can be written,
 * and that no existing file is replaced unless the person asked for it ({@code --force}).
 */
public final class OutputPath {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss.SSS");

    private OutputPath() {}

    /**
     * {@code %p} the target pid, {@code %t} a local timestamp to the millisecond (two captures
     * started in the same second get two names), {@code %%} a percent sign.
     */
    static Path expand(String pattern, long pid, LocalDateTime when) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '%' && i + 1 < pattern.length()) {
                char n = pattern.charAt(i + 1);
                if (n == 'p') { sb.append(pid); i++; continue; }
                if (n == 't') { sb.append(STAMP.format(when)); i++; continue; }
                if (n == '%') { sb.append('%'); i++; continue; }
            }
            sb.append(c);
        }
        return Path.of(sb.toString());
    }

    /**
     * The one rule for every output file (captures, exports, HTML, SQLite, diffs): an existing
     * file is never replaced without {@code --force}, since a capture overwritten by mistake is
     * lost for good. {@code what} names the file in the sentence ("capture file", "trace").
     */
    public static void refuseExisting(Path file, boolean force, String what) {
        refuseExisting(file, force, what, "-o");
    }

    /** As {@link #refuseExisting(Path, boolean, String)}, the path given by the command's {@code option}. */
    public static void refuseExisting(Path file, boolean force, String what, String option) {
        if (!force && Files.exists(file)) {
            throw new CliException(what + " " + file + " already exists; pass --force to replace it, "
                    + "or choose another path with " + option);
        }
    }

    /**
     * One writer per output: refuses (before anything is read or written) an output that is one
     * of the command's inputs, by the file itself, so another spelling of the path, a symbolic
     * link or a hard link to it is refused too.
     */
    public static void refuseInput(Path out, List<Path> inputs, String command) {
        if (!Files.exists(out)) {
            return;
        }
        for (Path in : inputs) {
            try {
                if (Files.exists(in) && Files.isSameFile(in, out)) {
                    throw new CliException(command + " would write " + out + " over its own input " + in
                            + "; nothing was touched; choose another path with -o");
                }
            } catch (IOException e) {
                // an input that cannot be looked at is the reader's to refuse, with its own sentence
            }
        }
    }

    /**
     * The sentence for an output another writer took while this command wrote it
     * ({@link OutputTakenException}): the other file is left whole, this command wrote nothing.
     */
    public static CliException taken(Path out, String option) {
        return new CliException(out + " appeared while vprof was writing it (another command writing the same file?); "
                + "it was left as it is and nothing was written; pass --force to replace it, or choose another path with "
                + option);
    }

    /**
     * Writes the {@code --html} page of {@code command} (report, diff) and says so on {@code err};
     * a file that appeared meanwhile, or one that cannot be written, is one sentence.
     */
    static void writeHtml(String command, String page, Path html, boolean force, PrintWriter err) {
        try {
            long bytes = HtmlReport.write(page, html, force);
            err.printf("vprof %s: wrote %s (%d KiB)%n", command, html, (bytes + 1023) / 1024);
        } catch (OutputTakenException e) {
            throw taken(html, "--html");
        } catch (IOException e) {
            throw new CliException("cannot write " + html + ": " + e.getMessage() + "; choose another path with --html", e);
        }
    }

    /** Throws a {@link CliException} naming the reason when {@code file} cannot be created or replaced. */
    static void checkWritable(Path file) {
        Path abs = file.toAbsolutePath();
        Path parent = abs.getParent();
        String fix = "; choose another path with -o";
        if (Files.isDirectory(abs)) {
            throw new CliException("cannot write the capture file " + file + ": it is a directory" + fix);
        }
        if (parent == null || !Files.isDirectory(parent)) {
            throw new CliException("cannot write the capture file " + file + ": the folder " + parent
                    + " does not exist" + fix);
        }
        // The file is created beside itself and renamed into place, so its folder must be writable too.
        if (!Files.isWritable(parent) || (Files.exists(abs) && !Files.isWritable(abs))) {
            throw new CliException("cannot write the capture file " + file + ": permission denied" + fix);
        }
    }
}
