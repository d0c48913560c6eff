package dev.vprof.capture;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a source was read, as Perfetto's {@code stats} table says how a trace was imported: named
 * counters, each with a severity ({@link Severity}), and the sentences that name each oddity (a
 * bounded {@link Warnings}). A {@link CaptureReader} fills it while it opens and reads a file; a source
 * converted into a capture (a PyTorch profiler trace) adds its own sentences and counters through the
 * same type.
 *
 * <p>It is judged once, here: {@link #readPartly()} says whether what is shown covers less than the
 * source held (a counter of severity {@code data_loss} or {@code error} above 0), and
 * {@link #summary()} says so in one sentence: what was lost, how much was recovered, and how much is
 * known to be missing. Every command maps {@code readPartly()} to the same exit code
 * ({@code cli.ReadHealth}). The counters grow during passes over the records, as damage is met.
 */
public final class ReadStats {

    /** How much a counter matters, in Perfetto's words. */
    public enum Severity {
        /** Something odd that cost nothing: what is shown is all the source held. */
        INFO,
        /** Part of the source could not be read: what is shown covers less than it held. */
        DATA_LOSS,
        /** The source contradicts itself or vprof: what is shown may be wrong as well as short. */
        ERROR;

        private final String key = name().toLowerCase(Locale.ROOT);

        /** The name in JSON and in the HTML page (the constant's in lower case): {@code info}, {@code data_loss}. */
        public String key() {
            return key;
        }
    }

    /** One sentence with its severity. */
    public record Sentence(Severity severity, String text) {}

    /**
     * The counters, with their severities and meanings; a counter's JSON name is its constant's in
     * lower case (docs/report-json.md lists them).
     */
    public enum Stat {
        DAMAGED_CHUNKS(Severity.DATA_LOSS,
                "chunks skipped as damaged: a bad checksum, a length past the file, JSON that does not parse"),
        DAMAGED_BYTES(Severity.DATA_LOSS, "bytes of the file those damaged chunks take"),
        CUT_SHORT(Severity.DATA_LOSS,
                "1 when the file ends inside a chunk or its header: the rest of the file is missing"),
        TRUNCATED_TAIL_BYTES(Severity.DATA_LOSS,
                "bytes at the end of a file cut short that belong to the chunk it cuts and could not be used"),
        NOT_CLOSED(Severity.DATA_LOSS,
                "1 when the file was never closed by its writer (no footer) and that writer is no longer running"),
        NO_METADATA(Severity.DATA_LOSS, "1 when the file holds no readable METADATA chunk"),
        PROCESSES_SKIPPED(Severity.DATA_LOSS, "processes whose records were skipped: more than the reader decodes"),
        UNVERIFIED_RECORDS(Severity.INFO,
                "records recovered from the chunk a cut file ends in, which its checksum cannot vouch for"),
        LIVE_CAPTURE(Severity.INFO,
                "1 when the file is still being written by a running capture: it is read as far as it goes"),
        INDEX_DAMAGED(Severity.INFO,
                "1 when the footer index was damaged and the file was read chunk by chunk instead"),
        CLOCK_PAIRS_UNUSED(Severity.INFO,
                "1 when the file holds more clock pairs than the fit uses (it used the first)"),
        TRACE_EVENTS_SKIPPED(Severity.INFO,
                "events of a converted PyTorch trace left out (no time, a negative duration), each named");

        private final String key = name().toLowerCase(Locale.ROOT);
        private final Severity severity;
        private final String meaning;

        Stat(Severity severity, String meaning) {
            this.severity = severity;
            this.meaning = meaning;
        }

        public String key() {
            return key;
        }

        public Severity severity() {
            return severity;
        }

        public String meaning() {
            return meaning;
        }
    }

    /** One counter's value, as JSON and the page show it. */
    public record Counter(Stat stat, long value) {}

    private final String shownAs;
    private final Map<Stat, Long> counters = new EnumMap<>(Stat.class);
    private final Warnings warnings = new Warnings();
    private long fileSize = -1;
    private long headerBytes = CaptureFormat.FILE_HEADER_SIZE;
    private long chunksRead;
    private long bytesRead;

    /** Stats of the source the user named {@code shownAs}. */
    public ReadStats(String shownAs) {
        this.shownAs = shownAs;
    }

    /** The source as the user named it. */
    public String source() {
        return shownAs;
    }

    /** Adds {@code n} to a counter. */
    public void add(Stat stat, long n) {
        if (n != 0) {
            counters.merge(stat, n, Long::sum);
        }
    }

    /** Sets a counter that is a yes or no (1 or 0). */
    public void flag(Stat stat, boolean on) {
        if (on) {
            counters.put(stat, 1L);
        } else {
            counters.remove(stat);
        }
    }

    public long get(Stat stat) {
        return counters.getOrDefault(stat, 0L);
    }

    /** A sentence about something odd that cost nothing. */
    public void note(String sentence) {
        warnings.add(Severity.INFO, sentence);
    }

    /** A sentence of the given severity. */
    public void note(Severity severity, String sentence) {
        warnings.add(severity, sentence);
    }

    /** The bounded sentence list, for readers inside this package that add to it directly. */
    Warnings warnings() {
        return warnings;
    }

    /** What the reader could use of a file of {@code fileSize} bytes: whole chunks and their bytes. */
    void extent(long fileSize, long chunksRead, long bytesRead) {
        this.fileSize = fileSize;
        this.chunksRead = chunksRead;
        this.bytesRead = bytesRead;
    }

    /** A file shorter than its header: only its first {@code bytes} bytes. */
    void headerOnly(long bytes) {
        this.headerBytes = bytes;
    }

    /** True when what is shown covers less than the source held (a data_loss or error counter above 0). */
    public boolean readPartly() {
        for (Map.Entry<Stat, Long> e : counters.entrySet()) {
            if (e.getKey().severity() != Severity.INFO && e.getValue() > 0) {
                return true;
            }
        }
        return false;
    }

    /** True when the file is still being written by a running capture. */
    public boolean live() {
        return get(Stat.LIVE_CAPTURE) > 0;
    }

    /** Every counter, 0 or not, in the order of {@link Stat}. */
    public List<Counter> counters() {
        List<Counter> out = new ArrayList<>();
        for (Stat s : Stat.values()) {
            out.add(new Counter(s, get(s)));
        }
        return out;
    }

    /** The sentences, each with its severity, in the order they came. */
    public List<Sentence> sentences() {
        return warnings.sentences();
    }

    /** The sentences' text alone. */
    public List<String> texts() {
        return warnings.list();
    }

    /**
     * The one sentence for a source read partly, or null when it was read whole: what was lost,
     * what is shown instead, and how much is known to be missing (never "0 bytes" for "unknown").
     */
    public String summary() {
        if (!readPartly()) {
            return null;
        }
        List<String> lost = new ArrayList<>();
        boolean nothing = chunksRead == 0;
        if (headerBytes < CaptureFormat.FILE_HEADER_SIZE) {
            lost.add(String.format(Locale.ROOT, "it ends at byte %d, inside its %d-byte file header: the rest of the "
                    + "file after byte %d is missing", headerBytes, CaptureFormat.FILE_HEADER_SIZE, headerBytes));
        } else if (get(Stat.CUT_SHORT) > 0) {
            lost.add(String.format(Locale.ROOT, "it ends at byte %d in the middle of a chunk (cut short): the rest of "
                    + "the file after byte %d is missing, and how much that was is not known", fileSize, fileSize)
                    + (get(Stat.UNVERIFIED_RECORDS) > 0 ? ", except the " + get(Stat.UNVERIFIED_RECORDS)
                            + " whole records before the cut, which were kept unverified" : ""));
        } else if (get(Stat.NOT_CLOSED) > 0) {
            lost.add(String.format(Locale.ROOT, "it was never closed by its writer, which is no longer running "
                    + "(killed, or stopped by a full disk): whatever it would have written after byte %d is "
                    + "missing, and how much that was is not known", fileSize));
        }
        long chunks = get(Stat.DAMAGED_CHUNKS);
        if (chunks > 0) {
            lost.add(String.format(Locale.ROOT, "%d damaged chunk%s (%s of its %s) %s", chunks, chunks == 1 ? "" : "s",
                    bytes(get(Stat.DAMAGED_BYTES)), bytes(fileSize),
                    chunks == 1 ? "was skipped" : "were skipped"));
        }
        if (get(Stat.NO_METADATA) > 0 && !nothing) {
            lost.add("its METADATA chunk is missing or unreadable (host, start time and command line unknown)");
        }
        if (get(Stat.PROCESSES_SKIPPED) > 0) {
            lost.add("the records of " + get(Stat.PROCESSES_SKIPPED) + " processes past the reader's limit were skipped");
        }
        for (Stat s : Stat.values()) { // a counter a source adds that has no wording here yet
            if (s.severity() != Severity.INFO && get(s) > 0 && !WORDED.contains(s)) {
                lost.add(s.key() + " = " + get(s) + " (" + s.meaning() + ")");
            }
        }
        String shown = nothing ? "nothing in it was readable"
                : String.format(Locale.ROOT, "what is shown covers the %d whole chunk%s read (%s of its %s)",
                        chunksRead, chunksRead == 1 ? "" : "s", bytes(bytesRead), bytes(fileSize));
        return shownAs + " was read only partly: " + String.join("; ", lost) + "; " + shown;
    }

    private static final List<Stat> WORDED = List.of(Stat.CUT_SHORT, Stat.TRUNCATED_TAIL_BYTES, Stat.NOT_CLOSED,
            Stat.DAMAGED_CHUNKS, Stat.DAMAGED_BYTES, Stat.NO_METADATA, Stat.PROCESSES_SKIPPED);

    /**
     * The stats as plain maps and lists, for every JSON output's {@code read_health} object (the keys
     * are written here, so any mapper writes them the same way; docs/report-json.md lists them).
     */
    public Map<String, Object> asMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("source", shownAs);
        out.put("read_partly", readPartly());
        out.put("live_capture", live());
        out.put("summary", summary());
        Map<String, Object> stats = new LinkedHashMap<>();
        for (Counter c : counters()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("value", c.value());
            one.put("severity", c.stat().severity().key());
            stats.put(c.stat().key(), one);
        }
        out.put("stats", stats);
        List<Map<String, Object>> sentences = new ArrayList<>();
        for (Sentence x : sentences()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("severity", x.severity().key());
            one.put("text", x.text());
            sentences.add(one);
        }
        out.put("warnings", sentences);
        return out;
    }

    /** A size as people read it: bytes, KiB or MiB. */
    public static String bytes(long b) {
        if (b >= 1L << 20) return String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
        if (b >= 1L << 10) return String.format(Locale.ROOT, "%.1f KiB", b / (double) (1L << 10));
        return b + (b == 1 ? " byte" : " bytes");
    }
}
