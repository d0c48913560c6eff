package dev.vprof.region;

/** A region that cannot be used, with one sentence a person can act on. */
public class RegionException extends Exception {
    public RegionException(String message) {
        super(message);
    }

    public RegionException(String message, Throwable cause) {
        super(message, cause);
    }
}
