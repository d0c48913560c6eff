package dev.vprof.discovery;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A snapshot of the process tree read from {@code /proc/<pid>/stat} (the ppid is field 4, after a
 * command name in parentheses that may itself hold spaces and parentheses).
 */
public final class ProcessTree {
    private final Map<Integer, Integer> parentOf;

    private ProcessTree(Map<Integer, Integer> parentOf) {
        this.parentOf = parentOf;
    }

    /** Reads every process under {@code proc} (normally {@code /proc}). */
    public static ProcessTree read(Path proc) {
        Map<Integer, Integer> parents = new HashMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(proc)) {
            for (Path p : ds) {
                int pid = parsePositiveInt(p.getFileName().toString());
                if (pid <= 0) {
                    continue;
                }
                int ppid = readPpid(p.resolve("stat"));
                if (ppid >= 0) {
                    parents.put(pid, ppid);
                }
            }
        } catch (IOException e) {
            // An unreadable /proc leaves an empty tree: callers then report "no such process".
        }
        return new ProcessTree(parents);
    }

    public static ProcessTree read() {
        return read(Path.of("/proc"));
    }

    /** The ppid in a stat line, or -1 when it cannot be parsed (process gone, odd format). */
    static int readPpid(Path stat) {
        try {
            return parsePpid(Files.readString(stat, StandardCharsets.ISO_8859_1));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The wait status (field 52, exit_code) of a zombie's stat file; -1 when not a zombie or unreadable. */
    static int zombieWaitStatus(Path stat) {
        try {
            return parseZombieWaitStatus(Files.readString(stat, StandardCharsets.ISO_8859_1));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static int parseZombieWaitStatus(String statLine) {
        String[] rest = fieldsAfterName(statLine);
        // rest[0] is field 3 (state); exit_code is field 52
        if (rest.length < 50 || !rest[0].equals("Z")) {
            return -1;
        }
        try {
            return Integer.parseInt(rest[49]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static int parsePpid(String statLine) {
        String[] rest = fieldsAfterName(statLine);
        return rest.length >= 2 ? parsePositiveIntOrZero(rest[1]) : -1;
    }

    /**
     * The fields of a /proc/PID/stat line after the command name, from field 3 (state) on; none
     * when the line has no name. The name is cut at the last ')', as it may hold spaces and ')'.
     */
    private static String[] fieldsAfterName(String statLine) {
        int close = statLine.lastIndexOf(')');
        return close < 0 ? new String[0] : statLine.substring(close + 1).trim().split(" ");
    }

    /** True while {@code pid} runs: its /proc entry exists and it is not a zombie. */
    public static boolean isAlive(int pid) {
        return isAlive(Path.of("/proc"), pid);
    }

    static boolean isAlive(Path proc, int pid) {
        try {
            String stat = Files.readString(proc.resolve(Integer.toString(pid)).resolve("stat"), StandardCharsets.ISO_8859_1);
            int close = stat.lastIndexOf(')');
            char state = close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The command line of {@code pid} from /proc, arguments separated by spaces; empty if unreadable. */
    public static String commandLine(int pid) {
        return commandLine(Path.of("/proc"), pid);
    }

    static String commandLine(Path proc, int pid) {
        try {
            byte[] b = Files.readAllBytes(proc.resolve(Integer.toString(pid)).resolve("cmdline"));
            return new String(b, StandardCharsets.UTF_8).replace('\0', ' ').strip();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Bounded: an environment larger than this is read only this far. */
    private static final int ENVIRON_MAX_BYTES = 1 << 20;

    /** {@code name}'s value in an environ file (NUL-separated NAME=VALUE), or null. */
    static String environment(Path environ, String name) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(environ)) {
            bytes = in.readNBytes(ENVIRON_MAX_BYTES);
        } catch (IOException | SecurityException e) {
            return null;
        }
        String prefix = name + "=";
        for (String kv : new String(bytes, StandardCharsets.UTF_8).split("\0")) {
            if (kv.startsWith(prefix)) {
                return kv.substring(prefix.length());
            }
        }
        return null;
    }

    /** The number of processes read. */
    public int size() {
        return parentOf.size();
    }

    public boolean contains(int pid) {
        return parentOf.containsKey(pid);
    }

    /** The parent of {@code pid}, or -1 if unknown. */
    public int parent(int pid) {
        return parentOf.getOrDefault(pid, -1);
    }

    /** {@code root} and every process below it (breadth first, root first). */
    public Set<Integer> descendantsOf(int root) {
        Map<Integer, List<Integer>> children = new HashMap<>();
        for (var e : parentOf.entrySet()) {
            children.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
        }
        Set<Integer> out = new LinkedHashSet<>();
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(root);
        while (!queue.isEmpty()) {
            int p = queue.poll();
            if (out.add(p)) {
                queue.addAll(children.getOrDefault(p, List.of()));
            }
        }
        return out;
    }

    private static int parsePositiveInt(String s) {
        if (s.isEmpty() || s.length() > 10) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return -1;
            }
        }
        long v = Long.parseLong(s);
        return v <= Integer.MAX_VALUE ? (int) v : -1;
    }

    private static int parsePositiveIntOrZero(String s) {
        return "0".equals(s) ? 0 : parsePositiveInt(s);
    }
}
