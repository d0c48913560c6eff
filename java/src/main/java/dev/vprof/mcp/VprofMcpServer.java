package dev.vprof.mcp;

import dev.vprof.VprofVersion;
import dev.vprof.diff.DiffException;
import dev.vprof.source.CaptureSources;
import dev.vprof.analysis.AnalysisText;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code vprof mcp}'s server: the SDK's stdio transport, reading JSON-RPC lines from {@code in} and
 * writing them, and nothing else, to {@code out}; the tools of {@link Tools}, one call at a time (an
 * analysis holds its input's aggregates; two at once would double that). Every failure of a call is a
 * tool error of one sentence; the server keeps serving until {@code in} ends.
 */
public final class VprofMcpServer {
    private VprofMcpServer() {}

    /** The longest JSON-RPC message read, in bytes: a call's arguments are bounded far below it. */
    static final int MAX_MESSAGE = 1 << 20;
    /** How long one call may take before the client is answered with a timeout. */
    static final Duration CALL_TIMEOUT = Duration.ofMinutes(10);

    /** Rows a list of an answer holds unless the call asks for another number ({@code vprof mcp --help} says it). */
    public static final int DEFAULT_ROWS = Bounded.DEFAULT_ROWS;
    /** The most rows a call may ask for. */
    public static final int MAX_ROWS = Bounded.MAX_ROWS;
    /** The most KiB of JSON one answer holds. */
    public static final int MAX_KIB = Bounded.MAX_BYTES / 1024;
    /** The longest path or text argument, in characters. */
    public static final int MAX_TEXT = Args.MAX_TEXT;
    /** The longest SQL query, in characters. */
    public static final int MAX_QUERY = Args.MAX_QUERY;
    /** Seconds an SQL query may run. */
    public static final int SQL_TIMEOUT_S = SqlExport.TIMEOUT_S;

    /** The tools' names, in the order they are listed. */
    public static final List<String> TOOLS = List.of("open", "report_sections", "top_kernels", "requests",
            "breakdowns", "diff", "sql");

    /** Serves on {@code in} and {@code out} until {@code in} ends (the client closed it), then stops. */
    public static void serve(InputStream in, OutputStream out) throws InterruptedException {
        CountDownLatch ended = new CountDownLatch(1);
        InFlight calls = new InFlight();
        InputStream watched = new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                return ended(super.read());
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    return ended(super.read(b, off, len));
                } catch (IOException e) {
                    ended.countDown();
                    throw e;
                }
            }

            private int ended(int n) {
                if (n < 0) {
                    try {
                        calls.drain(); // the calls sent before the end are answered first
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    ended.countDown();
                }
                return n;
            }
        };
        try (Tools tools = new Tools()) {
            McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(McpJsonDefaults.getMapper(), watched, out, MAX_MESSAGE))
                    .serverInfo("vprof", VprofVersion.get())
                    .instructions("vprof reads GPU profiles of LLM inference servers: .vprof captures, PyTorch "
                            + "profiler traces (or a folder of rank traces) and Nsight Systems SQLite exports. Start "
                            + "with open on a path; every answer is JSON, cut in rows and bytes, and its cut field "
                            + "says where it was cut.")
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                    .requestTimeout(CALL_TIMEOUT)
                    // The schemas tell the assistant each argument's type and bounds; Args checks them
                    // all, and its refusal is one sentence naming the bound. The SDK's own check would
                    // answer first, in a validator's list of JSON pointers.
                    .validateToolInputs(false)
                    .tools(specifications(tools, calls))
                    .build();
            ended.await();
            server.closeGracefully();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    interface Call {
        String answer(Args a) throws IOException;
    }

    static List<SyncToolSpecification> specifications(Tools tools, InFlight calls) {
        Map<String, Object> path = prop("string", "a .vprof capture, a PyTorch profiler trace (.json, .json.gz), a "
                + "folder of rank traces, or an Nsight Systems SQLite export; at most " + Args.MAX_TEXT + " characters");
        Map<String, Object> rows = Map.of("type", "integer", "minimum", 1, "maximum", Bounded.MAX_ROWS,
                "description", "rows a list holds at most (default " + Bounded.DEFAULT_ROWS + ")");
        String caps = " Lists are cut at rows (default " + Bounded.DEFAULT_ROWS + ", at most " + Bounded.MAX_ROWS
                + ") and the answer at " + Bounded.MAX_BYTES / 1024 + " KiB; its cut field says what was cut.";
        List<SyncToolSpecification> specs = new ArrayList<>();
        specs.add(tool(tools, calls, "open", "What the input is and holds: its kind, processes (pid, rank, command, "
                + "kernels, copies), totals, the capture window, the verdict, how many requests and steps, the top "
                + "kernels, and its read health (what was lost, if anything)." + caps,
                props("path", path, "rows", rows), List.of("path"), tools::open));
        specs.add(tool(tools, calls, "report_sections", "The analyses of the whole input that vprof report --section "
                + "gives, as JSON (docs/report-json.md): " + String.join(", ", AnalysisText.sections())
                + "." + caps,
                props("path", path, "sections", Map.of("type", "array", "items", Map.of("type", "string"),
                        "maxItems", Args.MAX_LIST, "description", "section names"), "rows", rows),
                List.of("path", "sections"), tools::sections));
        specs.add(tool(tools, calls, "top_kernels", "The top kernels by total GPU time (name, count, total, mean, max), "
                + "over the input or only the GPU work that starts in a window A..B from the capture's start "
                + "(10s..20s, 500ms.., ..2s) or inside one request." + caps,
                props("path", path, "window", prop("string", "A..B, durations from the capture's start"),
                        "request", prop("string", "a request_id (requests lists them): only the GPU work "
                                + "that starts inside that request; not with window"),
                        "rows", rows), List.of("path"), tools::topKernels));
        specs.add(tool(tools, calls, "requests", "The requests (llm_request spans): per request its queue, prefill and "
                + "decode times and the GPU time inside each, the slowest first, the latencies, the queue facts "
                + "and the top kernels inside the slowest requests' phases." + caps,
                props("path", path, "rows", rows), List.of("path"), tools::requests));
        specs.add(tool(tools, calls, "breakdowns", "Where the GPU's time went: idle, compute, communication and memory "
                + "per rank and GPU over the capture and per step, inside the slowest requests' prefill and "
                + "decode, rank imbalance per step, stragglers at collectives, and the launch-to-start delay per "
                + "stream (sections " + String.join(", ", Tools.BREAKDOWNS) + ")." + caps,
                props("path", path, "rows", rows), List.of("path"), tools::breakdowns));
        specs.add(tool(tools, calls, "diff", "Compares two inputs as vprof diff --json does (docs/diff.md): the verdict "
                + "(REGRESSED, IMPROVED, NO CHANGE, NOT COMPARABLE), what explains it, and kernels by change." + caps,
                props("base", prop("string", "the baseline capture or trace"),
                        "new", prop("string", "the capture or trace to compare with it"), "rows", rows),
                List.of("base", "new"), tools::diff));
        specs.add(tool(tools, calls, "sql", "One read-only SELECT (or WITH) statement over the input's SQLite export, "
                + "the one vprof export -o OUT.sqlite writes (Nsight Systems' tables, e.g. "
                + "CUPTI_ACTIVITY_KIND_KERNEL, StringIds; docs/sqlite.md). At most " + Args.MAX_QUERY
                + " characters; stopped after " + SqlExport.TIMEOUT_S + " s." + caps,
                props("path", path, "query", prop("string", "one SELECT or WITH statement"), "rows", rows),
                List.of("path", "query"), tools::sql));
        return specs;
    }

    private static SyncToolSpecification tool(Tools tools, InFlight calls, String name, String description,
                                              Map<String, Object> props, List<String> required, Call call) {
        Tool tool = Tool.builder(name, Tools.schema(props, required)).description(description)
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            calls.begin(); // before the lock: a call waiting for another counts as running
            try {
                synchronized (tools) {
                    return answer(name, props.keySet(), request.arguments(), call);
                }
            } finally {
                calls.end();
            }
        }).build();
    }

    /** One call's answer, or its failure as one sentence with {@code isError}. */
    static CallToolResult answer(String name, Set<String> known, Map<String, Object> arguments, Call call) {
        String text;
        boolean error = false;
        try {
            text = call.answer(new Args(name, known, arguments));
        } catch (ToolFailure | DiffException e) {
            text = e.getMessage();
            error = true;
        } catch (IOException e) {
            text = CaptureSources.whyNot(null, e);
            error = true;
        } catch (UncheckedIOException e) {
            text = CaptureSources.whyNot(null, e.getCause());
            error = true;
        } catch (RuntimeException e) {
            text = name + " could not answer: " + (e.getMessage() == null ? e.getClass().getSimpleName()
                    : e.getMessage());
            error = true;
        }
        return CallToolResult.builder().addTextContent(error ? sentence(text) : text).isError(error).build();
    }

    /** {@code s} as one line ending in a full stop. */
    static String sentence(String s) {
        String line = s.replaceAll("\\s+", " ").strip();
        return line.endsWith(".") ? line : line + ".";
    }

    private static Map<String, Object> prop(String type, String description) {
        return Map.of("type", type, "description", description);
    }

    private static Map<String, Object> props(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
