package dev.vprof.discovery;

import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The region files agents created: {@code /dev/shm/vprof.<pid>} (the folder can be changed with
 * the system property {@code vprof.shm.dir}, for tests).
 */
public final class AgentDirectory {
    private final Path dir;
    private final ProcFs proc;

    public AgentDirectory(Path dir, Path proc) {
        this(dir, ProcFs.of(proc));
    }

    public AgentDirectory(Path dir, ProcFs proc) {
        this.dir = dir;
        this.proc = proc;
    }

    public static AgentDirectory system() {
        return new AgentDirectory(Path.of(System.getProperty("vprof.shm.dir", "/dev/shm")), ProcFs.system());
    }

    public Path dir() { return dir; }

    /** How this directory tells live processes from gone ones. */
    public ProcFs proc() { return proc; }

    public Path pathFor(int pid) {
        return dir.resolve("vprof." + pid);
    }

    /** Every region file, sorted by pid, each marked alive or stale. */
    public List<RegionFile> all() {
        List<RegionFile> out = new ArrayList<>();
        for (Path p : regionPaths()) {
            int pid = Region.pidOf(p);
            out.add(new RegionFile(pid, p, proc.exists(pid)));
        }
        out.sort(Comparator.comparingInt(RegionFile::pid));
        return out;
    }

    /** The region files' paths, without asking {@code /proc} whether their processes live. */
    public List<Path> regionPaths() {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "vprof.*")) {
            for (Path p : ds) {
                if (Region.pidOf(p) > 0) {
                    out.add(p);
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return out;
    }

    /** The live region files whose pid is in {@code pids} (a process tree). */
    public List<RegionFile> within(Set<Integer> pids) {
        List<RegionFile> out = new ArrayList<>();
        for (RegionFile f : all()) {
            if (f.alive() && pids.contains(f.pid())) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * The state of each live agent whose pid is in {@code pids}, read from its region (mapped
     * read-only, validated); an agent whose region is not valid yet, or not this user's, is left out.
     */
    public Map<Integer, AgentState> states(Set<Integer> pids) {
        Map<Integer, AgentState> out = new TreeMap<>();
        for (RegionFile f : within(pids)) {
            try (Region r = Region.open(f.path(), Posix.getuid(), false)) {
                out.put(f.pid(), r.state());
            } catch (RegionException e) {
                // not ready yet (or not one to read): left out
            }
        }
        return out;
    }
}
