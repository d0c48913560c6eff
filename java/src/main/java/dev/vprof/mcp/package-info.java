/**
 * {@code vprof mcp}: the analyses behind the Model Context Protocol's official Java SDK, over stdio, so
 * an engineer's AI assistant can ask a capture or a trace questions. Each tool ({@link Tools}) reads
 * its input through the same sniffer and reader as {@code vprof report} ({@code source.CaptureSources}),
 * the same aggregation pass and the same JSON sinks ({@code report.ReportJson},
 * {@code analysis.AnalysisJson}, {@code diff.DiffJson}, the SQLite export); it adds only bounds: every
 * answer is cut in rows and in bytes and says where it was cut ({@link Bounded}), every argument is
 * checked and bounded ({@link Args}), and every failure is one sentence returned as a tool error
 * ({@link ToolFailure}) after which the server keeps serving. docs/mcp.md lists the tools.
 */
package dev.vprof.mcp;
