package dev.vprof.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.discovery.AgentDirectory;
import dev.vprof.discovery.ProcessTree;
import dev.vprof.watch.WatchRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vprof dump PID}: asks the running {@code vprof watch} of PID for a dump, from another shell. */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Ask the `vprof watch` that records PID (the watch's own pid, the pid it watches, or any "
                + "process of that tree) for a dump of the minutes around now, and print where it is once written.",
                "Without a control endpoint (watch --control off) it sends the watch SIGUSR1 and does not wait."},
        footer = {"", "Examples:",
                "  vprof dump 4242",
                "  vprof dump 4242 --reason 'p99 page at 03:10' --no-wait",
                "  vprof dump 4242 --json | jq -r .file"})
final class DumpCommand extends VprofCommand {
    DumpCommand() {
        super(ExitCode.OK, ExitCode.CANNOT);
    }

    @Parameters(index = "0", paramLabel = "PID", description = "A pid of the watched tree, or the watch's own.")
    int pid;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, as the dump's metadata records it.")
    String reason;

    @Option(names = "--no-wait", description = "Return once the watch took the request, before the dump is written.")
    boolean noWait;

    @Option(names = "--json", description = "Print the watch's answer as JSON on stdout.")
    boolean json;

    AgentDirectory directory = AgentDirectory.system();

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<WatchRegistry> watches = WatchRegistry.running(directory.dir());
        WatchRegistry w = find(watches);
        if (w == null) {
            throw new CliException("no running vprof watch records pid " + pid + (watches.isEmpty() ? " (none runs as "
                    + "this user)" : " (the watches running record pids " + watches.stream().map(x -> Integer.toString(x.rootPid()))
                    .reduce((a, b) -> a + ", " + b).orElse("") + ")") + "; start one with vprof watch --pid " + pid);
        }
        String why = "vprof dump " + pid + (reason == null ? "" : ": " + reason);
        if (w.controlUri() == null) {
            new ProcessBuilder("kill", "-USR1", Integer.toString(w.pid())).inheritIO().start().waitFor();
            err.println("vprof dump: sent SIGUSR1 to the vprof watch in pid " + w.pid() + " (it has no control endpoint); "
                    + "its dump goes to " + w.dir());
            return ExitCode.OK.code();
        }
        URI uri = URI.create(w.control() + "/dump" + (noWait ? "" : "?wait=1"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest req = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(why))
                .timeout(Duration.ofMinutes(10)).build();
        HttpResponse<String> r;
        try {
            r = http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new CliException("the vprof watch in pid " + w.pid() + " did not answer at " + w.control() + " ("
                    + e.getMessage() + "); is it still running? kill -USR1 " + w.pid() + " asks it too");
        }
        JsonNode body;
        try {
            body = JSON.readTree(r.body());
        } catch (IOException e) {
            throw new CliException("the vprof watch in pid " + w.pid() + " answered HTTP " + r.statusCode() + " with "
                    + "no JSON: " + r.body().strip());
        }
        if (json) {
            out.println(JSON.writeValueAsString(body));
            out.flush();
        }
        if (body.has("refused")) {
            throw new CliException("the vprof watch in pid " + w.pid() + " refused: " + body.path("refused").asText());
        }
        if (body.has("error")) {
            throw new CliException("the vprof watch in pid " + w.pid() + " could not write dump "
                    + body.path("dump").asText() + ": " + body.path("error").asText());
        }
        if (r.statusCode() == 202) {
            err.println("vprof dump: the watch in pid " + w.pid() + " writes dump " + body.path("dump").asText() + " to "
                    + body.path("file").asText() + (noWait ? "" : " (it took longer than the wait)"));
        } else {
            err.println("vprof dump: " + body.path("file").asText() + " (verdict "
                    + (body.path("verdict").isNull() ? "none" : body.path("verdict").asText()) + ", "
                    + body.path("kernels").asLong() + " kernels, " + body.path("requests").asLong() + " requests); page "
                    + body.path("page").asText());
        }
        err.flush();
        return ExitCode.OK.code();
    }

    /** The watch of {@code pid}: the watch itself, its root, or a watch whose tree holds pid. */
    private WatchRegistry find(List<WatchRegistry> watches) {
        for (WatchRegistry w : watches) {
            if (w.pid() == pid || w.rootPid() == pid) {
                return w;
            }
        }
        ProcessTree tree = ProcessTree.read();
        for (WatchRegistry w : watches) {
            if (tree.descendantsOf(w.rootPid()).contains(pid)) {
                return w;
            }
        }
        return null;
    }
}
