package dev.vprof.export.sqlite;

import dev.vprof.names.KernelNames;
import dev.vprof.timeline.StringTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The database's {@code StringIds}: every string once, numbered from 0 in the order first used, and
 * the way from the timeline's string ids to them. A kernel name has three: the name as recorded
 * ({@code mangledName}), demangled ({@code demangledName}) and its function name alone
 * ({@code shortName}, {@link NsysSchema#shortName}).
 */
final class StringIds {
    private final StringTable names;
    private final KernelNames demangler = KernelNames.demangled();
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> strings = new ArrayList<>();
    /** Timeline string id to database id (-1: not yet). */
    private int[] mapped = new int[0];
    /** Per kernel name (timeline id): its demangled and short name's database ids (-1: not yet). */
    private int[] demangledIds = new int[0];
    private int[] shortIds = new int[0];

    StringIds(StringTable names) {
        this.names = names;
    }

    /** The id of {@code s} (null is the empty string). */
    int of(String s) {
        String key = s == null ? "" : s;
        Integer id = ids.get(key);
        if (id == null) {
            id = strings.size();
            strings.add(key);
            ids.put(key, id);
        }
        return id;
    }

    /** The id of the timeline's string {@code id}. */
    int ofTimeline(int id) {
        if (id >= mapped.length) {
            int old = mapped.length;
            mapped = Arrays.copyOf(mapped, Math.max(id + 1, old * 2 + 16));
            Arrays.fill(mapped, old, mapped.length, -1);
        }
        int m = mapped[id];
        if (m < 0) {
            m = of(names.get(id));
            mapped[id] = m;
        }
        return m;
    }

    /** The id of kernel name {@code nameId}'s demangled form. */
    int demangled(int nameId) {
        kernelName(nameId);
        return demangledIds[nameId];
    }

    /** The id of kernel name {@code nameId}'s function name alone. */
    int shortName(int nameId) {
        kernelName(nameId);
        return shortIds[nameId];
    }

    private void kernelName(int nameId) {
        if (nameId >= demangledIds.length) {
            int old = demangledIds.length;
            int n = Math.max(nameId + 1, old * 2 + 16);
            demangledIds = Arrays.copyOf(demangledIds, n);
            shortIds = Arrays.copyOf(shortIds, n);
            Arrays.fill(demangledIds, old, n, -1);
        }
        if (demangledIds[nameId] < 0) {
            String shown = demangler.show(names.get(nameId));
            demangledIds[nameId] = of(shown);
            shortIds[nameId] = of(NsysSchema.shortName(shown));
        }
    }

    /** The string of database id {@code id}. */
    String get(int id) {
        return strings.get(id);
    }

    int size() {
        return strings.size();
    }

    /** Writes every string to {@code StringIds}: last, when every row that refers to one is written. */
    void write(Connection db) throws SQLException {
        try (PreparedStatement st = db.prepareStatement("INSERT INTO StringIds (id, value) VALUES (?, ?)")) {
            for (int i = 0; i < strings.size(); i++) {
                st.setInt(1, i);
                st.setString(2, strings.get(i));
                st.addBatch();
                if (i % 4096 == 4095) {
                    st.executeBatch();
                }
            }
            st.executeBatch();
        }
    }
}
