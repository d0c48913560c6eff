package dev.vprof.timeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Interned strings of one timeline. Kernel, API and range names repeat millions of times, so slices
 * store an {@code int} id and writers encode each distinct string once. Id 0 is always the empty
 * string, so a zeroed column means "no name".
 */
public final class StringTable {
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> strings = new ArrayList<>();

    public StringTable() {
        intern("");
    }

    /** Returns the id of {@code s}, adding it on first sight; {@code null} is the empty string. */
    public int intern(String s) {
        String key = s == null ? "" : s;
        Integer id = ids.get(key);
        if (id != null) {
            return id;
        }
        int next = strings.size();
        strings.add(key);
        ids.put(key, next);
        return next;
    }

    /** The string with this id; throws for an id this table never handed out. */
    public String get(int id) {
        if (id < 0 || id >= strings.size()) {
            throw new IllegalArgumentException("no interned string with id " + id + " (table holds " + strings.size() + ")");
        }
        return strings.get(id);
    }

    public int size() {
        return strings.size();
    }
}
