package dev.vprof.engine;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a capture saw, for the closing lines and for tests.
 *
 * @param stopReason why it stopped early ({@code duration}, {@code signal}, a caller's reason), or
 *                   null when it ended by itself (the command exited, every range ended)
 * @param hints      loud lines about what the user likely missed (a capture range that never opened)
 * @param failedAgents agents found FAILED, each named with its reason as it was found
 * @param folded     where records folded into the file came from (PyTorch traces), counted in the
 *                   processes, kernels and records; null when none were
 */
public record CaptureSummary(int processes, long ranges, long kernels, long records, long ringDrops,
                             long ringDropsKernels, long cuptiDrops, String stopReason, CaptureFeeds.Counts feeds,
                             List<String> feedLines, List<String> agentWarnings, List<String> hints,
                             int failedAgents, String endLine, String folded) {
    public CaptureSummary {
        feedLines = List.copyOf(feedLines);
        agentWarnings = List.copyOf(agentWarnings);
        hints = List.copyOf(hints);
    }

    /** A summary without the last line that says why the capture ended. */
    public CaptureSummary(int processes, long ranges, long kernels, long records, long ringDrops,
                          long ringDropsKernels, long cuptiDrops, String stopReason, CaptureFeeds.Counts feeds,
                          List<String> feedLines, List<String> agentWarnings, List<String> hints, int failedAgents) {
        this(processes, ranges, kernels, records, ringDrops, ringDropsKernels, cuptiDrops, stopReason, feeds, feedLines,
                agentWarnings, hints, failedAgents, null, null);
    }

    /** This summary with {@code line} as its last line (why the capture ended). */
    public CaptureSummary ended(String line) {
        return new CaptureSummary(processes, ranges, kernels, records, ringDrops, ringDropsKernels, cuptiDrops,
                stopReason, feeds, feedLines, agentWarnings, hints, failedAgents, line, folded);
    }

    /** A summary without agent warnings, hints or FAILED agents. */
    public CaptureSummary(int processes, long ranges, long kernels, long records, long ringDrops, long ringDropsKernels,
                          long cuptiDrops, String stopReason, CaptureFeeds.Counts feeds, List<String> feedLines) {
        this(processes, ranges, kernels, records, ringDrops, ringDropsKernels, cuptiDrops, stopReason, feeds, feedLines,
                List.of(), List.of(), 0);
    }

    /**
     * The closing summary as one JSON object's fields ({@code --json}): every count an integer,
     * what the closing lines say in words kept as strings.
     */
    public Map<String, Object> asJson(String file) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", file);
        m.put("processes", processes);
        m.put("ranges", ranges);
        m.put("kernels", kernels);
        m.put("records", records);
        m.put("ring_drops", ringDrops);
        m.put("ring_drops_kernels", ringDropsKernels);
        m.put("cupti_drops", cuptiDrops);
        m.put("failed_agents", failedAgents);
        m.put("stop_reason", stopReason);
        m.put("feeds", feeds == null ? CaptureFeeds.Counts.NONE.asMap() : feeds.asMap());
        m.put("feed_lines", feedLines);
        m.put("agent_warnings", agentWarnings);
        m.put("hints", hints);
        m.put("end", endLine);
        m.put("folded", folded);
        return m;
    }

    /** The closing lines; loud when anything was lost. */
    public void print(PrintWriter err, String file) {
        err.printf("vprof: wrote %s: %d process%s, %d range%s, %d kernels, %d records%s; %d ring drops, %d CUPTI drops%n",
                file, processes, processes == 1 ? "" : "es", ranges, ranges == 1 ? "" : "s",
                kernels, records, folded == null ? "" : " (" + folded + ")", ringDrops, cuptiDrops);
        feedLines.forEach(err::println);
        hints.forEach(err::println);
        if (ringDrops > 0) {
            err.printf("vprof: warning: %d records (%d kernels) were DROPPED because a ring was full; "
                    + "use a larger --ring-size%n", ringDrops, ringDropsKernels);
        }
        if (cuptiDrops > 0) {
            err.printf("vprof: warning: CUPTI DROPPED %d records (no free buffer); use a larger --buffer-size%n",
                    cuptiDrops);
        }
        for (String w : agentWarnings) { // what CUPTI did to the capture, named (docs/cupti.md)
            err.println("vprof: warning: " + w + "; `vprof report " + file + "` says more");
        }
        if (endLine != null) {
            err.println(endLine);
        }
        err.flush();
    }
}
