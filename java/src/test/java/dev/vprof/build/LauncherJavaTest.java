package dev.vprof.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher ({@code ./vprof}) picks a Java by the version its {@code release} file states,
 * without starting it; a candidate too old is passed over. Each candidate here is a fake JDK whose
 * {@code bin/java} only records its arguments and exits 7: the launcher starts it only to run vprof
 * itself, so the test needs no build of vprof.
 */
class LauncherJavaTest {
    private static final Path LAUNCHER = Path.of("..", "vprof").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void aJdkWhoseReleaseFileSays22OrNewerIsTheOneThatRunsVprof() throws Exception {
        Path jdk = fakeJdk("25.0.3");
        Run r = launch(jdk, jdk);
        assertEquals(7, r.exit, r.err);
        assertEquals("--enable-native-access=ALL-UNNAMED", Files.readAllLines(jdk.resolve("ran")).getFirst(),
                "the fake java ran as vprof's JVM, never as a version probe");
        assertEquals(1, Files.readAllLines(jdk.resolve("ran")).stream().filter(l -> l.equals("-jar")).count());
    }

    @Test
    void aJdkWhoseReleaseFileSaysAnOlderVersionIsPassedOverWithoutBeingStarted() throws Exception {
        Path old = fakeJdk("17.0.12");
        Path next = fakeJdk("22.0.2"); // $JAVA_HOME, looked at after $VPROF_JAVA_HOME
        Run r = launch(old, next);
        assertFalse(Files.exists(old.resolve("ran")), "the too-old fake was started: " + r.err);
        assertEquals(7, r.exit, "the next candidate ran vprof: " + r.err);
        assertTrue(Files.readAllLines(next.resolve("ran")).contains("-jar"));
    }

    private Path fakeJdk(String version) throws IOException {
        Path jdk = dir.resolve("jdk-" + version);
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        Path java = jdk.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done >> \"$(dirname \"$0\")/../ran\"\nexit 7\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return jdk;
    }

    private record Run(int exit, String out, String err) {}

    /** {@code ./vprof --version} with {@code first} as $VPROF_JAVA_HOME and {@code second} as $JAVA_HOME. */
    private Run launch(Path first, Path second) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString(), "--version");
        pb.environment().put("VPROF_JAVA_HOME", first.toString());
        pb.environment().put("JAVA_HOME", second.toString());
        pb.environment().put("VPROF_NO_BUILD", "1");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher did not finish");
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
