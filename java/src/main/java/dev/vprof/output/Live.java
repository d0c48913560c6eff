package dev.vprof.output;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    /** The outputs moved into place whole, for the signal's sentence. */
    private static final Set<Path> COMPLETE = ConcurrentHashMap.newKeySet();

    /** The move of a temporary onto its output's name. */
    interface Claim {
        void run() throws IOException;
    }

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

    /**
     * Moves {@code temp} onto {@code target} by {@code claim}, under the lock {@link #abandonAll}
     * takes: a signal then finds an output either still a temporary (removed, "nothing was left")
     * or in place and whole, never moved but still counted as unwritten.
     */
    static synchronized void commit(Path temp, Path target, Claim claim) throws IOException {
        claim.run();
        TEMPS.remove(temp);
        COMPLETE.add(target);
    }

    /**
     * Removes every temporary now; a temporary claimed after this begins is removed at once
     * ({@link #add}). Says nothing: the caller words the one sentence.
     */
    static synchronized OutputFile.Abandoned abandonAll() {
        STOPPING.set(true);
        List<Path> outputs = new ArrayList<>();
        List<String> leftBehind = new ArrayList<>();
        for (Map.Entry<Path, Path> e : List.copyOf(TEMPS.entrySet())) {
            TEMPS.remove(e.getKey());
            try {
                Leftovers.deleteTree(e.getKey());
            } catch (IOException | RuntimeException ex) {
                leftBehind.add(e.getKey() + " (" + ex.getMessage() + ")");
            }
            if (!e.getValue().equals(e.getKey())) {
                outputs.add(e.getValue()); // a work folder serves an output named by its own file
            }
        }
        return new OutputFile.Abandoned(outputs, leftBehind, List.copyOf(COMPLETE));
    }

    /** The hook, for a JVM that ends by System.exit or a signal handled elsewhere: the same removal, one line. */
    private static void removeAll() {
        OutputFile.Abandoned a = abandonAll();
        if (a.outputs().isEmpty() && a.leftBehind().isEmpty()) {
            return;
        }
        PrintStream err = System.err;
        err.println("vprof: stopped before " + (a.outputs().isEmpty() ? "its output" : a.names())
                + " was complete: nothing was written under " + (a.outputs().size() > 1 ? "those names" : "that name")
                + (a.leftBehind().isEmpty() ? "" : "; remove by hand " + String.join(", ", a.leftBehind())));
        err.flush();
    }
}
