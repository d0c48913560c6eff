package dev.vprof.export;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What a writer keeps per track (a GPU stream, a thread, a process), found by the track object the
 * walk hands out. The walk hands out runs of one track's events, so the last lookup is remembered.
 */
final class TrackMap<K, V> {
    private final String what;
    private final Map<K, V> values = new IdentityHashMap<>();
    private K lastKey;
    private V lastValue;

    /** @param what names the track in the error when the walk hands out one the layout lacked */
    TrackMap(String what) {
        this.what = what;
    }

    void put(K key, V value) {
        values.put(key, value);
    }

    /** The value of {@code key}; throws when the layout had no such track (a walk out of step). */
    V get(K key) {
        if (key != lastKey) {
            V v = values.get(key);
            if (v == null) {
                throw new IllegalStateException(what + " handed out by the walk is not in the layout");
            }
            lastKey = key;
            lastValue = v;
        }
        return lastValue;
    }

    /** The value of {@code key}, or null when there is none. */
    V find(K key) {
        if (key != lastKey) {
            lastValue = values.get(key);
            lastKey = key;
        }
        return lastValue;
    }
}
