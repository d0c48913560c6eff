package dev.vprof.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * Regions whose creator is gone, and their removal by {@code vprof list --clean}. A region is
 * stale when no process has its pid, or when the process that has it now started after the
 * agent that made the region (the pid was reused). Only a regular file that belongs to the user
 * is removed: never a link (it could point anywhere), never another user's file.
 */
final class StaleRegions {
    private StaleRegions() {}

    /** Process start times are read in clock ticks: allow for their rounding and a clock step. */
    private static final long START_SLACK_NS = 2_000_000_000L;

    /**
     * Why the live pid {@code pid} is not the region's creator, or null when it may be: the process
     * with that pid started after the agent did. {@code agentStartNs} 0 means unknown.
     */
    static String pidReused(int pid, long agentStartNs) {
        if (agentStartNs <= 0) {
            return null;
        }
        Instant started = ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).orElse(null);
        if (started == null) {
            return null;
        }
        long startedNs = started.getEpochSecond() * 1_000_000_000L + started.getNano();
        if (startedNs > agentStartNs + START_SLACK_NS) {
            return "pid " + pid + " now belongs to another process, started after the agent that made this region";
        }
        return null;
    }

    /**
     * Removes the stale region {@code path} if it is the user's own regular file and
     * {@code stillStale} still holds (a new process with the pid may have started since the listing).
     *
     * @return null when removed (or already gone), else why it was left
     */
    static String remove(Path path, int uid, BooleanSupplier stillStale) {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                return "it is not a regular file (a link?); look at it and remove it by hand";
            }
            int owner = (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (owner != uid) {
                return "it belongs to user id " + owner + "; only that user or root can remove it";
            }
            if (!stillStale.getAsBoolean()) {
                return "a process with its pid has started since; run vprof list again";
            }
            Files.delete(path);
            return null;
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | UnsupportedOperationException e) {
            return "cannot remove it: " + e.getMessage();
        }
    }
}
