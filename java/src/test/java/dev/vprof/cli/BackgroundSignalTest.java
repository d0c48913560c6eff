package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * vprof started as a background job of a non-interactive shell ({@code vprof attach ... &} in a
 * script, as CI runners do) inherits SIGINT ignored; {@code kill -INT} must still stop it the
 * documented way. And SIGHUP: a clean stop, unless it came ignored ({@code nohup}), when it stays
 * ignored.
 */
@Timeout(150)
class BackgroundSignalTest {
    /**
     * $1 the log, $2 the signal, the rest the command. A probe started the same way shows what a
     * background job inherits, read once it is {@code sleep} (before its exec the forked shell may
     * not have set the job's signals yet: CI read SIGQUIT ignored and SIGINT not); the script waits for the capture to start, signals it, and writes
     * its exit status, or "alive, then S" when it still ran 10 s later and SIGINT ended it with
     * status S, or "alive" when neither ended it (then it is killed, so no test hangs).
     */
    private static final String SCRIPT = """
            log=$1; sig=$2; shift 2
            sleep 600 & probe=$!
            for i in $(seq 200); do [ "$(cat /proc/$probe/comm 2>/dev/null)" = sleep ] && break; sleep 0.01; done
            grep '^SigIgn' /proc/$probe/status > "$log.probe"; kill $probe
            "$@" > "$log" 2>&1 &
            pid=$!
            for i in $(seq 600); do grep -q 'vprof: capturing ' "$log" && break; sleep 0.1; done
            sleep 1
            grep '^SigIgn' /proc/$pid/status > "$log.sigign"
            ends() { for i in $(seq 100); do kill -0 $pid 2>/dev/null || return 0; sleep 0.1; done; return 1; }
            kill -$sig $pid
            if ends; then wait $pid; echo "$?" > "$log.exit"; exit; fi
            kill -INT $pid
            if ends; then wait $pid; echo "alive, then $?" > "$log.exit"; exit; fi
            kill -KILL $pid; echo "alive" > "$log.exit"
            """;

    @TempDir
    Path dir;

    private E2e e2e;

    @BeforeEach
    void needsTheNativeBuild() {
        e2e = E2e.nativeParts();
    }

    /** Attach in the background of {@code bash -c}, then {@code kill -SIG}; the script's files. */
    private Outcome attachInTheBackgroundThenSignal(String signal) throws Exception {
        Process target = e2e.startTarget(dir.resolve("target.log"), "--duration", "90s", "--step-us", "2000");
        try {
            E2e.awaitRegion(target.pid());
            Path file = dir.resolve(signal + ".vprof");
            Path log = dir.resolve(signal + ".log");
            List<String> cmd = new ArrayList<>(List.of("bash", "-c", SCRIPT, "script", log.toString(), signal));
            cmd.addAll(e2e.vprofCommand("attach", "--pid", Long.toString(target.pid()), "-o", file.toString()));
            Process script = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve(signal + ".script").toFile()).start();
            assertTrue(script.waitFor(120, TimeUnit.SECONDS), "the script ends");
            assertTrue(target.isAlive(), "the target runs on");
            return new Outcome(file, Files.readString(log), read(log, ".exit"), mask(read(log, ".probe")),
                    mask(read(log, ".sigign")));
        } finally {
            E2e.stopTree(target.pid());
        }
    }

    private record Outcome(Path file, String log, String exit, long probeIgnored, long vprofIgnored) {}

    @Test
    void killIntStopsAnAttachThatABackgroundJobStartedWithSigintIgnored() throws Exception {
        Outcome o = attachInTheBackgroundThenSignal("INT");
        assertTrue(o.probeIgnored() >= 0 && (o.probeIgnored() & bit(2)) != 0,
                "the shell's background jobs start with SIGINT ignored (what this test is about): " + o.probeIgnored());
        assertEquals(0, o.vprofIgnored() & bit(2), "vprof took SIGINT back");
        assertEquals("0", o.exit(), "stopped by SIGINT with a complete file, exit 0: " + o.log());
        assertTrue(Pattern.compile("vprof: the capture ended after [0-9.]+ s: Ctrl-C \\(SIGINT\\)\\n?$")
                .matcher(o.log()).find(), "the last line says why: " + o.log());
        assertTrue(E2e.kernels(E2e.report(o.file())) > 0, "the file holds the capture");
    }

    /**
     * Under {@code nohup} (the suite itself may be started so) SIGHUP comes ignored and must stay
     * so; otherwise it ends the capture cleanly like SIGTERM. Either way the test checks the half
     * that applies.
     */
    @Test
    void sighupEndsACaptureCleanlyUnlessItCameIgnoredAsNohupAsks() throws Exception {
        Outcome o = attachInTheBackgroundThenSignal("HUP");
        assertTrue(o.probeIgnored() >= 0, "the probe's SigIgn line was read");
        if ((o.probeIgnored() & bit(1)) != 0) {
            assertTrue((o.vprofIgnored() & bit(1)) != 0, "SIGHUP stays ignored under nohup");
            assertEquals("alive, then 0", o.exit(), "a capture under nohup outlives SIGHUP (and SIGINT ends it): "
                    + o.log());
        } else {
            assertEquals("0", o.exit(), "stopped by SIGHUP with a complete file, exit 0: " + o.log());
            assertTrue(Pattern.compile("vprof: the capture ended after [0-9.]+ s: SIGHUP\\n?$").matcher(o.log()).find(),
                    "the last line says why: " + o.log());
            assertTrue(E2e.kernels(E2e.report(o.file())) > 0, "the file holds the capture");
        }
    }

    private static long bit(int signal) {
        return 1L << (signal - 1);
    }

    private static String read(Path log, String suffix) throws IOException {
        Path p = log.resolveSibling(log.getFileName() + suffix);
        return Files.exists(p) ? Files.readString(p).strip() : "(no " + p.getFileName() + ")";
    }

    /** "SigIgn:\t0000000000000002" as a mask; -1 when the line is missing. */
    private static long mask(String line) {
        String[] f = line.split("\\s+");
        return f.length == 2 && f[0].equals("SigIgn:") ? Long.parseUnsignedLong(f[1], 16) : -1;
    }
}
