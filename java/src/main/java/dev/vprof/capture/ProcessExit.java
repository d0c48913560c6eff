package dev.vprof.capture;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A process that exited or died while the capture ran: written the moment the capture notices
 * (a JSON chunk of kind {@link #KIND}, an extension kind older readers skip), so that the report
 * names it with its rank, how it ended and when, and says that its records up to then are kept.
 *
 * @param how     {@code killed} (a signal; {@code signal} says which), {@code exited} (with
 *                {@code status} when known, else -1), or {@code vanished}: gone without running
 *                its exit handlers and with no status to read (SIGKILL, or a crash, most likely)
 * @param rank    RANK (or LOCAL_RANK) of the process, null when it had none
 * @param atEpochNs when the capture noticed, epoch ns
 * @param records the records of this process the capture had read by then
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProcessExit(int pid, Integer rank, String how, int signal, int status, long atEpochNs,
                          double secondsIntoCapture, long records) {
    /** The chunk kind: in the extension range of {@link CaptureFormat}. */
    public static final int KIND = CaptureFormat.KIND_EXTENSION_FIRST + 11;

    /** Whether this ending is a failure worth a loud line (a signal, a non-zero status, no exit at all). */
    public boolean abnormal() {
        return !how.equals("exited") || status > 0;
    }

    /** One sentence: "pid 4242 (rank 1) was killed by signal 9 (SIGKILL) 2.3 s into the capture; ...". */
    public String sentence() {
        String who = "pid " + pid + (rank == null ? "" : " (rank " + rank + ")");
        String what = switch (how) {
            case "killed" -> "was killed by signal " + signal + signalName(signal);
            case "exited" -> status >= 0 ? "exited with status " + status : "exited";
            default -> "ended without exiting (no exit handler ran: SIGKILL, or a crash)";
        };
        return who + " " + what + String.format(Locale.ROOT, " %.1f s into the capture", secondsIntoCapture)
                + "; its " + records + " records up to then are kept";
    }

    private static String signalName(int sig) {
        String n = switch (sig) {
            case 1 -> "SIGHUP"; case 2 -> "SIGINT"; case 3 -> "SIGQUIT"; case 4 -> "SIGILL"; case 6 -> "SIGABRT";
            case 7 -> "SIGBUS"; case 8 -> "SIGFPE"; case 9 -> "SIGKILL"; case 11 -> "SIGSEGV"; case 13 -> "SIGPIPE";
            case 15 -> "SIGTERM";
            default -> null;
        };
        return n == null ? "" : " (" + n + ")";
    }

    /**
     * From a wait status (as {@code waitpid} gives it, or {@code /proc/PID/stat}'s exit_code of a
     * zombie): killed or exited with its status.
     */
    public static ProcessExit fromWaitStatus(int pid, Integer rank, int waitStatus, long atEpochNs, double into,
                                             long records) {
        int sig = waitStatus & 0x7f;
        if (sig != 0 && sig != 0x7f) {
            return new ProcessExit(pid, rank, "killed", sig, -1, atEpochNs, into, records);
        }
        return new ProcessExit(pid, rank, "exited", 0, (waitStatus >> 8) & 0xff, atEpochNs, into, records);
    }

    public byte[] toJson() {
        try {
            return CaptureJson.MAPPER.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every intact ProcessExit chunk of the file, in file order; a damaged one is left out. */
    public static List<ProcessExit> read(CaptureReader reader) {
        List<ProcessExit> l = new ArrayList<>();
        for (byte[] p : reader.payloads(KIND)) {
            try {
                l.add(CaptureJson.MAPPER.readValue(p, ProcessExit.class));
            } catch (IOException | RuntimeException e) {
                // not ours, or damaged: the chunk checksum already said so
            }
        }
        return l;
    }
}
