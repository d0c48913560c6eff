package dev.vprof.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.cli.Cli;
import dev.vprof.cli.Main;
import dev.vprof.otlp.RequestPhases;
import dev.vprof.otlp.Span;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vprof mcp} driven by the SDK's own client over stdio: the server is the real command line in
 * its own JVM, so stdout must carry JSON-RPC alone. One session: initialize, list the tools, call every
 * tool on a real trace (HTA's {@code trace_diff}) and on the demo's capture, each answer against an
 * oracle of its own (the trace's events counted with Jackson, SQL on an export written by
 * {@code vprof export}, the capture's records and spans read here), an oversized answer cut and
 * saying so, and a bad path, a damaged file and a refused query each a tool error of one sentence
 * after which the next call is answered.
 */
@Timeout(600)
class McpServerTest {
    static final Path TEST = Path.of("../fixtures/real/hta/trace_diff/test/test.json.gz");
    static final Path CONTROL = Path.of("../fixtures/real/hta/trace_diff/control/control.json.gz");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path demo;
    static McpSyncClient client;
    static final ConcurrentLinkedQueue<String> serverErr = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void startTheDemoAndTheServer() {
        Path nat = Path.of(System.getProperty("vprof.native.dir", "../native/target/native"));
        assertTrue(Files.isExecutable(nat.resolve("vprof-simgpu")), "vprof-simgpu not built: mvn -B verify builds it");
        // The demo as its own test runs it: a smaller load, the same path.
        Cli.Result made = Cli.run("demo", "--dir", dir.resolve("demo").toString(), "--steady", "12", "--rate", "8",
                "--burst", "24", "--max-tokens", "16");
        assertEquals(0, made.code(), made.err() + "\n" + made.out());
        demo = dir.resolve("demo").resolve("capture.vprof");

        List<String> server = serverCommand();
        ServerParameters params = ServerParameters.builder(server.getFirst())
                .args(server.subList(1, server.size()).toArray(String[]::new)).build();
        StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(serverErr::add);
        client = McpClient.sync(transport).requestTimeout(Duration.ofMinutes(5))
                .initializationTimeout(Duration.ofMinutes(1)).build();
        client.initialize();
    }

    /** {@code vprof mcp} in a JVM of its own, on this test's classpath. */
    static List<String> serverCommand() {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return List.of(java.toString(), "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + dir, "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "mcp");
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    static CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(CallToolRequest.builder(tool).arguments(args).build());
    }

    static String text(CallToolResult r) {
        assertEquals(1, r.content().size(), r.toString());
        return ((TextContent) r.content().get(0)).text();
    }

    /** The answer of a call that must succeed, as JSON, checked against the caps every answer keeps. */
    static JsonNode answer(String tool, Map<String, Object> args) throws Exception {
        CallToolResult r = call(tool, args);
        String t = text(r);
        assertFalse(Boolean.TRUE.equals(r.isError()), tool + " " + args + ": " + t);
        assertTrue(t.getBytes(StandardCharsets.UTF_8).length <= Bounded.MAX_BYTES, tool + " answered " + t.length());
        return JSON.readTree(t);
    }

    /** A call that must fail: one sentence, one line, and the server answers the next call. */
    static String refused(String tool, Map<String, Object> args) throws Exception {
        CallToolResult r = call(tool, args);
        String t = text(r);
        assertEquals(true, r.isError(), tool + " " + args + " should be a tool error: " + t);
        assertFalse(t.contains("\n") || t.contains("Exception") || t.contains("\tat "), "one sentence: " + t);
        assertTrue(t.endsWith(".") && t.length() < 400, "one sentence: " + t);
        assertEquals(9876, answer("sql", Map.of("path", TEST.toString(), "query",
                "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")).path("rows").get(0).get(0).asLong(),
                "the server still answers after: " + t);
        return t;
    }

    /** The trace's GPU events, read with Jackson alone: cat, name, device, ts and dur (microseconds). */
    record Event(String cat, String name, int device, double ts, double dur) {}

    static List<Event> gpuEvents(Path trace) throws Exception {
        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(trace))) {
            root = JSON.readTree(in);
        }
        List<Event> out = new ArrayList<>();
        for (JsonNode e : root.path("traceEvents")) {
            String cat = e.path("cat").asText().toLowerCase(Locale.ROOT);
            if (e.path("ph").asText().equals("X") && List.of("kernel", "gpu_memcpy", "gpu_memset").contains(cat)) {
                out.add(new Event(cat, e.path("name").asText(), e.path("args").path("device").asInt(),
                        e.path("ts").asDouble(), e.path("dur").asDouble()));
            }
        }
        return out;
    }

    @Test
    void theToolsAreListedWithTheirSchemas() {
        List<Tool> tools = client.listTools().tools();
        assertEquals(List.of("open", "report_sections", "top_kernels", "requests", "breakdowns", "diff", "sql"),
                tools.stream().map(Tool::name).toList());
        for (Tool t : tools) {
            assertTrue(t.description().contains("KiB"), t.name() + " says its caps: " + t.description());
            assertTrue(t.inputSchema().get("required") instanceof List<?> r && !r.isEmpty(), t.name() + " names its required arguments");
        }
        assertEquals("vprof", client.getServerInfo().name());
    }

    @Test
    void openCountsWhatTheTraceHolds() throws Exception {
        List<Event> events = gpuEvents(TEST);
        long kernels = events.stream().filter(e -> e.cat().equals("kernel")).count();
        JsonNode a = answer("open", Map.of("path", TEST.toString()));
        assertEquals(kernels, a.path("totals").path("kernels").asLong(), a.toString());
        assertEquals("a PyTorch profiler trace", a.path("kind").asText());
        assertFalse(a.path("read_health").path("read_partly").asBoolean(true), a.path("read_health").toString());
        assertEquals(1, a.path("processes").size(), "one rank in the trace");
        assertTrue(a.path("sections").toString().contains("cuda_gpu_kern_sum"));
    }

    @Test
    void topKernelsAndTheKernelSummaryAreTheTracesOwnTally() throws Exception {
        Map<String, long[]> byName = new HashMap<>(); // count, total ns
        for (Event e : gpuEvents(TEST)) {
            if (e.cat().equals("kernel")) {
                long[] c = byName.computeIfAbsent(e.name(), n -> new long[2]);
                c[0]++;
                c[1] += Math.round(e.dur() * 1000);
            }
        }
        String top = byName.entrySet().stream().max((x, y) -> Long.compare(x.getValue()[1], y.getValue()[1]))
                .orElseThrow().getKey();
        JsonNode a = answer("top_kernels", Map.of("path", TEST.toString(), "rows", 5));
        JsonNode first = a.path("top_kernels").get(0);
        assertEquals(top, first.path("name").asText(), a.toString());
        assertEquals(byName.get(top)[0], first.path("count").asLong());
        assertEquals((double) byName.get(top)[1], (double) first.path("total_ns").asLong(), 1000.0 * byName.get(top)[0]);
        assertEquals(5, a.path("top_kernels").size());

        JsonNode answer = answer("report_sections", Map.of("path", TEST.toString(), "sections",
                List.of("cuda_gpu_kern_sum"), "rows", 1000));
        JsonNode s = answer.path("sections").path("cuda_gpu_kern_sum");
        assertEquals(byName.size(), s.path("rows_total").asInt(), s.toString());
        JsonNode rows = s.path("rows");
        assertTrue(rows.size() > 0, s.toString());
        for (JsonNode row : rows) { // every row shown, under the trace's own full name
            long[] c = byName.get(row.path("name").asText());
            assertTrue(c != null, "not a kernel name of the trace: " + row.path("name").asText());
            assertEquals(c[0], row.path("count").asLong(), row.toString());
            assertEquals((double) c[1], (double) row.path("total").asLong(), 1000.0 * c[0], row.toString());
        }
        // The trace's 131 names, some over 1,500 characters, are more than 64 KiB of JSON: the rows
        // that did not fit are named, with the section's own total.
        if (rows.size() < byName.size()) {
            assertEquals(List.of("sections.cuda_gpu_kern_sum.rows: cut at " + rows.size() + " rows of " + byName.size()),
                    JSON.convertValue(answer.path("cut"), List.class), answer.path("cut").toString());
        }
        JsonNode twenty = answer("report_sections", Map.of("path", TEST.toString(), "sections",
                List.of("cuda_gpu_kern_sum"), "rows", 20)).path("sections").path("cuda_gpu_kern_sum").path("rows");
        assertEquals(20, twenty.size());
        for (JsonNode row : twenty) {
            assertTrue(byName.containsKey(row.path("name").asText()), row.path("name").asText());
        }
    }

    @Test
    void breakdownsSpanEachDeviceFromItsFirstWorkToItsLast() throws Exception {
        Map<Integer, double[]> span = new TreeMap<>(); // first ts, last ts + dur
        for (Event e : gpuEvents(TEST)) {
            double[] s = span.computeIfAbsent(e.device(), d -> new double[] {Double.MAX_VALUE, -Double.MAX_VALUE});
            s[0] = Math.min(s[0], e.ts());
            s[1] = Math.max(s[1], e.ts() + e.dur());
        }
        JsonNode a = answer("breakdowns", Map.of("path", TEST.toString()));
        JsonNode sections = a.path("sections");
        for (String name : Tools.BREAKDOWNS) {
            assertTrue(sections.has(name), name + ": " + a);
        }
        int rows = 0;
        for (JsonNode row : sections.path("breakdown").path("rows")) {
            if (!row.path("step").isNull()) {
                continue;
            }
            double[] s = span.get(row.path("device").asInt());
            long expected = Math.round((s[1] - s[0]) * 1000);
            assertTrue(Math.abs(expected - row.path("span_ns").asLong()) <= 1000, row.toString());
            assertEquals(row.path("span_ns").asLong(), row.path("idle_ns").asLong() + row.path("compute_ns").asLong()
                    + row.path("communication_ns").asLong() + row.path("memory_ns").asLong(), row.toString());
            rows++;
        }
        assertEquals(span.size(), rows, "a whole-capture row per device: " + sections.path("breakdown"));
        assertTrue(sections.path("launch_queue").path("rows").size() > 0, "the trace has runtime launches");
    }

    @Test
    void sqlAnswersAsSqliteDoesOnTheExport() throws Exception {
        Path db = dir.resolve("test.sqlite");
        Cli.Result exported = Cli.run("export", TEST.toString(), "-o", db.toString());
        assertEquals(0, exported.code(), exported.err());
        String q = "SELECT streamId, count(*) AS n, sum(\"end\" - start) AS ns FROM CUPTI_ACTIVITY_KIND_KERNEL "
                + "GROUP BY streamId ORDER BY streamId";
        Map<Long, List<Long>> expected = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(q)) {
            while (rs.next()) {
                expected.put(rs.getLong(1), List.of(rs.getLong(2), rs.getLong(3)));
            }
        }
        JsonNode a = answer("sql", Map.of("path", TEST.toString(), "query", q + ";"));
        assertEquals(List.of("streamId", "n", "ns"), JSON.convertValue(a.path("columns"), List.class));
        Map<Long, List<Long>> got = new LinkedHashMap<>();
        for (JsonNode row : a.path("rows")) {
            got.put(row.get(0).asLong(), List.of(row.get(1).asLong(), row.get(2).asLong()));
        }
        assertEquals(expected, got);
        assertFalse(a.has("cut"), a.toString());
    }

    @Test
    void anOversizedAnswerIsCutAndSaysSo() throws Exception {
        JsonNode a = answer("sql", Map.of("path", TEST.toString(), "query", "SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL",
                "rows", 1000));
        int shown = a.path("rows").size();
        assertTrue(shown > 0 && shown < 1000, "cut below the rows asked for to fit 64 KiB: " + shown);
        assertEquals(List.of("rows: cut at " + shown + " rows of 9876"), JSON.convertValue(a.path("cut"), List.class));
        assertEquals(9876, a.path("rows_total").asLong());

        long names = gpuEvents(TEST).stream().filter(e -> e.cat().equals("kernel")).map(Event::name).distinct().count();
        JsonNode t = answer("top_kernels", Map.of("path", TEST.toString(), "rows", 3));
        assertEquals(3, t.path("top_kernels").size());
        assertEquals(List.of("top_kernels: cut at 3 rows of " + names), JSON.convertValue(t.path("cut"), List.class),
                "a list cut at the rows asked for says so too, with the trace's count of kernel names");
    }

    @Test
    void diffComparesTheTwoTracesAsTheirOwnCountsSay() throws Exception {
        long base = gpuEvents(CONTROL).stream().filter(e -> e.cat().equals("kernel")).count();
        long next = gpuEvents(TEST).stream().filter(e -> e.cat().equals("kernel")).count();
        JsonNode a = answer("diff", Map.of("base", CONTROL.toString(), "new", TEST.toString()));
        assertEquals(base, a.path("base").path("kernels").asLong(), a.path("base").toString());
        assertEquals(next, a.path("new").path("kernels").asLong(), a.path("new").toString());
        // An A100 trace against a V100 one, 8 ranks against 2: not comparable, and the answer says why.
        assertEquals("NOT COMPARABLE", a.path("verdict").asText());
        assertTrue(a.path("headline").asText().contains("V100"), a.path("headline").asText());
        JsonNode same = answer("diff", Map.of("base", TEST.toString(), "new", TEST.toString()));
        assertEquals("NO CHANGE", same.path("verdict").asText(), same.path("headline").asText());
    }

    /** The kernel records of a capture, counted as they are read. */
    static final class KernelCount implements RecordVisitor {
        long kernels;

        @Override
        public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
            kernels++;
        }
    }

    @Test
    void theDemosCaptureAnswersWithItsKernelsAndRequests() throws Exception {
        KernelCount counted = new KernelCount();
        List<Span> requests = new ArrayList<>();
        try (CaptureReader reader = CaptureReader.open(demo)) {
            reader.forEachRecord(counted);
            for (Span s : reader.spans().spans()) {
                if (s.name().equals("llm_request")) {
                    requests.add(s);
                }
            }
        }
        assertTrue(counted.kernels > 0 && !requests.isEmpty(),
                counted.kernels + " kernels, " + requests.size() + " requests");
        JsonNode open = answer("open", Map.of("path", demo.toString()));
        assertEquals(counted.kernels, open.path("totals").path("kernels").asLong(), open.path("totals").toString());
        assertEquals(requests.size(), open.path("requests").asInt());
        assertEquals(2, open.path("processes").size(), "the demo's two GPU workers");

        JsonNode r = answer("requests", Map.of("path", demo.toString(), "rows", 1000));
        assertEquals(requests.size(), r.path("requests").size(), "every request, under the rows asked for");
        long slowest = requests.stream().mapToLong(Span::durationNs).max().orElseThrow();
        assertEquals((double) slowest, (double) r.path("slowest_requests").get(0).path("e2e_ns").asLong(), (double) slowest / 100.0,
                "the slowest request first: " + r.path("slowest_requests").get(0));
        assertTrue(r.path("queue").isObject() && r.path("slow_phase_kernels").isObject(), r.toString());

        JsonNode b = answer("breakdowns", Map.of("path", demo.toString()));
        JsonNode phases = b.path("sections").path("phases").path("rows");
        assertTrue(phases.size() > 0, "the demo's requests give phase rows: " + b);

        JsonNode w = answer("top_kernels", Map.of("path", demo.toString(), "window", "0s..1s"));
        assertEquals("window", w.path("window").path("source").asText(), w.path("window").toString());
        assertTrue(w.path("kernels").asLong() < counted.kernels, "a window holds part of the kernels: " + w);

        Span slow = requests.stream().max((x, y) -> Long.compare(x.durationNs(), y.durationNs())).orElseThrow();
        String id = slow.attribute(RequestPhases.ATTR_REQUEST_ID).asText();
        JsonNode q = answer("top_kernels", Map.of("path", demo.toString(), "request", id));
        assertEquals("request", q.path("window").path("source").asText(), q.path("window").toString());
        assertEquals(slow.startEpochNs(), q.path("window").path("start_ns").asLong(), q.path("window").toString());
        assertEquals(slow.endEpochNs(), q.path("window").path("end_ns").asLong(), q.path("window").toString());
        assertTrue(q.path("kernels").asLong() > 0 && q.path("kernels").asLong() < counted.kernels,
                "the slowest request holds part of the kernels: " + q.path("kernels"));
    }

    @Test
    void aBadPathADamagedFileAndARefusedQueryAreOneSentenceEach() throws Exception {
        String missing = refused("open", Map.of("path", dir.resolve("no-such.vprof").toString()));
        assertTrue(missing.contains("no-such.vprof") && missing.contains("does not exist"), missing);

        Path cut = dir.resolve("cut.json.gz");
        byte[] whole = Files.readAllBytes(TEST);
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2));
        String damaged = refused("breakdowns", Map.of("path", cut.toString()));
        assertTrue(damaged.contains("cut.json.gz") && damaged.contains("cut short"), damaged);

        Path garbage = dir.resolve("garbage.vprof");
        Files.writeString(garbage, "not a capture at all\n".repeat(100));
        assertTrue(refused("report_sections", Map.of("path", garbage.toString(), "sections", List.of("breakdown")))
                .contains("garbage.vprof"));

        assertTrue(refused("sql", Map.of("path", TEST.toString(), "query", "DELETE FROM StringIds"))
                .contains("SELECT"));
        assertTrue(refused("sql", Map.of("path", TEST.toString(), "query", "SELECT 1; DROP TABLE StringIds"))
                .contains("one"));
        assertTrue(refused("sql", Map.of("path", TEST.toString(), "query", "SELECT * FROM no_such_table"))
                .contains("no_such_table"));
        assertTrue(refused("report_sections", Map.of("path", TEST.toString(), "sections", List.of("nope")))
                .contains("not a section"));
        assertTrue(refused("top_kernels", Map.of("path", TEST.toString(), "window", "5s..1s")).contains("window"));
        assertTrue(refused("open", Map.of("path", "x".repeat(Args.MAX_TEXT + 1))).contains("at most"));
        // vprof's own bound answers (the schema states it too, for the assistant): one sentence with the range.
        assertTrue(refused("open", Map.of("path", TEST.toString(), "rows", 0)).contains("from 1 to " + Bounded.MAX_ROWS));
        assertTrue(refused("open", Map.of("path", TEST.toString(), "rows", "ten")).contains("rows"));
        assertTrue(refused("top_kernels", Map.of("path", TEST.toString(), "rowz", 5)).contains("rowz"));
        assertTrue(refused("top_kernels", Map.of("path", demo.toString(), "request", "no-such-request"))
                .contains("no request no-such-request"));
    }

    /**
     * A client that writes its calls and closes stdin at once ({@code printf ... | vprof mcp}) gets every
     * answer, then the server exits 0; stdout holds those JSON-RPC answers and nothing else.
     */
    @Test
    void callsSentBeforeStdinClosesAreAnsweredThenTheServerExits() throws Exception {
        String query = "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL";
        List<Map<String, Object>> session = List.of(
                Map.of("jsonrpc", "2.0", "id", 1, "method", "initialize", "params", Map.of("protocolVersion",
                        "2025-06-18", "capabilities", Map.of(), "clientInfo", Map.of("name", "test", "version", "1"))),
                Map.of("jsonrpc", "2.0", "method", "notifications/initialized"),
                Map.of("jsonrpc", "2.0", "id", 2, "method", "tools/call", "params",
                        Map.of("name", "sql", "arguments", Map.of("path", TEST.toString(), "query", query))));
        Path in = dir.resolve("session.jsonl");
        StringBuilder lines = new StringBuilder();
        for (Map<String, Object> m : session) {
            lines.append(JSON.writeValueAsString(m)).append('\n');
        }
        Files.writeString(in, lines);
        Path out = dir.resolve("session.out");
        Path err = dir.resolve("session.err");
        Process p = new ProcessBuilder(serverCommand()).redirectInput(in.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the server stops when its input ends");
        assertEquals(0, p.exitValue(), Files.readString(err));
        Map<Integer, JsonNode> answers = new TreeMap<>();
        for (String line : Files.readAllLines(out)) {
            JsonNode m = JSON.readTree(line); // every line of stdout is a JSON-RPC message
            assertEquals("2.0", m.path("jsonrpc").asText(), line);
            answers.put(m.path("id").asInt(), m);
        }
        assertEquals(List.of(1, 2), List.copyOf(answers.keySet()), "an answer to each call: " + answers);
        String text = answers.get(2).path("result").path("content").get(0).path("text").asText();
        assertEquals(9876, JSON.readTree(text).path("rows").get(0).get(0).asLong(), text);
        assertEquals("", Files.readString(err), "nothing on stderr");
    }

    @Test
    void theServerWritesNoWarningToStderr() throws Exception {
        answer("open", Map.of("path", TEST.toString(), "rows", 1));
        for (String line : serverErr) {
            assertFalse(line.contains("SLF4J") || line.contains("WARN") || line.contains("Exception"),
                    "stderr: " + line);
        }
    }
}
