package dev.vprof.region;

/**
 * The region exists but its agent has not finished writing the identity block yet (the file is
 * still empty or its magic still zero). Discovery retries these instead of rejecting them.
 */
public final class RegionNotReadyException extends RegionException {
    private static final long serialVersionUID = 1L;

    public RegionNotReadyException(String message) {
        super(message);
    }
}
