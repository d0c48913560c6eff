package dev.vprof.nativelib;

import dev.vprof.VprofVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Finds the native files vprof ships: the agent ({@code libvprof.so}), the CUPTI test double,
 * the synthetic GPU process and the injector.
 *
 * <p>The jar carries them for each architecture it was built for, under
 * {@code dev/vprof/native/linux-x86_64/} and {@code linux-aarch64/}, and this JVM's {@code os.arch}
 * picks one (an x86-64 JVM cannot load an aarch64 agent, nor can a target of the other
 * architecture load ours, so there is no fallback to the other folder). They are extracted once
 * to {@code ($XDG_CACHE_HOME or ~/.cache)/vprof/<version>-<content hash>/}, a 0700 directory
 * filled under a temporary name and renamed into place, so two vprof processes starting at once
 * never see a half-written library. The content hash means a rebuilt jar never reuses stale
 * files. The system property {@code vprof.native.dir} points at a build folder instead (tests).
 */
public final class NativeFiles {
    public static final String AGENT = "libvprof.so";
    public static final String CUPTI_SIM = "libvprof-cuptisim.so";
    public static final String SIMGPU = "vprof-simgpu";
    public static final String INJECT = "vprof-inject";
    /**
     * The double again, under the name vprof-simgpu asks the loader for (its soname): in the build
     * folder a symlink, in the jar a copy. Without it the loader would find the real libcupti.
     */
    public static final String CUPTI_SIM_SONAME = "libcupti.so.13";
    private static final List<String> ALL = List.of(AGENT, CUPTI_SIM, CUPTI_SIM_SONAME, SIMGPU, INJECT);
    private static final String RESOURCE_ROOT = "/dev/vprof/native/";
    private static final String VERSION = VprofVersion.get();

    private static volatile Path dir;

    private NativeFiles() {}

    /**
     * The folder name for an {@code os.arch} value: {@code linux-x86_64} or {@code linux-aarch64};
     * null for an architecture vprof has no native files for.
     */
    static String platform(String osArch) {
        return switch (osArch) {
            case "amd64", "x86_64" -> "linux-x86_64";
            case "aarch64", "arm64" -> "linux-aarch64";
            default -> null;
        };
    }

    /** The folder holding the native files, extracting them on first use. */
    public static Path dir() throws IOException {
        Path d = dir;
        if (d == null) {
            synchronized (NativeFiles.class) {
                if (dir == null) {
                    dir = locate();
                }
                d = dir;
            }
        }
        return d;
    }

    /** The path of one native file; a clear error when this build does not have it. */
    public static Path require(String name) throws IOException {
        Path p = dir().resolve(name);
        if (!Files.isRegularFile(p)) {
            throw new IOException(name + " is missing from " + dir()
                    + "; rebuild vprof (./vprof rebuilds itself, or: mvn -B package)");
        }
        return p;
    }

    private static Path locate() throws IOException {
        String override = System.getProperty("vprof.native.dir");
        if (override != null && !override.isBlank()) {
            return Path.of(override).toAbsolutePath();
        }
        String arch = System.getProperty("os.arch");
        String platform = platform(arch);
        if (platform == null) {
            throw new IOException("vprof has native files for Linux x86-64 and aarch64 only; this JVM runs on "
                    + arch + ": run vprof on an x86-64 or aarch64 Linux machine");
        }
        String resourceDir = RESOURCE_ROOT + platform + "/";
        Map<String, byte[]> contents = new LinkedHashMap<>();
        for (String name : ALL) {
            try (InputStream in = NativeFiles.class.getResourceAsStream(resourceDir + name)) {
                if (in != null) {
                    contents.put(name, in.readAllBytes());
                }
            }
        }
        if (!contents.containsKey(AGENT)) {
            throw new IOException("this vprof jar carries no agent library for " + platform + " (" + resourceDir + AGENT
                    + "); build vprof on this machine (mvn -B package), or on x86-64 with "
                    + "gcc-aarch64-linux-gnu installed so that the jar carries both architectures");
        }
        Path target = cacheRoot().resolve(VERSION + "-" + platform + "-" + hash(contents));
        if (isComplete(target, contents)) {
            return target;
        }
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempDirectory(target.getParent(), ".extract-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            for (var e : contents.entrySet()) {
                Path f = tmp.resolve(e.getKey());
                Files.write(f, e.getValue());
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwx------"));
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException
                     | DirectoryNotEmptyException raced) {
                // Another vprof extracted the same content first: use its copy.
                if (!isComplete(target, contents)) {
                    throw new IOException("cannot extract native files to " + target
                            + ": the folder exists but is incomplete; delete it and retry", raced);
                }
            }
        } finally {
            deleteTree(tmp);
        }
        return target;
    }

    private static boolean isComplete(Path target, Map<String, byte[]> contents) throws IOException {
        if (!Files.isDirectory(target)) {
            return false;
        }
        for (var e : contents.entrySet()) {
            Path f = target.resolve(e.getKey());
            if (!Files.isRegularFile(f) || Files.size(f) != e.getValue().length) {
                return false;
            }
        }
        return true;
    }

    private static Path cacheRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("vprof");
    }

    private static String hash(Map<String, byte[]> contents) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (var e : contents.entrySet()) {
                md.update(e.getKey().getBytes(StandardCharsets.UTF_8));
                md.update(e.getValue());
            }
            return HexFormat.of().formatHex(md.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(all::add);
        }
        for (Path q : all) {
            Files.deleteIfExists(q);
        }
    }
}
