package dev.vprof.output;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;

/**
 * The target of an output appeared while it was being written (another command, another vprof)
 * and may not be replaced: this output was not moved into place, and the other is left whole.
 */
public final class OutputTakenException extends FileAlreadyExistsException {
    private static final long serialVersionUID = 1L;

    public OutputTakenException(Path target) {
        super(target.toString(), null, "it appeared while vprof was writing it (another command writing the same "
                + "file?); it was left as it is");
    }
}
