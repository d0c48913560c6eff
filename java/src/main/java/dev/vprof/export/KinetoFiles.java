package dev.vprof.export;

import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.ThreadSlices;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The Kineto export: one file per process (HTA reads one file per rank), each with its own rank
 * ({@link KinetoRanks}) and, when asked, its steps ({@link ProfilerSteps}). With one process the file
 * is {@code OUT} itself; with several, {@code OUT-pidPID.json} beside it.
 */
public final class KinetoFiles {
    private KinetoFiles() {}

    /** One file written: the process it holds, its rank, its steps and GPU ops. */
    public record File(Path path, TimelineProcess process, KinetoRanks.Rank rank, int steps, long gpuOps) {
        /** "pid 4118 (vprof-simgpu), rank 0 of 2 (from RANK), 8400 GPU ops, 200 steps". */
        public String summary(boolean stepsAsked) {
            String name = process.name().isEmpty() ? "" : " (" + process.name() + ")";
            return String.format(Locale.ROOT, "pid %d%s, rank %d of %d (%s), %d GPU ops%s", process.pid(), name,
                    rank.rank(), rank.worldSize(), rank.source().description(), gpuOps,
                    stepsAsked ? ", " + steps + " steps" : "");
        }
    }

    /** What the export wrote, and what a user should know about it. */
    public record Result(List<File> files, List<String> notes) {
        public List<Path> paths() {
            return files.stream().map(File::path).toList();
        }
    }

    /**
     * Writes the Kineto files of {@code timeline}. {@code steps}, when not null, names the NVTX range
     * that marks a step. Throws IllegalArgumentException, writing nothing, when there is no process,
     * when no process has that range, or when a process with steps has no CUDA API calls: HTA keeps
     * only the GPU ops it can tie to a launch once a trace has steps, so that file would read as
     * empty.
     */
    public static Result write(Timeline timeline, Path out, ProfilerSteps.Spec steps) throws IOException {
        List<TimelineProcess> processes = timeline.processes();
        if (processes.isEmpty()) {
            throw new IllegalArgumentException("nothing to export as Kineto JSON: the capture has no process with GPU or API records");
        }
        List<String> notes = new ArrayList<>();
        KinetoRanks ranks = KinetoRanks.assign(processes);
        notes.addAll(ranks.notes());
        Map<Integer, List<ProfilerSteps.Step>> stepsOf = new HashMap<>();
        for (TimelineProcess p : processes) {
            stepsOf.put(p.pid(), steps == null ? List.of() : ProfilerSteps.of(timeline, p, steps));
        }
        if (steps != null) {
            checkSteps(timeline, processes, stepsOf, steps, notes);
        }
        List<File> written = new ArrayList<>();
        for (TimelineProcess p : processes) {
            Path file = processes.size() == 1 ? out : Exporter.perProcess(out, p.pid());
            String traceName = file.getFileName().toString();
            KinetoRanks.Rank rank = ranks.of(p.pid());
            List<ProfilerSteps.Step> own = stepsOf.get(p.pid());
            Exporter.writeAtomically(file, s -> new KinetoJsonWriter().write(timeline, p, rank, own, traceName, s));
            written.add(new File(file, p, rank, own.size(), gpuOps(p)));
        }
        String strangers = otherTraces(out, written);
        if (!strangers.isEmpty()) {
            notes.add("HTA reads every .json and .gz file of a folder as a rank, and this folder also holds " + strangers
                    + "; give the export a folder of its own");
        }
        return new Result(List.copyOf(written), List.copyOf(notes));
    }

    /** Files beside {@code out} that HTA would also read as traces (a few, by name), or "". */
    private static String otherTraces(Path out, List<File> written) throws IOException {
        Path dir = out.toAbsolutePath().getParent();
        Set<Path> ours = new HashSet<>();
        written.forEach(f -> ours.add(f.path().toAbsolutePath().normalize()));
        try (Stream<Path> files = Files.list(dir)) {
            List<String> others = files
                    .filter(p -> !ours.contains(p.toAbsolutePath().normalize()))
                    .filter(p -> p.getFileName().toString().endsWith(".json") || p.getFileName().toString().endsWith(".gz"))
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
            return others.isEmpty() ? "" : String.join(", ", others.subList(0, Math.min(3, others.size())))
                    + (others.size() > 3 ? " and " + (others.size() - 3) + " more" : "");
        }
    }

    private static void checkSteps(Timeline timeline, List<TimelineProcess> processes,
                                   Map<Integer, List<ProfilerSteps.Step>> stepsOf, ProfilerSteps.Spec spec,
                                   List<String> notes) {
        if (stepsOf.values().stream().allMatch(List::isEmpty)) {
            String known = rangeNames(timeline, processes);
            throw new IllegalArgumentException("--steps " + spec + ": no NVTX range named '" + spec.rangeName()
                    + "' in the capture" + (known.isEmpty() ? " (it has none: the program pushed no NVTX range, or --kinds left out nvtx)"
                    : "; its ranges are " + known));
        }
        for (TimelineProcess p : processes) {
            boolean hasSteps = !stepsOf.get(p.pid()).isEmpty();
            if (hasSteps && gpuOps(p) > 0 && !p.hasApiCalls()) {
                // Still written: Perfetto and TensorBoard show the steps; only HTA's step analyses need the launches.
                notes.add("WARNING: pid " + p.pid() + " has no CUDA API calls in the capture, and once a trace has "
                        + "ProfilerSteps HTA drops every GPU op it cannot tie to its launch (here all of them), so HTA's "
                        + "step analyses of this file will be empty; capture with --kinds kernel,memcpy,memset,nvtx,runtime "
                        + "for them");
            }
            if (!hasSteps) {
                notes.add("pid " + p.pid() + " has no NVTX range '" + spec.rangeName() + "' inside its capture ranges; "
                        + "its file has no ProfilerStep annotations");
            }
        }
    }

    /** The NVTX range names of these processes, most frequent first: "step (412), forward (12)". */
    private static String rangeNames(Timeline timeline, List<TimelineProcess> processes) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (TimelineProcess p : processes) {
            for (CpuThread t : p.threads()) {
                ThreadSlices r = t.ranges();
                for (int i = 0, n = r.size(); i < n; i++) {
                    counts.merge(r.nameId(i), 1, Integer::sum);
                }
            }
        }
        return counts.entrySet().stream()
                .sorted(Map.Entry.<Integer, Integer>comparingByValue().reversed())
                .limit(8)
                .map(e -> timeline.strings().get(e.getKey()) + " (" + e.getValue() + ")")
                .collect(Collectors.joining(", "));
    }

    private static long gpuOps(TimelineProcess p) {
        long n = 0;
        for (GpuDevice d : p.devices()) {
            n += d.opCount();
        }
        return n;
    }
}
