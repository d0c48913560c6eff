package dev.vprof.engine;

/**
 * What a caller started before its capture, handed to {@link Capture#start} beside the plan: the
 * live things a {@link CapturePlan} only describes. The caller owns the command (it waits for it,
 * ends it); the capture owns the feeds from {@link Capture#start} on and closes them, whether it
 * starts or fails to.
 *
 * @param command RUN: the command started with the agent (its exit ends the capture; its pid is the
 *                plan's root pid); null otherwise
 * @param feeds   spans received or imported, opened before anything else (so that a port in use or
 *                a bad {@code --spans} file is reported first); {@link CaptureFeeds#none()} for none
 * @param output  where the capture goes when it is not the plan's one file ({@code vprof watch}'s
 *                rolling segments, made once the agents are armed); null for the plan's file
 */
public record Started(Process command, CaptureFeeds feeds, CaptureOutput.Factory output) {
    public Started {
        feeds = feeds == null ? CaptureFeeds.none() : feeds;
    }

    /** Nothing started: no command, no feeds opened. */
    public static Started nothing() {
        return new Started(null, null, null);
    }

    /** ATTACH, FEEDS: the feeds opened for the capture. */
    public static Started feeds(CaptureFeeds feeds) {
        return new Started(null, feeds, null);
    }

    /** RUN: the command started with the agent, and the feeds opened before it. */
    public static Started command(Process command, CaptureFeeds feeds) {
        return new Started(command, feeds, null);
    }

    /** The same, writing into {@code output} instead of the plan's file. */
    public Started writingTo(CaptureOutput.Factory output) {
        return new Started(command, feeds, output);
    }

    /** Throws {@link IllegalArgumentException} when these do not go with {@code plan}. */
    void check(CapturePlan plan) {
        if (plan.mode() == CapturePlan.Mode.RUN) {
            if (command == null) {
                throw new IllegalArgumentException("a RUN capture needs the command it started");
            }
            if (command.pid() != plan.rootPid()) {
                throw new IllegalArgumentException("a RUN capture's root pid is its command's: " + command.pid()
                        + ", not " + plan.rootPid());
            }
        }
    }
}
