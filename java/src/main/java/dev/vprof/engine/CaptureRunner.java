package dev.vprof.engine;

import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.WindowChunk;
import dev.vprof.cli.CliException;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** What run and attach share: the capture file, the capture id, the shutdown hook. */
final class CaptureRunner {
    private CaptureRunner() {}

    /** A capture id the agents echo in RANGE records; never 0 (0 means "none"). */
    static int newCaptureId() {
        return ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
    }

    static CaptureOutput createOutput(Path file, List<String> commandLine, Map<String, String> options) {
        long start = Posix.realtimeNanos();
        Map<String, String> opts = new LinkedHashMap<>(options);
        // The window's start is known now; its end is written at the end, in a WINDOW chunk (WindowChunk).
        opts.put(WindowChunk.START_KEY, Long.toString(start));
        CaptureMetadata md = new CaptureMetadata(hostName(), start, "0.1.0", commandLine, opts);
        try {
            return CaptureOutput.of(CaptureWriter.create(file, md), start);
        } catch (IOException e) {
            throw new CliException("cannot write the capture file " + file + ": " + e.getMessage()
                    + "; choose another path with -o", e);
        }
    }

    /**
     * Runs the session on this thread; Ctrl-C and SIGTERM ask it to stop and wait for the file to
     * be finished (the agents disarmed, the rings drained) before the JVM exits.
     */
    static CaptureSession.Summary runWithShutdownHook(CaptureSession session, PrintWriter err) throws IOException {
        Thread hook = new Thread(() -> {
            session.requestStop("signal");
            try {
                if (!session.awaitFinished(15, TimeUnit.SECONDS)) {
                    err.println("vprof: gave up waiting for the capture to finish; the file may lack its last chunk");
                    err.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "vprof-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return session.run();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running: it is waiting for exactly what just finished.
            }
        }
    }

    private static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException ignored) {
            // fall back below
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
