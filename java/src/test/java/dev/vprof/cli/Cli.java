package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/** Runs the real command line in-process with captured streams (the tests of every package use it). */
public final class Cli {
    public record Result(int code, String out, String err) {}

    private Cli() {}

    public static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    /**
     * {@code vprof demo} into {@code dir} at the smaller load the demo's own test runs (the path is the
     * same), asserting that the simulator is built and that the demo exits 0.
     */
    public static Result smallDemo(Path dir) {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native"));
        assertTrue(Files.isExecutable(nat.resolve("vprof-simgpu")), "vprof-simgpu not built: mvn -B verify builds it");
        Result r = run("demo", "--dir", dir.toString(), "--steady", "12", "--rate", "8", "--burst", "24",
                "--max-tokens", "16");
        assertEquals(0, r.code(), r.err() + r.out());
        return r;
    }

    /** {@link #run}, asserting that the command exits OK (the message names it and holds its stderr). */
    public static Result ok(String... args) {
        Result r = run(args);
        assertEquals(ExitCode.OK.code(), r.code(), String.join(" ", args) + " exited " + r.code() + ": " + r.err());
        return r;
    }
}
