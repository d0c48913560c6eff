package dev.vprof.cli;

import dev.vprof.mcp.VprofMcpServer;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** `vprof mcp`: the analyses as Model Context Protocol tools, over stdio, for an AI assistant. */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        header = "Serve vprof's analyses to an AI assistant as Model Context Protocol tools, over stdin and stdout.",
        description = {"An MCP server (JSON-RPC over stdio) that the assistant starts itself: it reads JSON-RPC "
                + "lines on stdin and answers on stdout, and writes nothing else there (notes go to stderr). It "
                + "stops when stdin ends. You do not run it by hand: you give the assistant its command line.",
                "",
                "The command line an assistant's config runs: vprof mcp (with the full path of vprof when the "
                + "assistant's PATH lacks it). Claude Code: claude mcp add vprof -- /opt/vprof/vprof mcp. "
                + "A JSON config (Claude Desktop, Cursor, VS Code): {\"mcpServers\": {\"vprof\": {\"command\": "
                + "\"/opt/vprof/vprof\", \"args\": [\"mcp\"]}}}.",
                "",
                "The tools (each PATH a .vprof capture, a PyTorch profiler trace, a folder of rank traces or an "
                + "Nsight Systems SQLite export; every tool also takes rows):",
                "  open PATH: what it is and holds, the verdict, its read health",
                "  report_sections PATH SECTIONS: report --section's analyses, as JSON",
                "  top_kernels PATH [window A..B | request ID]: the top kernels by GPU time",
                "  requests PATH: each request's phases and the GPU time in them",
                "  breakdowns PATH: idle/compute/communication/memory, phases, ranks",
                "  diff BASE NEW: vprof diff's verdict and the kernels by change",
                "  sql PATH QUERY: one read-only SELECT over the input's SQLite export",
                "",
                "Caps: every list in an answer at most rows entries (default " + VprofMcpServer.DEFAULT_ROWS
                + ", at most " + VprofMcpServer.MAX_ROWS + "), every answer at most " + VprofMcpServer.MAX_KIB
                + " KiB of JSON, and its cut field names each list cut (\"top_kernels: cut at 10 rows of 240\"). "
                + "Paths at most " + VprofMcpServer.MAX_TEXT + " characters, a query " + VprofMcpServer.MAX_QUERY
                + "; a query runs on a read-only connection and stops after " + VprofMcpServer.SQL_TIMEOUT_S
                + " s. One call at a time. A bad path, a damaged file or a wrong argument is a tool error of one "
                + "sentence, and the server keeps serving. Every argument and cap: docs/mcp.md."},
        footer = {"", "Examples:",
                "  claude mcp add vprof -- vprof mcp          # Claude Code: add the server once; it starts it",
                "  printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"sh\",\"version\":\"1\"}}}' | vprof mcp   # one handshake by hand: the server's answer, then it stops"})
public final class McpCommand implements Callable<Integer>, ExitCode.Returns {
    @Override
    public List<ExitCode> exitCodes() {
        return List.of(ExitCode.OK, ExitCode.INTERRUPTED);
    }

    @Override
    public Integer call() {
        // stdout carries JSON-RPC alone: the transport gets the real stdout, and anything else that
        // prints to System.out (a library, a note) goes to stderr instead.
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        try {
            VprofMcpServer.serve(new FileInputStream(FileDescriptor.in), stdout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.INTERRUPTED.code();
        }
        return ExitCode.OK.code();
    }
}
