package dev.vprof.export.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Nsight Systems' enum tables ({@code ENUM_CUDA_KERNEL_LAUNCH_TYPE}, {@code ENUM_CUDA_MEMCPY_OPER},
 * ...), every row as the 2026.2.1 export holds it: {@code nsys-enums.tsv}, derived from that export
 * by {@code scripts/nsys-schema-facts.sh}. Readers join the enum columns to them by id, so each is
 * written whole, whatever vprof has rows for.
 */
final class NsysEnums {
    private NsysEnums() {}

    /** One value of one enum table. */
    record Value(String table, int id, String name, String label) {}

    static final List<Value> VALUES = parse(NsysSchema.resource("nsys-enums.tsv"));

    static List<Value> parse(String tsv) {
        List<Value> values = new ArrayList<>();
        String[] lines = tsv.split("\n");
        for (int i = 1; i < lines.length; i++) { // the first line names the columns
            if (lines[i].isEmpty()) {
                continue;
            }
            String[] f = lines[i].split("\t", -1);
            if (f.length != 4) {
                throw new IllegalStateException("nsys-enums.tsv line " + (i + 1) + " has " + f.length + " fields, not 4");
            }
            values.add(new Value(f[0], Integer.parseInt(f[1]), f[2], f[3]));
        }
        return List.copyOf(values);
    }

    /** Writes every value into its table (the tables exist). */
    static void write(Connection db) throws SQLException {
        String table = null;
        PreparedStatement st = null;
        try {
            for (Value v : VALUES) {
                if (!v.table().equals(table)) {
                    if (st != null) {
                        st.executeBatch();
                        st.close();
                    }
                    table = v.table();
                    st = db.prepareStatement("INSERT INTO " + table + " (id, name, label) VALUES (?, ?, ?)");
                }
                st.setInt(1, v.id());
                st.setString(2, v.name());
                st.setString(3, v.label());
                st.addBatch();
            }
            if (st != null) {
                st.executeBatch();
            }
        } finally {
            if (st != null) {
                st.close();
            }
        }
    }
}
