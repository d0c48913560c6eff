package dev.vprof.discovery;

import java.nio.file.Path;

/**
 * A {@code vprof.<pid>} file in the shared-memory folder.
 *
 * @param alive false when no process with that pid exists: a stale file left by a crash
 */
public record RegionFile(int pid, Path path, boolean alive) {}
