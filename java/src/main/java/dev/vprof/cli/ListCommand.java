package dev.vprof.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcessTree;
import dev.vprof.discovery.RegionFile;
import dev.vprof.nativelib.Posix;
import dev.vprof.region.AgentState;
import dev.vprof.region.Region;
import dev.vprof.region.RegionException;
import dev.vprof.region.RegionNotReadyException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"List the processes that have a vprof agent: pid, parent, state, CUPTI version, command, "
                + "and why an agent FAILED. Stale regions (their process is gone, or its pid now belongs to "
                + "another process) are shown as STALE; --clean removes yours."},
        footer = {"", "Examples:", "  vprof list", "  vprof list --clean",
                "  vprof list --json | jq '.[] | select(.state==\"DORMANT\") | .pid'"})
final class ListCommand extends VprofCommand {
    ListCommand() {
        super(ExitCode.OK, ExitCode.CANNOT);
    }

    @Option(names = "--json", description = "Print a JSON array instead of a table.")
    boolean json;

    @Option(names = "--clean", description = "First remove the stale regions that are yours (their creator is "
            + "gone); another user's are left and named.")
    boolean clean;

    AgentDirectory directory = AgentDirectory.system();

    static final String STALE = "STALE";

    /** For each STALE row of the last listing, whether it still is (checked again just before removal). */
    private final Map<Integer, BooleanSupplier> stillStale = new HashMap<>();

    /** One row of the listing. */
    record Row(int pid, int ppid, String state, long cuptiVersion, String command, String reason, int frontendPid) {}

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Row> rows = rows();
        if (clean) {
            for (Row r : rows) {
                if (r.state().equals(STALE)) {
                    String left = StaleRegions.remove(directory.pathFor(r.pid()), Posix.getuid(),
                            stillStale.getOrDefault(r.pid(), () -> false));
                    err.println(left == null ? "vprof list: removed " + directory.pathFor(r.pid()) + " (" + r.reason()
                            + ")" : "vprof list: left " + directory.pathFor(r.pid()) + ": " + left);
                }
            }
            err.flush();
            rows = rows();
        }
        if (json) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (Row r : rows) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("pid", r.pid());
                m.put("ppid", r.ppid());
                m.put("state", r.state());
                m.put("cupti_version", r.cuptiVersion());
                m.put("command", r.command());
                m.put("reason", r.reason());
                m.put("frontend_pid", r.frontendPid());
                list.add(m);
            }
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(list));
        } else if (rows.isEmpty()) {
            out.println("no process with a vprof agent (start one with `vprof launch -- CMD`)");
        } else {
            long stale = rows.stream().filter(r -> r.state().equals(STALE)).count();
            out.printf("%-8s %-8s %-10s %-7s %s%n", "PID", "PPID", "STATE", "CUPTI", "COMMAND");
            for (Row r : rows) {
                String cupti = r.cuptiVersion() == 0 ? "-" : Long.toString(r.cuptiVersion());
                out.printf("%-8d %-8s %-10s %-7s %s%n", r.pid(), r.ppid() < 0 ? "-" : Integer.toString(r.ppid()),
                        r.state(), cupti, r.command());
                if (!r.reason().isEmpty()) {
                    out.printf("%-8s %s%n", "", "  reason: " + r.reason());
                }
            }
            if (stale > 0) {
                out.println(stale + " stale region" + (stale == 1 ? "" : "s") + " (shared memory left by a process that"
                        + " is gone): remove " + (stale == 1 ? "it" : "them") + " with `vprof list --clean`");
            }
        }
        out.flush();
        return ExitCode.OK.code();
    }

    List<Row> rows() {
        ProcessTree tree = ProcessTree.read();
        int uid = Posix.getuid();
        List<Row> rows = new ArrayList<>();
        for (RegionFile f : directory.all()) {
            int ppid = tree.parent(f.pid());
            if (!f.alive()) {
                rows.add(new Row(f.pid(), -1, STALE, 0, "", "process " + f.pid() + " is gone", 0));
                stillStale.put(f.pid(), () -> !ProcessTree.isAlive(f.pid()));
                continue;
            }
            try (Region r = Region.open(f.path(), uid, false)) {
                long agentStart = r.startRealtimeNs();
                String reused = StaleRegions.pidReused(f.pid(), agentStart);
                if (reused != null) {
                    stillStale.put(f.pid(), () -> StaleRegions.pidReused(f.pid(), agentStart) != null);
                    rows.add(new Row(f.pid(), ppid, STALE, 0, ProcessTree.commandLine(f.pid()), reused, 0));
                    continue;
                }
                AgentState st = r.state();
                String cmd = r.cmdline().isEmpty() ? ProcessTree.commandLine(f.pid()) : r.cmdline();
                String reason = st == AgentState.FAILED ? r.reason() : "";
                int fe = st.isActive() ? r.frontendPid() : 0;
                if (fe != 0 && reason.isEmpty()) {
                    reason = "captured by the vprof in pid " + fe;
                }
                rows.add(new Row(f.pid(), ppid, st.name(), Integer.toUnsignedLong(r.cuptiVersion()), cmd, reason, fe));
            } catch (RegionNotReadyException e) {
                rows.add(new Row(f.pid(), ppid, "STARTING", 0, ProcessTree.commandLine(f.pid()), "", 0));
            } catch (RegionException e) {
                rows.add(new Row(f.pid(), ppid, "UNUSABLE", 0, ProcessTree.commandLine(f.pid()), e.getMessage(), 0));
            }
        }
        return rows;
    }
}
