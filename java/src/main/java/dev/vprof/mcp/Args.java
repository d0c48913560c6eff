package dev.vprof.mcp;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool call's arguments, checked and bounded before anything is read: a missing or mistyped one, or
 * one past its bound, is a {@link ToolFailure} naming the argument and what it may be.
 */
final class Args {
    /** The longest path or text argument, in characters. */
    static final int MAX_TEXT = 4096;
    /** The longest SQL query, in characters. */
    static final int MAX_QUERY = 8192;
    /** The most sections one call may ask for. */
    static final int MAX_LIST = 32;

    private final String tool;
    private final Map<String, Object> args;

    /** The arguments of a call of {@code tool}, which takes those named {@code known}; any other is refused. */
    Args(String tool, Set<String> known, Map<String, Object> args) {
        this.tool = tool;
        this.args = args == null ? Map.of() : args;
        for (String name : this.args.keySet()) {
            if (!known.contains(name)) {
                throw new ToolFailure(tool + " takes no argument " + Text.clip(name) + "; it takes "
                        + String.join(", ", known));
            }
        }
    }

    /** A path argument (required): bounded, and a path this system can name. */
    Path path(String name) {
        String text = text(name, MAX_TEXT);
        if (text == null) {
            throw new ToolFailure(tool + " needs the argument " + name + " (the path of a capture or trace)");
        }
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw new ToolFailure(name + " '" + Text.clip(text) + "' is not a path: " + e.getReason());
        }
    }

    /** A text argument, null when absent; at most {@code max} characters. */
    String text(String name, int max) {
        Object v = args.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new ToolFailure(name + " must be a string, not " + Text.clip(String.valueOf(v)));
        }
        if (s.length() > max) {
            throw new ToolFailure(name + " is " + s.length() + " characters; at most " + max + " are read");
        }
        return s;
    }

    /** The {@code rows} argument: 1 to {@link Bounded#MAX_ROWS}, {@link Bounded#DEFAULT_ROWS} when absent. */
    int rows() {
        Object v = args.get("rows");
        if (v == null) {
            return Bounded.DEFAULT_ROWS;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
                || n.doubleValue() < 1 || n.doubleValue() > Bounded.MAX_ROWS) {
            throw new ToolFailure("rows must be a whole number from 1 to " + Bounded.MAX_ROWS + ", not "
                    + Text.clip(String.valueOf(v)));
        }
        return n.intValue();
    }

    /** A list of strings, empty when absent; at most {@link #MAX_LIST} of them. */
    List<String> strings(String name) {
        Object v = args.get(name);
        if (v == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (v instanceof String s) { // "a,b" as the command line takes it
            for (String part : s.split(",", -1)) {
                out.add(part.strip());
            }
        } else if (v instanceof List<?> list) {
            for (Object o : list) {
                if (!(o instanceof String s)) {
                    throw new ToolFailure(name + " must hold strings, not " + Text.clip(String.valueOf(o)));
                }
                out.add(s);
            }
        } else {
            throw new ToolFailure(name + " must be a list of names, not " + Text.clip(String.valueOf(v)));
        }
        if (out.size() > MAX_LIST) {
            throw new ToolFailure(name + " holds " + out.size() + " names; at most " + MAX_LIST + " are read");
        }
        return out;
    }
}
