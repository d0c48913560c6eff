package dev.vprof.adapt;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What the adapter changed, left out or could not read, one sentence each, at most {@link #MAX}. */
final class Notes {
    static final int MAX = 100;
    private final List<String> lines = new ArrayList<>();
    private int dropped;

    void add(String line) {
        if (lines.size() < MAX) {
            lines.add(line);
        } else {
            dropped++;
        }
    }

    List<String> list() {
        List<String> out = new ArrayList<>(lines);
        if (dropped > 0) {
            out.add("... and " + dropped + " more notes");
        }
        return Collections.unmodifiableList(out);
    }
}
