package dev.vprof.cli;

import dev.vprof.source.CaptureSources;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One sentence for a capture (or trace) that cannot be opened or read, the same for every command
 * that reads one (report, export, diff, merge, import): as an error of the command line, printed as
 * {@code vprof: SENTENCE} with exit code 2.
 */
final class CaptureOpenError {
    private CaptureOpenError() {}

    /**
     * {@code e}, met while reading {@code input} (null: the command reads several; the exception
     * names the file); {@code hint} ends the sentence when it helps (null for none).
     */
    static CliException of(Path input, IOException e, String hint) {
        return new CliException(sentence(input, e) + (hint == null ? "" : "; " + hint), e);
    }

    static String sentence(Path input, IOException e) {
        return CaptureSources.whyNot(input, e);
    }
}
