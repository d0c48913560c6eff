package dev.vprof.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Why a command could not be started, in vprof's words instead of the JDK's ("error=2, ..."). */
final class CommandStart {
    private CommandStart() {}

    static String why(String command, IOException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        boolean path = command.contains("/");
        if (m.contains("error=2,") || m.contains("No such file")) {
            return path ? "cannot start " + command + ": no such file; check the path"
                    : "cannot start " + command + ": no such command on PATH; check the spelling, or give its full path";
        }
        if (m.contains("error=13,") || m.contains("Permission denied")) {
            return "cannot start " + command + ": permission denied" + (path && Files.isRegularFile(Path.of(command))
                    ? " (it is not executable: chmod +x " + command + ")" : "");
        }
        if (m.contains("error=8,") || m.contains("Exec format error")) {
            return "cannot start " + command + ": it is not a program this machine can run (exec format error)";
        }
        return "cannot start " + command + ": " + m;
    }
}
