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
        if (explicit != null && !explicit.isBlank()) {
            return parse(explicit);
        }
        Path fileName = out.getFileName();
        String name = fileName == null ? "" : fileName.toString().toLowerCase(Locale.ROOT);
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
