package dev.vprof.capture;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** What a reader noticed but read past: distinct messages, at most {@link #MAX} of them. */
final class Warnings {
    static final int MAX = 64;
    private final Set<String> messages = new LinkedHashSet<>();
    private long suppressed;

    void add(String message) {
        if (messages.contains(message)) {
            return;
        }
        if (messages.size() < MAX) {
            messages.add(message);
        } else {
            suppressed++;
        }
    }

    List<String> list() {
        List<String> out = new ArrayList<>(messages);
        if (suppressed > 0) {
            out.add("... and " + suppressed + " more warnings");
        }
        return List.copyOf(out);
    }
}
