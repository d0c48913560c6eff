package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs this same vprof (same JVM, same class path) as a child process, so the
 * self-tests drive the real CLI end to end exactly as a user would.
 */
final class SelfCli {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Output of one child run. */
    record Result(int exitCode, String stdout, String stderr) {
        /** The last line of stdout that parses as a JSON object, or null. */
        JsonNode lastJsonLine() {
            String[] lines = stdout.split("\n");
            for (int i = lines.length - 1; i >= 0; i--) {
                String l = lines[i].trim();
                if (l.startsWith("{")) {
                    try {
                        return JSON.readTree(l);
                    } catch (IOException ignored) {
                        // not JSON after all; keep looking
                    }
                }
            }
            return null;
        }
    }

    static List<String> vprof(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("--enable-native-access=ALL-UNNAMED");
        String home = System.getProperty("vprof.native.dir");
        if (home != null) cmd.add("-Dvprof.native.dir=" + home);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("dev.vprof.cli.Main");
        cmd.addAll(List.of(args));
        return cmd;
    }

    static Result run(List<String> command, Map<String, String> env, long timeoutSeconds, Path dir)
            throws IOException, InterruptedException {
        return run(command, env, timeoutSeconds, dir, "run-" + System.nanoTime());
    }

    /**
     * Runs {@code command} in {@code dir} with {@code env} added, its stdout and stderr kept there
     * as NAME.stdout and NAME.stderr (and its command line as NAME.command); killed with its
     * descendants after the timeout (exit 124).
     */
    static Result run(List<String> command, Map<String, String> env, long timeoutSeconds, Path dir, String name)
            throws IOException, InterruptedException {
        Process p = start(command, env, dir, name);
        Path out = dir.resolve(name + ".stdout");
        Path err = dir.resolve(name + ".stderr");
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            kill(p);
            return new Result(124, read(out), read(err) + "\n(timed out after " + timeoutSeconds + " s)");
        }
        return new Result(p.exitValue(), read(out), read(err));
    }

    /** Starts {@code command} as {@link #run(List, Map, long, Path, String)} does, without waiting. */
    static Process start(List<String> command, Map<String, String> env, Path dir, String name) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().putAll(env);
        Files.writeString(dir.resolve(name + ".command"), describe(command, env));
        pb.redirectOutput(dir.resolve(name + ".stdout").toFile()).redirectError(dir.resolve(name + ".stderr").toFile());
        return pb.start();
    }

    /** The environment added and the command line, one shell-like line, for the record. */
    static String describe(List<String> command, Map<String, String> env) {
        StringBuilder b = new StringBuilder();
        env.forEach((k, v) -> b.append(k).append('=').append(v).append(' '));
        for (String c : command) {
            b.append(c.isEmpty() || c.matches(".*[\\s'\"$].*") ? "'" + c.replace("'", "'\\''") + "'" : c).append(' ');
        }
        return b.toString().strip() + "\n";
    }

    /** Kills a process and everything it started, and waits for it. */
    static void kill(Process p) throws InterruptedException {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor();
    }

    static String read(Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    }


    static JsonNode parse(String json) throws IOException {
        return JSON.readTree(json);
    }

    private SelfCli() {}
}
