package dev.vprof.inject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a target is a CPython interpreter that can load the agent itself through PEP 768
 * ({@code sys.remote_exec}, Python 3.14+), and which local interpreter can ask it to.
 *
 * <p>remote_exec runs a script at the interpreter's own safe point (between bytecodes, with the
 * GIL held, never inside malloc or the loader), so when it is available it is preferred to the
 * ptrace injector. The asking interpreter must be the same Python version and build (a
 * free-threaded {@code 3.14t} target needs a {@code python3.14t}), since it reads the target's
 * interpreter state by its layout.
 */
public final class PythonTarget {
    /** The first CPython version with {@code sys.remote_exec}. */
    public static final Version REMOTE_EXEC_SINCE = new Version(3, 14, false);

    private static final Pattern NAME = Pattern.compile("^(?:lib)?python(\\d+)\\.(\\d+)(t?)(?:$|[.-])");

    private PythonTarget() {}

    /** A CPython version; {@code freeThreaded} for the {@code t} builds (no GIL). */
    public record Version(int major, int minor, boolean freeThreaded) {
        public boolean atLeast(Version v) {
            return major > v.major || (major == v.major && minor >= v.minor);
        }

        /** The interpreter's file name: python3.14, python3.14t. */
        public String interpreterName() {
            return "python" + major + "." + minor + (freeThreaded ? "t" : "");
        }

        @Override
        public String toString() {
            return major + "." + minor + (freeThreaded ? "t" : "");
        }
    }

    /** How to load the agent into one process. */
    public record Plan(boolean remoteExec, Path interpreter, String why) {
        static Plan ptrace(String why) {
            return new Plan(false, null, why);
        }
    }

    /**
     * The CPython version of a process from the file name of its executable or of a mapped
     * libpython ({@code python3.14}, {@code libpython3.14.so.1.0}, {@code libpython3.14t.so}); empty
     * when it is not a CPython (or a python without a version in its names).
     */
    public static Optional<Version> versionOf(Path exe, List<String> mappedPaths) {
        List<String> names = new ArrayList<>();
        if (exe != null && exe.getFileName() != null) {
            names.add(exe.getFileName().toString());
        }
        for (String m : mappedPaths) {
            int slash = m.lastIndexOf('/');
            names.add(slash >= 0 ? m.substring(slash + 1) : m);
        }
        for (String n : names) {
            Matcher x = NAME.matcher(n);
            if (x.find()) {
                return Optional.of(new Version(Integer.parseInt(x.group(1)), Integer.parseInt(x.group(2)),
                        !x.group(3).isEmpty()));
            }
        }
        return Optional.empty();
    }

    /**
     * The interpreter that can run {@code sys.remote_exec} against a target of version {@code v}:
     * the target's own executable when it is that interpreter (certainly the same build), then
     * {@code pythonX.Y[t]} in the PATH folders.
     */
    public static Optional<Path> interpreterFor(Version v, Path targetExe, List<Path> pathDirs,
                                                Predicate<Path> isExecutable) {
        String name = v.interpreterName();
        Set<Path> candidates = new LinkedHashSet<>();
        if (targetExe != null && targetExe.getFileName() != null && targetExe.getFileName().toString().equals(name)) {
            candidates.add(targetExe);
        }
        for (Path d : pathDirs) {
            candidates.add(d.resolve(name));
        }
        return candidates.stream().filter(isExecutable).findFirst();
    }

    /** The decision for a process, from what /proc says about it (pure: see {@link #planFor(int)}). */
    public static Plan plan(Path exe, List<String> mappedPaths, List<Path> pathDirs, Predicate<Path> isExecutable) {
        Optional<Version> v = versionOf(exe, mappedPaths);
        if (v.isEmpty()) {
            return Plan.ptrace("not a CPython process");
        }
        if (!v.get().atLeast(REMOTE_EXEC_SINCE)) {
            return Plan.ptrace("CPython " + v.get() + " has no sys.remote_exec (3.14+)");
        }
        Optional<Path> interp = interpreterFor(v.get(), exe, pathDirs, isExecutable);
        return interp.map(p -> new Plan(true, p, "CPython " + v.get() + ": sys.remote_exec through " + p))
                .orElseGet(() -> Plan.ptrace("CPython " + v.get() + " but no " + v.get().interpreterName()
                        + " here to run sys.remote_exec"));
    }

    /** The decision for a running process; ptrace when /proc cannot tell (another user's process). */
    public static Plan planFor(int pid) {
        Path proc = Path.of("/proc", Integer.toString(pid));
        Path exe;
        List<String> mapped;
        try {
            exe = Files.readSymbolicLink(proc.resolve("exe"));
            mapped = mappedFiles(Files.readString(proc.resolve("maps"), StandardCharsets.UTF_8));
        } catch (IOException | UnsupportedOperationException e) {
            return Plan.ptrace("cannot read /proc/" + pid + " (" + e.getMessage() + ")");
        }
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(":")) {
                if (!d.isEmpty()) {
                    dirs.add(Path.of(d));
                }
            }
        }
        return plan(exe, mapped, dirs, Files::isExecutable);
    }

    /** The file paths in a /proc/PID/maps text (the sixth field, when it is a path). */
    static List<String> mappedFiles(String maps) {
        Set<String> out = new LinkedHashSet<>();
        for (String line : maps.split("\n")) {
            int slash = line.indexOf('/');
            if (slash > 0) {
                out.add(line.substring(slash).strip());
            }
        }
        return new ArrayList<>(out);
    }
}
