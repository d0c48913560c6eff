package dev.vprof.cli;

import dev.vprof.capture.CaptureFormatException;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ReadStats;
import dev.vprof.merge.OffsetEstimate;
import dev.vprof.merge.RunMerge;
import dev.vprof.output.OutputTakenException;
import dev.vprof.source.CaptureSources;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "merge", mixinStandardHelpOptions = true,
        header = "Merge the captures of one run's nodes into one archive that Perfetto opens as one timeline.",
        description = {"Writes a tar archive with a perfetto_manifest.json (one named machine per node) and one "
                + ".pftrace per capture, named for its node and the ranks it holds (<host>[_dp<d>]_ranks0-1). "
                + "The first capture is the "
                + "reference clock; every other node is placed on it by the offset measured from the collectives "
                + "(NCCL all-reduce, all-gather, vLLM's custom all-reduce) both captured, whose ends are "
                + "near-simultaneous on every rank, with the residual stated. Where no collectives match, the wall "
                + "clocks are taken as they are and the NTP bound (adjtimex's maximum error) is stated; so it is where "
                + "the best fit's residual is above 100 µs rms. Captures that do not look like one run (windows that "
                + "do not overlap, different run ids or world sizes, a node or rank given twice) are refused unless "
                + "--force. See docs/multinode.md."},
        footer = {"", "Examples:",
                "  vprof merge node0.vprof node1.vprof -o run.tar      # open run.tar at https://ui.perfetto.dev",
                "  vprof merge a.vprof b.vprof -o ab.tar --force       # merge even what does not look like one run"})
final class MergeCommand extends VprofCommand {
    MergeCommand() {
        super(ExitCode.OK, ExitCode.CANNOT, ExitCode.READ_PARTLY);
    }

    @Parameters(paramLabel = "CAPTURE", arity = "2..*", description = "the nodes' .vprof captures (the first is the reference)")
    List<Path> captures = new ArrayList<>();

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "RUN.tar", description = "the archive to write")
    Path out;

    @Option(names = "--force", description = "replace the archive if it exists, and merge captures that do not look "
            + "like one run (the reasons are printed and kept in the manifest)")
    boolean force;

    @Option(names = "--accept-loss",
            description = "merge even when a capture was read only partly (damaged, cut short, never closed): the "
                    + "archive holds what could be read, the loss is still printed and the exit code is still 3")
    boolean acceptLoss;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        OutputPath.refuseInput(out, captures, "merge");
        OutputPath.refuseExisting(out, force, "archive");
        for (Path c : captures) {
            CaptureOpenError.kindOf(c, "give the .vprof capture of each node");
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
            throw new CliException("cannot write " + out + ": its folder is missing or not writable; choose another path with -o");
        }
        List<ReadStats> health = readHealth();
        if (!acceptLoss && ReadHealth.exit(health) == ExitCode.READ_PARTLY) {
            lossLines(err, health, "no archive was written (a node read partly would be merged as if whole); pass "
                    + "--accept-loss to merge what could be read");
            err.flush();
            return ExitCode.READ_PARTLY.code();
        }
        RunMerge.Result r;
        try {
            r = RunMerge.merge(captures, out, force);
        } catch (OutputTakenException e) {
            throw OutputPath.taken(out, "-o");
        } catch (RunMerge.NotOneRun e) {
            throw new CliException(e.getMessage());
        } catch (CaptureFormatException e) {
            throw CaptureOpenError.of(null, e, null);
        } catch (NoSuchFileException e) {
            throw CaptureOpenError.of(null, e, "give the .vprof capture of each node");
        } catch (IOException e) {
            throw new CliException("cannot merge into " + out + ": " + e.getMessage(), e);
        }
        stdout.println("run " + r.runId() + ": " + r.nodes().size() + " nodes");
        for (RunMerge.Node n : r.nodes()) {
            String procs = n.capture().processes().size() + (n.capture().processes().size() == 1 ? " process" : " processes");
            stdout.println("  " + RunMerge.shown(n.machine()) + " (" + n.capture().path().getFileName() + " -> " + n.file() + ", " + procs
                    + ", " + n.capture().collectiveCount() + " collectives, " + n.capture().timeSyncWords() + "): "
                    + n.estimate().describe());
            if (n.estimate().method().equals(OffsetEstimate.COLLECTIVES)) {
                stdout.println("    measured on pid " + n.referencePid() + " (reference) and pid " + n.pid()
                        + "; this node's times are moved by " + -n.estimate().offsetNs() + " ns");
            }
            n.estimate().notes().forEach(x -> stdout.println("    note: " + x));
        }
        r.forced().forEach(w -> ReadHealth.warn(err, "merged with --force although " + w));
        r.warnings().forEach(w -> ReadHealth.warn(err, w));
        stdout.println("wrote " + out + ": " + RunMerge.MANIFEST + " and " + r.nodes().size() + " Perfetto traces");
        stdout.println("open https://ui.perfetto.dev and drag " + out + " in; trace_processor_shell " + out
                + " opens it merged too");
        stdout.flush();
        boolean partly = lossLines(err, health, "the archive holds what could be read (--accept-loss)");
        err.flush();
        return partly ? ExitCode.READ_PARTLY.code() : ExitCode.OK.code();
    }

    /**
     * Every capture opened as the merge will open it, its checksums checked: how each was read,
     * judged before anything is written. What the readers noted is printed here, once.
     */
    private List<ReadStats> readHealth() {
        PrintWriter err = spec.commandLine().getErr();
        List<ReadStats> out = new ArrayList<>();
        for (Path c : captures) {
            try (CaptureReader reader = CaptureSources.open(c)) {
                reader.verify();
                out.add(reader.readStats());
                ReadHealth.warnings(err, reader.readStats());
            } catch (IOException e) {
                throw CaptureOpenError.of(c, e, "give the .vprof capture of each node");
            }
        }
        return out;
    }

    /** The line of each capture read partly ({@code vprof merge: the capture of node N, ...}); true when any. */
    private static boolean lossLines(PrintWriter err, List<ReadStats> health, String whatFollows) {
        boolean any = false;
        for (int i = 0; i < health.size(); i++) {
            String line = ReadHealth.side("merge", "capture of node " + i + (i == 0 ? " (the reference)" : ""),
                    health.get(i), whatFollows);
            if (line != null) {
                err.println(line);
                any = true;
            }
        }
        return any;
    }
}
