package dev.vprof.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The exports and reports a test class's many cases share: each made once, on first use, exiting 0. */
final class RunsOnce {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String prefix;
    private final Map<Path, Path> databases = new HashMap<>();
    private final Map<List<String>, JsonNode> outputs = new HashMap<>();

    /** Databases are named {@code prefix} and a number. */
    RunsOnce(String prefix) {
        this.prefix = prefix;
    }

    /** {@code input} exported to a SQLite database in {@code dir}. */
    synchronized Path sqlite(Path dir, Path input) {
        return databases.computeIfAbsent(input, t -> {
            Path db = dir.resolve(prefix + databases.size() + ".sqlite");
            E2e.ok(Cli.run("export", t.toString(), "-o", db.toString()));
            return db;
        });
    }

    /** What the command {@code args} writes to stdout, read as JSON. */
    synchronized JsonNode json(String... args) throws IOException {
        JsonNode r = outputs.get(List.of(args));
        if (r == null) {
            r = JSON.readTree(E2e.ok(Cli.run(args)).out());
            outputs.put(List.of(args), r);
        }
        return r;
    }
}
