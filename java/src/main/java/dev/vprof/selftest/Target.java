package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An interactive self-test program, started by the self-test itself (not under {@code vprof run}):
 * it prints {"event":E} lines and waits for a line on stdin where its case says so
 * (selftest_cases.c). Its stdout is kept as NAME.stdout as it comes, its stderr as NAME.stderr.
 */
final class Target implements AutoCloseable {
    private static final String EOF = "\u0000eof";

    private final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Thread reader;
    private final Path stdoutFile;
    private JsonNode last;

    private Target(Process process, Path stdoutFile) throws IOException {
        this.process = process;
        this.stdoutFile = stdoutFile;
        this.stdin = process.getOutputStream();
        Writer copy = Files.newBufferedWriter(stdoutFile, StandardCharsets.UTF_8);
        this.reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8)); copy) {
                for (String l = in.readLine(); l != null; l = in.readLine()) {
                    copy.write(l);
                    copy.write('\n');
                    copy.flush();
                    lines.add(l);
                }
            } catch (IOException ignored) {
                // the process went away: EOF below
            }
            lines.add(EOF);
        });
    }

    static Target start(List<String> command, Map<String, String> env, Path dir, String name) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().putAll(env);
        Files.writeString(dir.resolve(name + ".command"), SelfCli.describe(command, env));
        pb.redirectError(dir.resolve(name + ".stderr").toFile());
        return new Target(pb.start(), dir.resolve(name + ".stdout"));
    }

    long pid() {
        return process.pid();
    }

    /**
     * Waits for {"event":EVENT}; IOException when the program ends, prints another event, or the
     * timeout passes first (the message says which).
     */
    void await(String event, long timeoutSeconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true) {
            String l = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (l == null) {
                throw new IOException("no '" + event + "' from the program within " + timeoutSeconds + " s");
            }
            if (l.equals(EOF)) {
                lines.add(EOF);
                throw new IOException("the program ended (exit " + exitCode(10) + ") before '" + event + "'");
            }
            JsonNode j = json(l);
            if (j == null) {
                continue;
            }
            last = j;
            if (event.equals(j.path("event").asText())) {
                return;
            }
        }
    }

    /** As {@link #await}, returning the event's line. */
    JsonNode awaitEvent(String event, long timeoutSeconds) throws IOException, InterruptedException {
        await(event, timeoutSeconds);
        return last;
    }

    /** The event line await last returned (a measurement's figures). */
    JsonNode lastEvent() {
        return last;
    }

    void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** Waits for the program to end; its exit status, or 124 after the timeout (then it is killed). */
    int exitCode(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            SelfCli.kill(process);
            return 124;
        }
        return process.exitValue();
    }

    /** The result line (the last JSON line with a "case"), once the program has ended; null if none. */
    JsonNode result(long timeoutSeconds) throws IOException, InterruptedException {
        exitCode(timeoutSeconds);
        reader.join(TimeUnit.SECONDS.toMillis(5));
        JsonNode result = null;
        for (String l : SelfCli.read(stdoutFile).split("\n")) {
            JsonNode j = json(l);
            if (j != null && j.has("case")) {
                result = j;
            }
        }
        return result;
    }

    private static JsonNode json(String line) {
        String t = line.strip();
        if (!t.startsWith("{")) {
            return null;
        }
        try {
            return SelfCli.parse(t);
        } catch (IOException e) {
            return null;
        }
    }

    /** Ends the target (and its children); an interrupt ends the wait for them and stays set. */
    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // already gone
        }
        if (process.isAlive()) {
            try {
                SelfCli.kill(process);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
