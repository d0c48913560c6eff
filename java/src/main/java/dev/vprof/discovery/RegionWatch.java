package dev.vprof.discovery;

import dev.vprof.region.Region;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Says when a region file appears in the agent directory, so that a capture walks {@code /proc}
 * only then and not on a timer. On Linux the JDK's WatchService is inotify, which works on
 * {@code /dev/shm} (tmpfs). A listing of the folder's names once a second is the safety net
 * (an event queue that overflowed, a file system that reports nothing), and every 50 ms where
 * no watch can be set up (out of inotify instances). Neither reads {@code /proc}.
 *
 * <p>Confined to the thread that calls {@link #appeared}.
 */
public final class RegionWatch implements AutoCloseable {
    static final long LIST_EVERY_NS = TimeUnit.SECONDS.toNanos(1);
    static final long LIST_EVERY_UNWATCHED_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private final AgentDirectory directory;
    private final WatchService service;
    private final long listEveryNs;
    /** Names present at the last look; a name seen again after it went away is new again. */
    private final Set<String> known = new HashSet<>();
    private long nextListNs;
    private boolean first = true;

    private RegionWatch(AgentDirectory directory, WatchService service, long listEveryNs) {
        this.directory = directory;
        this.service = service;
        this.listEveryNs = listEveryNs;
    }

    /** Starts watching {@code directory}; falls back to listing when the watch cannot be set up. */
    public static RegionWatch open(AgentDirectory directory) {
        WatchService ws = watchService(directory);
        return new RegionWatch(directory, ws, ws != null ? LIST_EVERY_NS : LIST_EVERY_UNWATCHED_NS);
    }

    /** For tests: the watch alone (listing only at the first call) or the listing alone. */
    static RegionWatch open(AgentDirectory directory, boolean watch, long listEveryNs) {
        return new RegionWatch(directory, watch ? watchService(directory) : null, listEveryNs);
    }

    private static WatchService watchService(AgentDirectory directory) {
        WatchService ws = null;
        try {
            ws = directory.dir().getFileSystem().newWatchService();
            directory.dir().register(ws, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE);
        } catch (IOException | UnsupportedOperationException e) {
            if (ws != null) {
                try {
                    ws.close();
                } catch (IOException ignored) {
                    // nothing to release beyond what close tried
                }
            }
            ws = null;
        }
        return ws;
    }

    /** Whether inotify (or the platform's equivalent) reports changes; false: listing only. */
    public boolean watching() {
        return service != null;
    }

    /**
     * The region files that appeared since the last call, in no particular order; the first
     * call returns every region file present. Never blocks; reads the folder, never {@code /proc}.
     *
     * @param listNow list the folder now rather than trust that the watch has reported everything
     *                (events reach the JDK's queue a moment after the file was made)
     */
    public List<Path> appeared(boolean listNow) {
        List<Path> out = new ArrayList<>();
        long now = System.nanoTime();
        boolean list = listNow || first || now - nextListNs >= 0;
        if (service != null) {
            list |= drainEvents(out);
        }
        if (list) {
            first = false;
            nextListNs = now + listEveryNs;
            Set<String> present = new HashSet<>();
            for (Path p : directory.regionPaths()) {
                String name = p.getFileName().toString();
                present.add(name);
                if (known.add(name) && !containsName(out, name)) {
                    out.add(p);
                }
            }
            known.retainAll(present);
        }
        return out;
    }

    /** Adds created region files to {@code out}; true when the events overflowed and a listing is due. */
    private boolean drainEvents(List<Path> out) {
        boolean overflow = false;
        WatchKey key;
        try {
            while ((key = service.poll()) != null) {
                for (WatchEvent<?> e : key.pollEvents()) {
                    if (e.kind() == StandardWatchEventKinds.OVERFLOW) {
                        overflow = true;
                        continue;
                    }
                    Path name = (Path) e.context();
                    if (Region.pidOf(name) <= 0) {
                        continue;
                    }
                    String n = name.toString();
                    if (e.kind() == StandardWatchEventKinds.ENTRY_DELETE) {
                        known.remove(n);
                    } else {
                        // A name created again (a stale file replaced, a pid reused) is new all the same.
                        known.add(n);
                        if (!containsName(out, n)) {
                            out.add(directory.dir().resolve(name));
                        }
                    }
                }
                if (!key.reset()) {
                    overflow = true; // the folder went away: listing will say what is there
                }
            }
        } catch (ClosedWatchServiceException e) {
            overflow = true;
        }
        return overflow;
    }

    private static boolean containsName(List<Path> paths, String name) {
        for (Path p : paths) {
            if (p.getFileName().toString().equals(name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        if (service != null) {
            try {
                service.close();
            } catch (IOException ignored) {
                // the watch is gone either way
            }
        }
    }
}
