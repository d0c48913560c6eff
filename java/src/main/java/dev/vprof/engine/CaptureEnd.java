package dev.vprof.engine;

import java.util.Locale;

/**
 * The last line of a capture: why it ended, so that "wrote ..." after an hour of silence says
 * whether --duration was reached, Ctrl-C pressed, the ranges done or the targets gone (and how
 * early). The disk-full ending has its own sentence ({@link WriteFailure}).
 */
final class CaptureEnd {
    private CaptureEnd() {}

    /** What ended the capture when it ended by itself (no stop was asked for). */
    enum Cause { COMMAND_EXITED, TARGETS_EXITED, RANGES_DONE, RANGES_DONE_OR_EXITED }

    /**
     * @param stopReason  "duration", {@code SIGINT}, {@code SIGTERM}, {@code signal} or a
     *                    caller's reason; null when it ended by itself, for {@code cause}
     * @param elapsedNs   how long it ran
     * @param durationNs  --duration, 0 when none
     * @param exitStatus  RUN: the command's exit status, when known (else null)
     */
    static String line(String stopReason, Cause cause, long elapsedNs, long durationNs, Integer exitStatus) {
        String after = " after " + seconds(elapsedNs);
        if (stopReason != null) {
            return "vprof: the capture ended" + after + ": " + switch (stopReason) {
                case "duration" -> "--duration " + seconds(durationNs) + " reached";
                case "SIGINT" -> "Ctrl-C (SIGINT)";
                case "SIGTERM" -> "SIGTERM";
                case "signal" -> "a signal (Ctrl-C or SIGTERM)";
                default -> stopReason;
            };
        }
        String early = durationNs > 0 && durationNs > elapsedNs
                ? ", " + seconds(durationNs - elapsedNs) + " before --duration " + seconds(durationNs) + " would have ended it"
                : "";
        String why = switch (cause) {
            case COMMAND_EXITED -> "the command exited" + (exitStatus == null ? "" : status(exitStatus));
            case TARGETS_EXITED -> "every process it captured exited";
            case RANGES_DONE -> "every capture range was done (--capture-range-end)";
            case RANGES_DONE_OR_EXITED -> "every process's capture range was done or the process exited";
        };
        return "vprof: the capture ended" + after + ": " + why + early;
    }

    private static String status(int s) {
        if (s > 128 && s < 128 + 65) {
            return " (killed by signal " + (s - 128) + ")";
        }
        return " (status " + s + ")";
    }

    /** 850ms, 12.3 s, 54 min 3 s, 1 h 2 min. */
    static String seconds(long ns) {
        double s = ns / 1e9;
        if (s < 1) return Math.round(s * 1000) + "ms";
        if (s < 60) return String.format(Locale.ROOT, "%.1f s", s);
        long t = Math.round(s);
        if (t < 3600) return (t / 60) + " min" + (t % 60 == 0 ? "" : " " + t % 60 + " s");
        return (t / 3600) + " h" + (t % 3600 / 60 == 0 ? "" : " " + t % 3600 / 60 + " min");
    }
}
