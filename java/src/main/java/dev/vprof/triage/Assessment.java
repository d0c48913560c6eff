package dev.vprof.triage;

import dev.vprof.metrics.WindowStats;
import java.util.List;

/**
 * The outcome of a triage: the leading verdict, every finding that holds (leading one first),
 * and the window statistics they were computed from.
 */
public record Assessment(Verdict verdict, List<Finding> findings, WindowStats stats) {
    public Assessment {
        findings = List.copyOf(findings);
    }

    /** The leading finding. */
    public Finding primary() {
        return findings.getFirst();
    }
}
