package dev.vprof;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * vprof's version, as the POM gives it ({@code project.version}, copied into
 * {@code dev/vprof/version.properties} by the build): the one place it is written, read by
 * {@code vprof --version}, the capture file's metadata and the native files' cache folder.
 */
public final class VprofVersion {
    private static final String VERSION = load();

    private VprofVersion() {}

    /** For example {@code 0.1.0-SNAPSHOT}. */
    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = VprofVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("dev/vprof/version.properties is missing from the build");
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "");
            if (v.isEmpty() || v.contains("${")) {
                throw new IllegalStateException("dev/vprof/version.properties was not filled in by the build: " + v);
            }
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
