package dev.vprof.capture;

/**
 * A MARKER (NVTX) record: an instant mark or one end of a range; both ends share {@code id}.
 * {@code flags} holds VprofRing.MARKER_*; {@code name} is null on an END or when the
 * STRING is missing; {@code domain} is null for the default domain.
 */
public record MarkerEvent(long timestamp, int id, int flags, String name, String domain, int tid) {}
