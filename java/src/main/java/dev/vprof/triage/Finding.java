package dev.vprof.triage;

import java.util.List;

/**
 * One verdict that holds, with the numbers behind it and what to do next.
 *
 * @param summary   one sentence
 * @param evidence  the numbers that made the call, each a short "name = value" phrase
 * @param nextSteps what to do or run next, most useful first (commands are ready to paste)
 */
public record Finding(Verdict verdict, String summary, List<String> evidence, List<String> nextSteps) {
    public Finding {
        evidence = List.copyOf(evidence);
        nextSteps = List.copyOf(nextSteps);
    }
}
