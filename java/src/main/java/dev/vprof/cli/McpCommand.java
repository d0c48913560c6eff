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
        description = {"An MCP server (JSON-RPC over stdio) that the assistant starts itself: it reads "
                + "JSON-RPC lines on stdin and answers on stdout, and writes nothing else there (notes go to "
                + "stderr). Tools: " + "open, report_sections, top_kernels, requests, breakdowns, diff and sql "
                + "(read-only SELECT over the SQLite export); each takes the path of a .vprof capture, a PyTorch "
                + "profiler trace, a folder of rank traces or an Nsight Systems export. Every answer is JSON cut "
                + "at a number of rows and at 64 KiB, and says where it was cut; a bad path or a damaged file is "
                + "a tool error of one sentence, and the server keeps serving. It stops when stdin ends. The "
                + "tools, their arguments and caps: docs/mcp.md.",
                "",
                "To wire it into an assistant, give it the command line to start: in Claude Code, "
                + "`claude mcp add vprof -- vprof mcp`; in a JSON config (Claude Desktop, Cursor, VS Code), "
                + "{\"mcpServers\": {\"vprof\": {\"command\": \"vprof\", \"args\": [\"mcp\"]}}} with the full "
                + "path of vprof as command when it is not on the assistant's PATH."},
        footer = {"", "Examples:",
                "  vprof mcp                                  # started by the assistant, not by hand",
                "  claude mcp add vprof -- vprof mcp          # Claude Code: add the server once",
                "  printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"sh\",\"version\":\"1\"}}}' | vprof mcp"})
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
