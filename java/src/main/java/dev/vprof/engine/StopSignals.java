package dev.vprof.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C and SIGTERM during a capture: the capture is asked to stop (by the signal's name) and
 * ends as it would at --duration, so that a capture ended the documented way, with a complete
 * file, exits 0 instead of the JVM's 130 or 143. Without this the JVM would start its shutdown
 * and the shutdown hook would finish the file under the signal's exit status. A second Ctrl-C
 * while the file is being finished is handled the same way (the first one wins), never as an
 * abort that loses the file's last chunk.
 */
final class StopSignals {
    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private StopSignals() {}

    /** Installs the handlers; {@code stop} gets "SIGINT" or "SIGTERM". Null when the JVM refuses them. */
    static StopSignals install(Consumer<String> stop) {
        StopSignals s = new StopSignals();
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                Signal sig = new Signal(name);
                SignalHandler old = Signal.handle(sig, x -> stop.accept("SIG" + name));
                s.signals.add(sig);
                s.previous.add(old);
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // -Xrs, or a signal the VM keeps: the shutdown hook still finishes the file
            }
        }
        return s;
    }

    /** The handlers the JVM had before, back in place (the capture is over). */
    void restore() {
        for (int i = 0; i < signals.size(); i++) {
            try {
                Signal.handle(signals.get(i), previous.get(i));
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // nothing more to undo
            }
        }
    }
}
