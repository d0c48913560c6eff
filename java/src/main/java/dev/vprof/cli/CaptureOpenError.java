package dev.vprof.cli;

import dev.vprof.source.CaptureSources;
import dev.vprof.source.InputKind;
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

    /**
     * What {@code input} is (a capture, a trace, an export...), refused in one sentence when it
     * cannot be opened or no command reads it; {@code hint} ends that sentence when it helps.
     */
    static InputKind kindOf(Path input, String hint) {
        InputKind kind;
        try {
            kind = InputKind.of(input);
        } catch (IOException e) {
            throw of(input, e, null);
        }
        if (!kind.kind().readable()) {
            throw new CliException(kind.refusal() + (hint == null ? "" : "; " + hint));
        }
        return kind;
    }

    static String sentence(Path input, IOException e) {
        return CaptureSources.whyNot(input, e);
    }
}
