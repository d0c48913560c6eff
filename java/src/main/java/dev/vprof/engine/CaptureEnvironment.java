package dev.vprof.engine;

import dev.vprof.discovery.AgentDirectory;
import dev.vprof.nativelib.Posix;
import java.io.PrintWriter;

/**
 * Where a capture finds agents and says what happens: not part of the plan, so that tests can
 * point it at a folder of their own and count its reads of {@code /proc}
 * ({@link AgentDirectory#proc()}).
 *
 * @param agents   the agent directory ({@code /dev/shm}) and the {@code /proc} it is checked against
 * @param log      progress, warnings and the closing summary, one line each ({@code vprof: ...})
 * @param progress redraw a live status line (only when stderr is a terminal: isatty(2), not
 *                 System.console(), which a JDK 22+ gives with stderr redirected to a file)
 */
public record CaptureEnvironment(AgentDirectory agents, PrintWriter log, boolean progress) {
    /** This machine's agents; the live line when stderr is a terminal. */
    public static CaptureEnvironment system(PrintWriter log) {
        return new CaptureEnvironment(AgentDirectory.system(), log, Posix.isatty(Posix.STDERR_FILENO));
    }
}
