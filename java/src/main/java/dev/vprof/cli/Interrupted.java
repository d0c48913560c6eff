package dev.vprof.cli;

import dev.vprof.engine.StopSignals;
import dev.vprof.output.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A command stopped by SIGINT, SIGTERM or SIGHUP ({@link StopSignals} delivers them; a capture
 * takes them over and ends with its file): what it was writing is removed, one sentence says what
 * was stopped and that nothing was left, and the JVM exits {@link ExitCode#INTERRUPTED}.
 *
 * <p>The command's own thread runs on until the JVM halts, and what it printed then (a failed
 * move of the removed file, a report cut short, the shutdown hook's own line) came after the
 * sentence as more sentences. So stdout and stderr pass through a gate that the signal closes
 * before anything is removed; the sentence goes to the stderr underneath it.
 */
final class Interrupted {
    private Interrupted() {}

    /** At the start of {@code vprof ARGS}, before the command line is built (picocli takes System.out then). */
    static void install(String[] args) {
        PrintStream err = System.err;
        Gate outGate = new Gate(System.out);
        Gate errGate = new Gate(err);
        System.setOut(new PrintStream(outGate, true, System.out.charset()));
        System.setErr(new PrintStream(errGate, true, err.charset()));
        String command = commandName(args);
        AtomicBoolean said = new AtomicBoolean();
        StopSignals.exitOnStop(ExitCode.INTERRUPTED.code(), signal -> {
            if (!said.compareAndSet(false, true)) {
                return; // a second signal while the first one ends the JVM: one sentence
            }
            outGate.closed = true;
            errGate.closed = true;
            err.println(sentence(command, signal, OutputFile.abandonAll()));
            err.flush();
        });
    }

    /** The one sentence: which command, which signal, and what it leaves (nothing, or what must be removed by hand). */
    static String sentence(String command, String signal, OutputFile.Abandoned a) {
        String s = "vprof: " + command + " stopped by " + signal;
        String complete = String.join(", ", a.complete().stream().map(Path::toString).distinct().toList());
        if (a.outputs().isEmpty()) {
            s += a.complete().isEmpty() ? "; it had written nothing, and nothing was left behind"
                    : " after " + complete + " was complete: " + (a.complete().size() > 1 ? "they are" : "it is")
                            + " whole, and nothing else was left behind";
        } else {
            s += " before " + a.names() + " was complete: nothing was left under "
                    + (a.outputs().stream().distinct().count() > 1 ? "those names" : "that name");
            if (!a.complete().isEmpty()) {
                s += " (" + complete + " was already complete, and is whole)";
            }
        }
        if (!a.leftBehind().isEmpty()) {
            s += "; remove by hand " + String.join(", ", a.leftBehind());
        }
        return s;
    }

    /** The command's name: the first argument that is not an option ("vprof" when there is none). */
    private static String commandName(String[] args) {
        for (String a : args) {
            if (!a.startsWith("-")) {
                return a;
            }
        }
        return "vprof";
    }

    /** Passes bytes on until the signal closes it; then drops them. */
    private static final class Gate extends OutputStream {
        private final OutputStream to;
        volatile boolean closed;

        Gate(OutputStream to) {
            this.to = to;
        }

        @Override
        public void write(int b) throws IOException {
            if (!closed) {
                to.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (!closed) {
                to.write(b, off, len);
            }
        }

        @Override
        public void flush() throws IOException {
            if (!closed) {
                to.flush();
            }
        }
    }
}
