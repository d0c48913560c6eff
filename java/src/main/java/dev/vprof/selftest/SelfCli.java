package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().putAll(env);
        Path out = dir.resolve("stdout-" + System.nanoTime() + ".txt");
        Path err = dir.resolve("stderr-" + System.nanoTime() + ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor();
            return new Result(124, read(out), read(err) + "\n(timed out after " + timeoutSeconds + " s)");
        }
        return new Result(p.exitValue(), read(out), read(err));
    }

    private static String read(Path p) throws IOException {
        return java.nio.file.Files.readString(p, StandardCharsets.UTF_8);
    }

    static JsonNode parse(String json) throws IOException {
        return JSON.readTree(json);
    }

    private SelfCli() {}
}
