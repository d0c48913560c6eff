package dev.vprof.cuda;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The libcupti files that could serve a target, in the order the agent tries them (docs/design.md §2):
 * {@code VPROF_CUPTI_LIB}; a libcupti the process already loaded; {@code $CUDA_HOME}; the pip
 * wheel next to the process's libcudart; the default library search. Outside the process, the
 * site-packages of a Python (the target's, from its maps, or {@code python3}'s) stand in for its
 * libcudart, and {@code /usr/local/cuda} for the loader's cache.
 */
public final class CuptiSearch {
    /** The sonames the agent asks the loader for, newest first. */
    public static final List<String> SONAMES = List.of("libcupti.so.13", "libcupti.so.12", "libcupti.so");

    /**
     * One place to look. {@code library} is a path, or a soname for the default search;
     * {@code source} says in words why it is a candidate.
     */
    public record Candidate(String library, boolean isPath, String source) {}

    private final Map<String, Candidate> found = new LinkedHashMap<>();

    private CuptiSearch() {}

    /**
     * Candidates for a process that runs now ({@code pid} > 0: its own environment and mapped
     * libraries), or for one that a Python will start ({@code python}: an interpreter name or
     * path, null for none; {@code env}: the environment it will get). Only existing files are
     * returned, then the default-search sonames.
     */
    public static List<Candidate> candidates(Map<String, String> env, long pid, String python)
            throws IOException, InterruptedException {
        CuptiSearch s = new CuptiSearch();
        ProcessLibraries libs = null;
        Path root = Path.of("/");
        if (pid > 0) {
            env = environOf(pid);
            libs = ProcessLibraries.of(pid);
            root = Path.of("/proc", Long.toString(pid), "root");
        }
        String explicit = env.get("VPROF_CUPTI_LIB");
        if (explicit != null && !explicit.isBlank()) {
            s.add(inTarget(root, Path.of(explicit)), "VPROF_CUPTI_LIB");
        }
        if (libs != null && libs.cupti() != null) {
            s.add(inTarget(root, libs.cupti()), "already loaded by process " + pid + wheelNote(libs.cupti()));
        }
        String home = env.get("CUDA_HOME");
        if (home != null && !home.isBlank()) {
            s.toolkit(inTarget(root, Path.of(home)), "CUDA toolkit at $CUDA_HOME");
        }
        if (libs != null) {
            for (Path p : libs.cuptiNextToCudart()) {
                s.add(inTarget(root, p), "next to the libcudart of process " + pid + wheelNote(p));
            }
            for (Path site : libs.sitePackages()) {
                s.wheels(inTarget(root, site), "of process " + pid);
            }
        } else if (python != null) {
            for (Path site : PipCuda.sitePackagesOf(python)) {
                s.wheels(site, "of " + python);
            }
        }
        s.toolkit(Path.of("/usr/local/cuda"), "CUDA toolkit at /usr/local/cuda");
        List<Candidate> out = new ArrayList<>(s.found.values());
        for (String soname : SONAMES) {
            out.add(new Candidate(soname, false, "default library search"));
        }
        return out;
    }

    private static String wheelNote(Path library) {
        return PipCuda.wheelOf(library).map(w -> ", " + w.wheel().describe()).orElse("");
    }

    /** The environment a process started with ({@code /proc/PID/environ}), bounded. */
    static Map<String, String> environOf(long pid) throws IOException {
        Path file = Path.of("/proc", Long.toString(pid), "environ");
        byte[] bytes;
        try (var in = Files.newInputStream(file)) {
            bytes = in.readNBytes(1 << 20);
        } catch (IOException e) {
            throw new IOException("cannot read " + file + " (" + e.getMessage()
                    + "): is process " + pid + " running, and yours (or run as root)?", e);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String kv : new String(bytes, StandardCharsets.UTF_8).split("\0")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                env.putIfAbsent(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return env;
    }

    /** A path as the target sees it; through /proc/PID/root when it lives in another mount namespace. */
    private static Path inTarget(Path root, Path p) {
        if (Files.exists(p)) {
            return p;
        }
        Path through = root.resolve(p.toString().substring(1));
        return Files.exists(through) ? through : p;
    }

    private void toolkit(Path home, String source) {
        for (String sub : List.of("extras/CUPTI/lib64", "lib64", "lib")) {
            for (String soname : SONAMES) {
                add(home.resolve(sub).resolve(soname), source);
            }
        }
    }

    private void wheels(Path site, String source) {
        for (PipCuda.Installed w : PipCuda.installedIn(site)) {
            add(w.library(), w.wheel().describe() + ", " + source);
        }
    }

    private void add(Path p, String source) {
        if (!Files.exists(p)) {
            return;
        }
        String key;
        try {
            key = p.toRealPath().toString();
        } catch (IOException e) {
            key = p.toAbsolutePath().normalize().toString();
        }
        found.putIfAbsent(key, new Candidate(p.toString(), true, source));
    }
}
