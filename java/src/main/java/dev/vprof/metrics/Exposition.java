package dev.vprof.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * What the parser made of one exposition: the families it could read and one error per line
 * it could not. A bad line never costs the good ones.
 */
public record Exposition(ExpositionFormat format, List<MetricFamily> families, List<ParseError> errors) {
    public Exposition {
        families = List.copyOf(families);
        errors = List.copyOf(errors);
    }

    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    /** The family named {@code name}, or null. */
    public MetricFamily family(String name) {
        for (MetricFamily f : families) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    /** Every sample of every family, in exposition order. */
    public List<Sample> samples() {
        List<Sample> all = new ArrayList<>();
        for (MetricFamily f : families) {
            all.addAll(f.samples());
        }
        return all;
    }
}
