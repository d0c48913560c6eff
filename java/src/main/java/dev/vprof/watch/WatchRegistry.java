package dev.vprof.watch;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How {@code vprof dump PID} finds the recorder of PID from another shell: each running watch
 * leaves one small JSON file, {@code vprof-watch.<its pid>}, beside the agents' regions
 * ({@code /dev/shm}), made 0600 and removed when the watch ends. A file whose watch is gone (a
 * SIGKILL), or that another user owns, or that others may write, is not trusted.
 *
 * @param pid     the watch's own pid
 * @param rootPid the root of the tree it records
 * @param dir     where its dumps go
 * @param control its control endpoint ({@code http://127.0.0.1:PORT}), or null when it has none
 */
public record WatchRegistry(int pid, int rootPid, String dir, String control) {
    static final String PREFIX = "vprof-watch.";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Writes this watch's file into {@code folder}; returns it. */
    Path write(Path folder) throws IOException {
        Path file = folder.resolve(PREFIX + pid);
        Path tmp = folder.resolve("." + PREFIX + pid + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(Set.of(PosixFilePermission.OWNER_READ,
                PosixFilePermission.OWNER_WRITE)));
        Files.write(tmp, JSON.writeValueAsBytes(this));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /** The control endpoint as a URI, or null. */
    public URI controlUri() {
        return control == null ? null : URI.create(control);
    }

    /** The running watches in {@code folder} that this user may drive: their files, checked. */
    public static List<WatchRegistry> running(Path folder) {
        List<WatchRegistry> out = new ArrayList<>();
        int uid = Posix.getuid();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder, PREFIX + "*")) {
            for (Path p : ds) {
                try {
                    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                            || (int) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS) != uid
                            || Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS).stream()
                                    .anyMatch(x -> x != PosixFilePermission.OWNER_READ && x != PosixFilePermission.OWNER_WRITE)
                            || Files.size(p) > 64 * 1024) {
                        continue;
                    }
                    WatchRegistry w = JSON.readValue(Files.readAllBytes(p), WatchRegistry.class);
                    if (ProcessHandle.of(w.pid()).map(ProcessHandle::isAlive).orElse(false)
                            && p.getFileName().toString().equals(PREFIX + w.pid())) {
                        out.add(w);
                    }
                } catch (IOException | RuntimeException e) {
                    // not a watch's file, or one being replaced: skipped
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }
}
