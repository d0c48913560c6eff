package dev.vprof.timeline;

/** A stage of a request, such as {@code queue}, {@code prefill} or {@code decode}. */
public record Phase(String name, long startNs, long endNs) {
    public Phase {
        if (endNs < startNs) {
            throw new IllegalArgumentException("phase '" + name + "' ends before it starts");
        }
        name = name == null ? "" : name;
    }
}
