package dev.vprof.metrics;

import java.util.Arrays;

/**
 * An immutable label set, kept sorted by label name so that two sets with the same pairs in a
 * different exposition order are equal (Prometheus identifies a series by the set, not the
 * order).
 */
public final class Labels {
    public static final Labels EMPTY = new Labels(new String[0]);

    /** name0, value0, name1, value1, ... sorted by name. */
    private final String[] pairs;
    private int hash;

    private Labels(String[] sortedPairs) {
        this.pairs = sortedPairs;
    }

    /** Labels from alternating names and values: {@code Labels.of("model_name", "m", "engine", "0")}. */
    public static Labels of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("Labels.of needs name/value pairs, got an odd count");
        }
        return fromPairs(namesAndValues.clone(), namesAndValues.length / 2);
    }

    /**
     * Takes ownership of {@code pairs} (the first {@code count} pairs are used). Returns null
     * when a label name repeats, which the parser reports as an error.
     */
    public static Labels fromPairs(String[] pairs, int count) {
        if (count == 0) {
            return EMPTY;
        }
        String[] sorted = pairs.length == count * 2 ? pairs : Arrays.copyOf(pairs, count * 2);
        // Insertion sort: label sets are small (typically 1-5 pairs).
        for (int i = 1; i < count; i++) {
            String n = sorted[2 * i];
            String v = sorted[2 * i + 1];
            int j = i - 1;
            while (j >= 0 && sorted[2 * j].compareTo(n) > 0) {
                sorted[2 * j + 2] = sorted[2 * j];
                sorted[2 * j + 3] = sorted[2 * j + 1];
                j--;
            }
            sorted[2 * j + 2] = n;
            sorted[2 * j + 3] = v;
        }
        for (int i = 1; i < count; i++) {
            if (sorted[2 * i].equals(sorted[2 * i - 2])) {
                return null;
            }
        }
        return new Labels(sorted);
    }

    public int size() {
        return pairs.length / 2;
    }

    public boolean isEmpty() {
        return pairs.length == 0;
    }

    public String name(int i) {
        return pairs[2 * i];
    }

    public String value(int i) {
        return pairs[2 * i + 1];
    }

    /** The value of label {@code name}, or null when the set has no such label. */
    public String get(String name) {
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i].equals(name)) {
                return pairs[i + 1];
            }
        }
        return null;
    }

    /** This set without label {@code name} (used to group histogram buckets by series). */
    public Labels without(String name) {
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i].equals(name)) {
                String[] rest = new String[pairs.length - 2];
                System.arraycopy(pairs, 0, rest, 0, i);
                System.arraycopy(pairs, i + 2, rest, i, pairs.length - i - 2);
                return rest.length == 0 ? EMPTY : new Labels(rest);
            }
        }
        return this;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Labels other && (this == other || Arrays.equals(pairs, other.pairs));
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Arrays.hashCode(pairs);
            hash = h;
        }
        return h;
    }

    /** The exposition form, {@code {a="1",b="x\"y"}}; empty string for no labels. */
    @Override
    public String toString() {
        if (pairs.length == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < pairs.length; i += 2) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(pairs[i]).append("=\"");
            String v = pairs[i + 1];
            for (int k = 0; k < v.length(); k++) {
                char c = v.charAt(k);
                switch (c) {
                    case '\\' -> sb.append("\\\\");
                    case '"' -> sb.append("\\\"");
                    case '\n' -> sb.append("\\n");
                    default -> sb.append(c);
                }
            }
            sb.append('"');
        }
        return sb.append('}').toString();
    }
}
