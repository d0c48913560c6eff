package dev.vprof.capture;

import dev.vprof.wire.WireFormatException;
import dev.vprof.wire.WireReader;
import dev.vprof.wire.WireWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The string table of a compact chunk (METRICS, SPANS version 1): every distinct string stored
 * once, referred to by its index, so a chunk of many scrapes or spans from one server costs little
 * more than their values.
 *
 * <pre>
 * varint count, then per string: varint UTF-8 length, UTF-8 bytes
 * </pre>
 * Ids start at {@code firstId}: METRICS counts from 1 and keeps 0 for null; SPANS counts from 0.
 */
final class ChunkStrings {
    private final int firstId;
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> table = new ArrayList<>();

    ChunkStrings(int firstId) {
        this.firstId = firstId;
    }

    /** The id of {@code s}, added to the table when new; null is 0 (only when ids start at 1). */
    int id(String s) {
        if (s == null) {
            if (firstId == 0) {
                throw new IllegalArgumentException("null in a string table whose ids start at 0");
            }
            return 0;
        }
        Integer id = ids.get(s);
        if (id == null) {
            id = firstId + table.size();
            table.add(s);
            ids.put(s, id);
        }
        return id;
    }

    /** A whole chunk: {@code header}, then this table, then {@code body} (which refers to the table). */
    byte[] chunk(byte[] header, WireWriter body) {
        WireWriter out = new WireWriter(header.length + 16 + table.size() * 16 + body.size());
        out.raw(header);
        writeTo(out);
        out.append(body);
        return out.toByteArray();
    }

    private void writeTo(WireWriter out) {
        out.varint(table.size());
        for (String s : table) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out.varint(utf8.length);
            out.raw(utf8);
        }
    }

    /** Reads a table; index i of the array holds id i (ids below {@code firstId} are null). */
    static String[] read(WireReader in, int firstId) throws WireFormatException {
        int count = in.readCount(1);
        String[] strings = new String[firstId + count];
        for (int i = 0; i < count; i++) {
            strings[firstId + i] = in.readUtf8(in.readCount(1));
        }
        return strings;
    }

    /** A string id read from {@code in}, resolved in {@code strings}. */
    static String lookup(WireReader in, String[] strings) throws WireFormatException {
        long id = in.readVarint();
        if (id < 0 || id >= strings.length) {
            throw in.error("string id " + id + " outside the table of " + strings.length);
        }
        return strings[(int) id];
    }
}
