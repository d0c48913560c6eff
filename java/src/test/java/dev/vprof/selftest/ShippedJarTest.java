package dev.vprof.selftest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The GPU self-test's sources as the built jar ships them, not as the test classpath has them:
 * the jar is what a release carries ({@code scripts/release.sh} copies it as is), and a resource
 * left out of it would pass any test that reads {@code target/classes}. Runs after the jar is
 * packaged (the {@code shipped-jar} execution in {@code java/pom.xml}); the oracle is the source
 * folder {@code native/gpu} itself.
 */
class ShippedJarTest {
    private static final Path JAR = Path.of(System.getProperty("vprof.jar", "target/vprof.jar"));
    private static final Path SOURCES = Path.of("../native/gpu");

    @Test
    void everyFileOfTheGpuSelftestShipsInTheJarAsItIsInTheTree() throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " is missing: mvn -B verify packages it before this test runs");
        List<Path> files;
        try (Stream<Path> s = Files.list(SOURCES)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        TreeSet<String> expected = new TreeSet<>();
        files.forEach(f -> expected.add(f.getFileName().toString()));
        // What the self-test builds and runs: each must be among the tree's files.
        TreeSet<String> used = new TreeSet<>(GpuSelftest.SOURCES);
        used.add("torch_selftest.py");
        assertTrue(expected.containsAll(used), "the self-test names " + used + "; native/gpu holds " + expected);
        TreeSet<String> shipped = new TreeSet<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            jar.stream().map(JarEntry::getName).filter(n -> n.startsWith("dev/vprof/selftest/") && !n.endsWith(".class")
                    && !n.endsWith("/")).forEach(n -> shipped.add(n.substring("dev/vprof/selftest/".length())));
            for (Path f : files) {
                JarEntry e = jar.getJarEntry("dev/vprof/selftest/" + f.getFileName());
                assertNotNull(e, f.getFileName() + " is not in " + JAR);
                try (InputStream in = jar.getInputStream(e)) {
                    assertArrayEquals(Files.readAllBytes(f), in.readAllBytes(), f.getFileName() + " in " + JAR
                            + " differs from the tree's (a stale jar: run mvn -B package)");
                }
            }
        }
        assertEquals(expected, shipped, "the jar's self-test resources are the tree's native/gpu, no more, no fewer");
    }
}
