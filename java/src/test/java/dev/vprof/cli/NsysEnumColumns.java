package dev.vprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The enum columns of today's real nsys export ({@code -- REFERENCES ENUM_...(id)} in its DDL), and
 * the check that an export sets each as nsys does: where nsys writes a value in every row, so does
 * vprof, and every value is one of the enum table's.
 */
final class NsysEnumColumns {
    private NsysEnumColumns() {}

    static final Path NSYS_NOW = Path.of("../fixtures/real/nsys-ai/h100_2gpu_1s.sqlite");

    record Column(String table, String column, String enumTable) {}

    private static final Pattern REFERENCE = Pattern.compile("^\\s*(\\w+)\\s+INTEGER.*REFERENCES (ENUM_\\w+)\\(id\\)");

    static List<Column> columns() {
        List<Column> out = new ArrayList<>();
        for (JsonNode t : SqliteQueries.rows(NSYS_NOW, "SELECT name, sql FROM sqlite_master WHERE type = 'table'")) {
            for (String line : t.get("sql").asText().split("\n")) {
                Matcher m = REFERENCE.matcher(line);
                if (m.find()) {
                    out.add(new Column(t.get("name").asText(), m.group(1), m.group(2)));
                }
            }
        }
        return out;
    }

    /** Checks every enum column of {@code db}'s tables that hold rows; returns how many were checked. */
    static int assertSetAsNsysSetsThem(Path db) {
        int checked = 0;
        for (Column c : columns()) {
            long rows = SqliteQueries.value(db, "SELECT count(*) FROM " + c.table());
            long nsysRows = SqliteQueries.value(NSYS_NOW, "SELECT count(*) FROM " + c.table());
            if (rows == 0 || nsysRows == 0) {
                continue;
            }
            long nsysSet = SqliteQueries.value(NSYS_NOW, "SELECT count(" + c.column() + ") FROM " + c.table());
            long set = SqliteQueries.value(db, "SELECT count(" + c.column() + ") FROM " + c.table());
            if (nsysSet == nsysRows) {
                assertEquals(rows, set, c + ": nsys writes a value in every row, so must vprof");
            }
            assertEquals(0, SqliteQueries.value(db, "SELECT count(*) FROM " + c.table() + " t WHERE t." + c.column()
                            + " IS NOT NULL AND NOT EXISTS (SELECT 1 FROM " + c.enumTable() + " e WHERE e.id = t." + c.column() + ")"),
                    c + ": a value that is not one of " + c.enumTable() + "'s");
            checked++;
        }
        assertTrue(checked > 0, "no enum column had rows on both sides");
        return checked;
    }
}
