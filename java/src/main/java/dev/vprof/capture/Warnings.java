package dev.vprof.capture;

import dev.vprof.capture.ReadStats.Severity;
import dev.vprof.capture.ReadStats.Sentence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one bounded list of sentences a reader or an adapter keeps about what it read past: distinct
 * sentences, each with a severity, at most {@code max} of them, the rest counted. The capture reader
 * keeps one inside its {@link ReadStats}; the adapter keeps one for what it changed or left out.
 */
public final class Warnings {
    static final int MAX = 64;
    private final int max;
    private final String noun;
    private final Map<String, Severity> sentences = new LinkedHashMap<>();
    private long suppressed;

    /** At most {@value #MAX} sentences, the rest counted as "more warnings". */
    public Warnings() {
        this(MAX, "warnings");
    }

    /** At most {@code max} sentences; the count of the rest is "... and N more {@code noun}". */
    public Warnings(int max, String noun) {
        this.max = max;
        this.noun = noun;
    }

    /** A sentence about something odd that cost nothing (severity info). */
    public void add(String sentence) {
        add(Severity.INFO, sentence);
    }

    /** A sentence; a repeated one keeps the higher of its severities. */
    public void add(Severity severity, String sentence) {
        Severity before = sentences.get(sentence);
        if (before != null) {
            if (severity.compareTo(before) > 0) {
                sentences.put(sentence, severity);
            }
            return;
        }
        if (sentences.size() < max) {
            sentences.put(sentence, severity);
        } else {
            suppressed++;
        }
    }

    /** The sentences in the order they came, then how many more there were. */
    public List<String> list() {
        List<String> out = new ArrayList<>(sentences.keySet());
        if (suppressed > 0) {
            out.add("... and " + suppressed + " more " + noun);
        }
        return List.copyOf(out);
    }

    /** The sentences with their severities, as {@link #list()} orders them. */
    public List<Sentence> sentences() {
        List<Sentence> out = new ArrayList<>();
        sentences.forEach((text, severity) -> out.add(new Sentence(severity, text)));
        if (suppressed > 0) {
            out.add(new Sentence(Severity.INFO, "... and " + suppressed + " more " + noun));
        }
        return List.copyOf(out);
    }
}
