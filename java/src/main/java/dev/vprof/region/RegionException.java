package dev.vprof.region;

/** A region that cannot be used, with one sentence a person can act on. */
public class RegionException extends Exception {
    private static final long serialVersionUID = 1L;

    public RegionException(String message) {
        super(message);
    }

    public RegionException(String message, Throwable cause) {
        super(message, cause);
    }
}
