package dev.vprof.output;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The temporary files and folders of this JVM not yet moved into place or removed, and the one
 * shutdown hook that removes them when the JVM ends before they are (Ctrl-C, SIGTERM, SIGHUP:
 * the JVM runs its shutdown hooks for each). A file the hook removes while a writer still writes
 * to it is only unlinked: the writer's later move finds no file, so nothing reaches the final name.
 */
final class Live {
    /** Temporary path to the output it stands for. */
    private static final Map<Path, Path> TEMPS = new ConcurrentHashMap<>();
    private static final AtomicBoolean HOOKED = new AtomicBoolean();
    /** Set when the hook begins: a temporary added after that is removed at once. */
    private static final AtomicBoolean STOPPING = new AtomicBoolean();

    private Live() {}

    /** {@code target}: the output it stands for, named when a signal removes it; null for a work folder. */
    static void add(Path temp, Path target) throws IOException {
        if (HOOKED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(Live::removeAll, "vprof-output-cleanup"));
        }
        TEMPS.put(temp, target == null ? temp : target);
        if (STOPPING.get()) {
            // The hook runs beside the writer's thread, which may claim its next file (a Kineto
            // export's second process) after the hook has walked the map: that one goes here.
            TEMPS.remove(temp);
            Leftovers.deleteTree(temp);
            throw new IOException("vprof is stopping: " + (target == null ? temp : target) + " was not begun");
        }
    }

    static void remove(Path temp) {
        TEMPS.remove(temp);
    }

    private static void removeAll() {
        STOPPING.set(true);
        PrintStream err = System.err;
        for (Map.Entry<Path, Path> e : TEMPS.entrySet()) {
            try {
                Leftovers.deleteTree(e.getKey());
                if (e.getValue().equals(e.getKey())) {
                    continue; // a work folder: the output it serves is named by its own file
                }
                err.println("vprof: stopped before " + e.getValue() + " was complete: nothing was written under that name");
            } catch (IOException | RuntimeException ex) {
                err.println("vprof: stopped before " + e.getValue() + " was complete; remove its temporary "
                        + e.getKey() + " by hand (" + ex.getMessage() + ")");
            }
        }
        err.flush();
    }
}
