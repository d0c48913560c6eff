package dev.vprof.export;

import java.nio.file.Path;
import java.util.Locale;

/** The trace formats {@code vprof export} writes. */
public enum ExportFormat {
    PERFETTO,
    CHROME,
    KINETO,
    /** An SQLite database in Nsight Systems' export schema (docs/sqlite.md). */
    SQLITE;

    /** Parses {@code perfetto}, {@code chrome}, {@code kineto} or {@code sqlite} (any case). */
    public static ExportFormat parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "perfetto" -> PERFETTO;
            case "chrome" -> CHROME;
            case "kineto" -> KINETO;
            case "sqlite" -> SQLITE;
            default -> throw new IllegalArgumentException("unknown export format '" + name
                    + "': use --format perfetto, chrome, kineto or sqlite");
        };
    }

    /**
     * The format named by {@code explicit} if given, else the one the output's extension makes clear:
     * {@code .pftrace} and {@code .perfetto-trace} are Perfetto, {@code .pt.trace.json} (the PyTorch
     * profiler's name) is Kineto JSON, any other {@code .json} is Chrome JSON, {@code .sqlite} (the
     * name {@code nsys export --type sqlite} gives) is SQLite.
     */
    public static ExportFormat choose(String explicit, Path out) {
        Path fileName = out.getFileName();
        String name = fileName == null ? "" : fileName.toString().toLowerCase(Locale.ROOT);
        if (explicit != null && !explicit.isBlank()) {
            ExportFormat f = parse(explicit);
            // A name that says the other kind of file would mislead whoever opens it: refuse it.
            boolean protobufName = name.endsWith(".pftrace") || name.endsWith(".perfetto-trace");
            boolean jsonName = name.endsWith(".json") || name.endsWith(".json.gz");
            if ((f == PERFETTO && jsonName) || (f != PERFETTO && protobufName)) {
                throw new IllegalArgumentException("--format " + explicit.strip().toLowerCase(Locale.ROOT)
                        + " writes " + (f == PERFETTO ? "Perfetto protobuf" : "JSON") + ", but " + out + " is named as "
                        + (jsonName ? "JSON" : "a Perfetto trace") + "; name it " + (f == PERFETTO ? ".pftrace" : ".json")
                        + " or leave --format out");
            }
            return f;
        }
        if (name.endsWith(".pftrace") || name.endsWith(".perfetto-trace")) {
            return PERFETTO;
        }
        if (name.endsWith(".pt.trace.json")) {
            return KINETO; // the PyTorch profiler's own file name
        }
        if (name.endsWith(".json")) {
            return CHROME;
        }
        if (name.endsWith(".sqlite")) {
            return SQLITE;
        }
        throw new IllegalArgumentException("cannot tell the export format from '" + out
                + "': name it .pftrace or .perfetto-trace (Perfetto), .json (Chrome JSON) or .sqlite (SQLite), "
                + "or pass --format perfetto|chrome|kineto|sqlite");
    }
}
