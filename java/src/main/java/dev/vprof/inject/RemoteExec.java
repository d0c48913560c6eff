package dev.vprof.inject;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

/**
 * Loads the agent into a CPython 3.14+ process with PEP 768: a local interpreter of the same
 * version calls {@code sys.remote_exec(pid, script)}, and the target runs the script (which
 * dlopens the agent through ctypes) at its next safe point between bytecodes.
 *
 * <p>Unverified: no Python 3.14 was available where this was written; the decision logic
 * ({@link PythonTarget}) is unit-tested, this runner is not. {@link LateInjection} falls back to
 * ptrace whenever it fails or the agent does not show up.
 */
final class RemoteExec {
    private static final long WAIT_MS = 20_000;

    private RemoteExec() {}

    /** The script the target runs: load the agent; its constructor creates the region. */
    static String script(Path agent) {
        return "import ctypes\nctypes.CDLL(" + pythonString(agent.toAbsolutePath().toString()) + ")\n";
    }

    /** A Python string literal for s (every non-ASCII-printable character escaped). */
    static String pythonString(String s) {
        StringBuilder b = new StringBuilder("'");
        s.codePoints().forEach(c -> {
            if (c == '\\' || c == '\'') {
                b.append('\\').append((char) c);
            } else if (c >= 0x20 && c < 0x7f) {
                b.append((char) c);
            } else {
                b.append(String.format("\\U%08x", c));
            }
        });
        return b.append('\'').toString();
    }

    /**
     * Asks the target to run the script. Returns null when remote_exec accepted it (the target
     * runs it at its next safe point, not yet necessarily), or why it failed. The script file
     * stays until the JVM exits: the target opens it later, when it gets to it.
     */
    static String request(Path interpreter, int pid, Path agent) throws IOException {
        Path script = Files.createTempFile("vprof-remote-exec-", ".py",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        script.toFile().deleteOnExit();
        Files.writeString(script, script(agent), StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(interpreter.toString(), "-c",
                "import sys; sys.remote_exec(int(sys.argv[1]), sys.argv[2])", Integer.toString(pid), script.toString())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        try {
            if (!p.waitFor(WAIT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return interpreter + " did not return from sys.remote_exec within " + WAIT_MS / 1000 + " s";
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                int nl = out.lastIndexOf('\n');
                return "sys.remote_exec failed: " + (nl >= 0 ? out.substring(nl + 1) : out);
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return "interrupted";
        }
    }
}
