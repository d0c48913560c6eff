package dev.vprof.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every answer's bounds: each list in it at most {@code rows} long, and the whole at most
 * {@link #MAX_BYTES} of JSON. A list cut is named in the answer's {@code cut} field, one sentence a list
 * ({@code "top_kernels: cut at 10 rows of 240"}), so the assistant knows it saw part and how to see
 * more. A list that came already cut, as {@code rows} beside {@code rows_total} (a section, a query),
 * is named with that total. Lists are cut longest first, halving, until the answer fits.
 */
final class Bounded {
    private Bounded() {}

    /** The most bytes of JSON one answer holds. */
    static final int MAX_BYTES = 64 * 1024;
    /** Rows a list holds unless the call asks for another number. */
    static final int DEFAULT_ROWS = 50;
    /** The most rows a call may ask for. */
    static final int MAX_ROWS = 1000;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ObjectMapper mapper() {
        return MAPPER;
    }

    /** {@code answer} as JSON text, its lists cut to {@code rows} and the whole to {@link #MAX_BYTES}. */
    static String fit(ObjectNode answer, int rows) {
        return fit(answer, rows, MAX_BYTES);
    }

    static String fit(ObjectNode answer, int rows, int maxBytes) {
        answer.remove("cut");
        Map<String, Integer> total = new LinkedHashMap<>();
        Map<String, ArrayNode> lists = new LinkedHashMap<>();
        collect(answer, "", rows, total, lists);
        String text = withNotes(answer, lists, total);
        while (bytes(text) > maxBytes) {
            ArrayNode longest = null;
            int longestBytes = 0;
            for (ArrayNode list : lists.values()) {
                int b = bytes(list.toString());
                if (list.size() > 1 && b > longestBytes) {
                    longest = list;
                    longestBytes = b;
                }
            }
            if (longest == null) {
                ObjectNode small = object();
                small.put("cut", "the answer is over " + maxBytes / 1024 + " KiB even with one row a list; ask for "
                        + "less (fewer sections, a narrower window, a query with fewer columns)");
                return small.toString();
            }
            cut(longest, longest.size() / 2);
            answer.remove("cut");
            lists.clear(); // the lists inside the rows just cut are gone from the answer
            collect(answer, "", Integer.MAX_VALUE, new LinkedHashMap<>(), lists);
            text = withNotes(answer, lists, total);
        }
        return text;
    }

    private static String withNotes(ObjectNode answer, Map<String, ArrayNode> lists, Map<String, Integer> total) {
        ArrayNode notes = notes(lists, total);
        if (!notes.isEmpty()) {
            answer.set("cut", notes);
        }
        return answer.toString();
    }

    private static ArrayNode notes(Map<String, ArrayNode> lists, Map<String, Integer> total) {
        ArrayNode notes = MAPPER.createArrayNode();
        for (Map.Entry<String, ArrayNode> e : lists.entrySet()) {
            int all = total.get(e.getKey());
            if (e.getValue().size() < all) {
                notes.add(e.getKey() + ": cut at " + e.getValue().size() + " rows of " + all);
            }
        }
        return notes;
    }

    private static void cut(ArrayNode list, int rows) {
        while (list.size() > rows) {
            list.remove(list.size() - 1);
        }
    }

    /** Every list reachable in {@code node}, each cut to {@code rows}, its length before the first cut noted. */
    private static void collect(JsonNode node, String path, int rows, Map<String, Integer> total,
                                Map<String, ArrayNode> lists) {
        if (node instanceof ArrayNode a) {
            total.putIfAbsent(path, a.size());
            cut(a, rows);
            lists.put(path, a);
            for (int i = 0; i < a.size(); i++) {
                collect(a.get(i), path + "[" + i + "]", rows, total, lists);
            }
        } else if (node instanceof ObjectNode o) {
            if (o.get("rows") instanceof ArrayNode && o.path("rows_total").canConvertToInt()) {
                // A table cut before it came here (a section, a query) says how long it was.
                total.putIfAbsent(path.isEmpty() ? "rows" : path + ".rows", o.get("rows_total").asInt());
            }
            List<String> names = new ArrayList<>();
            for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            for (String n : names) {
                collect(o.get(n), path.isEmpty() ? n : path + "." + n, rows, total, lists);
            }
        }
    }

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
