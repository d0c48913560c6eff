package dev.vprof.diff;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Named baselines for {@code vprof diff --baseline NAME}: each a copy of a capture (a file, or a
 * folder of rank traces) in its own folder {@code NAME/} under {@code $XDG_DATA_HOME/vprof/baselines}
 * (else {@code ~/.local/share/vprof/baselines}), beside a one-line note of where it came from and
 * when. A baseline is written into a temporary folder first and moved into place, so a failed or
 * interrupted save leaves none half-written.
 */
public final class Baselines {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final String NOTE = ".source";

    private Baselines() {}

    /** One stored baseline. */
    public record Entry(String name, Path capture, long bytes, String source) {}

    /** The folder of baselines for this environment. */
    public static Path folder(Map<String, String> env) {
        String xdg = env.get("XDG_DATA_HOME");
        if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "vprof", "baselines");
        }
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        return Path.of(home, ".local", "share", "vprof", "baselines");
    }

    static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new DiffException("a baseline name is 1 to 64 letters, digits, '.', '_' or '-', starting with a"
                    + " letter or digit; not " + (name == null ? "nothing" : "'" + DiffText.escape(name) + "'"));
        }
    }

    /** Stores {@code capture} as baseline {@code name}; an existing one is replaced only with {@code force}. */
    public static Entry save(Path folder, String name, Path capture, boolean force) throws IOException {
        checkName(name);
        if (!Files.exists(capture)) {
            throw new DiffException(capture + " does not exist; give the path of a capture to save as a baseline");
        }
        Path target = folder.resolve(name);
        if (Files.exists(target) && !force) {
            throw new DiffException("the baseline " + name + " already exists (" + target + "); --force replaces it,"
                    + " or choose another name");
        }
        Files.createDirectories(folder);
        Path tmp = Files.createTempDirectory(folder, "." + name + ".saving-");
        try {
            Path fileName = capture.toAbsolutePath().normalize().getFileName();
            copyTree(capture, tmp.resolve(fileName == null ? Path.of("capture") : fileName));
            Files.writeString(tmp.resolve(NOTE), capture.toAbsolutePath().normalize() + " saved " + Instant.now()
                    + "\n", StandardCharsets.UTF_8);
            if (Files.exists(target)) {
                removeTree(target);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            removeTree(tmp);
            throw e;
        }
        return entry(target);
    }

    /** Every stored baseline, by name. */
    public static List<Entry> list(Path folder) throws IOException {
        List<Entry> out = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (Files.isDirectory(p) && NAME.matcher(n).matches()) {
                    out.add(entry(p));
                }
            }
        }
        out.sort(Comparator.comparing(Entry::name));
        return out;
    }

    /** Removes baseline {@code name}. */
    public static void remove(Path folder, String name) throws IOException {
        checkName(name);
        Path target = folder.resolve(name);
        if (!Files.isDirectory(target)) {
            throw missing(folder, name);
        }
        removeTree(target);
    }

    /** The stored capture of baseline {@code name}, to diff against. */
    public static Path resolve(Path folder, String name) throws IOException {
        checkName(name);
        Path target = folder.resolve(name);
        if (!Files.isDirectory(target)) {
            throw missing(folder, name);
        }
        return entry(target).capture();
    }

    private static DiffException missing(Path folder, String name) {
        return new DiffException("no baseline named " + name + " in " + folder + "; 'vprof baseline list' shows them,"
                + " 'vprof baseline save " + name + " FILE' stores one");
    }

    private static Entry entry(Path dir) throws IOException {
        Path capture = null;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (!p.getFileName().toString().equals(NOTE)) {
                    capture = p;
                }
            }
        }
        if (capture == null) {
            throw new DiffException("the baseline folder " + dir + " holds no capture; remove it with 'vprof baseline"
                    + " rm " + dir.getFileName() + "' and save it again");
        }
        Path note = dir.resolve(NOTE);
        String source = Files.exists(note) ? Files.readString(note, StandardCharsets.UTF_8).strip() : "";
        return new Entry(dir.getFileName().toString(), capture, size(capture), source);
    }

    private static long size(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            return s.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
            return;
        }
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else if (Files.isRegularFile(p)) {
                    Files.copy(p, dest, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static void removeTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
