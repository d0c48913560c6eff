package dev.vprof.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** Seed inputs for the fuzz targets, from the test fixtures the other tests already use. */
public final class FuzzSeeds {
    private FuzzSeeds() {}

    /** Each classpath resource as one byte[] argument. */
    public static Stream<Arguments> resources(String... names) {
        return Arrays.stream(names).map(n -> Arguments.of((Object) resource(n)));
    }

    public static byte[] resource(String name) {
        try (InputStream in = FuzzSeeds.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code prefix} then {@code body}: seeds for targets that read a selector byte first. */
    public static byte[] prefixed(int prefix, byte[] body) {
        byte[] out = new byte[body.length + 1];
        out[0] = (byte) prefix;
        System.arraycopy(body, 0, out, 1, body.length);
        return out;
    }

    /** A temporary file a fuzz target rewrites for every input (targets that read paths), removed at exit. */
    public static java.nio.file.Path scratchFile(String prefix) {
        try {
            java.nio.file.Path p = java.nio.file.Files.createTempFile(prefix, ".bin");
            p.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
