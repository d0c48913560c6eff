package dev.vprof.export;

import dev.vprof.capture.EventArgs;
import dev.vprof.output.OutputFile;
import dev.vprof.timeline.ApiCall;
import dev.vprof.timeline.CpuThread;
import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuStream;
import dev.vprof.timeline.ThreadSliceKind;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import dev.vprof.timeline.TimelineSource;
import dev.vprof.timeline.TimelineVisitor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
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

    /** What the export wrote, what a user should know about it, and what should worry them (warnings). */
    public record Result(List<File> files, List<String> notes, List<String> warnings) {
        public List<Path> paths() {
            return files.stream().map(File::path).toList();
        }
    }

    /** Processes whose files are written in one walk: each holds a file descriptor until the walk ends. */
    static final int FILES_PER_WALK = 256;

    /**
     * Writes the Kineto files of {@code source}, all in one walk over it (or one per
     * {@value #FILES_PER_WALK} processes). {@code steps}, when not null, names the NVTX range that
     * marks a step. Throws IllegalArgumentException, leaving no file behind, when there is no
     * process or when no process has that range. A process with steps but no CUDA API calls gets a
     * warning: HTA keeps only the GPU ops it can tie to a launch once a trace has steps, so its step
     * analyses of that file are empty.
     */
    public static Result write(TimelineSource source, Path out, ProfilerSteps.Spec steps) throws IOException {
        return write(source, out, steps, true);
    }

    /** As {@link #write(TimelineSource, Path, ProfilerSteps.Spec)}; {@code replace}: whether existing files may be replaced. */
    public static Result write(TimelineSource source, Path out, ProfilerSteps.Spec steps, boolean replace)
            throws IOException {
        Timeline timeline = source.layout();
        List<TimelineProcess> processes = timeline.processes();
        if (processes.isEmpty()) {
            throw new IllegalArgumentException("nothing to export as Kineto JSON: the capture has no process with GPU or API records");
        }
        List<String> notes = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        KinetoRanks ranks = KinetoRanks.assign(processes);
        notes.addAll(ranks.notes());
        ProfilerSteps.Collector collector = steps == null ? null : new ProfilerSteps.Collector(timeline, steps);
        Map<Integer, Integer> rangeNames = new HashMap<>();
        Map<TimelineProcess, List<ProfilerSteps.Step>> stepsOf = new IdentityHashMap<>();
        List<OutputFile> files = new ArrayList<>();
        try {
            for (int from = 0; from < processes.size(); from += FILES_PER_WALK) {
                List<TimelineProcess> batch = processes.subList(from, Math.min(processes.size(), from + FILES_PER_WALK));
                Map<TimelineProcess, KinetoJsonWriter.ProcessFile> open = new IdentityHashMap<>();
                for (TimelineProcess p : batch) {
                    OutputFile file = OutputFile.create(pathOf(out, p, processes.size()), replace);
                    files.add(file);
                    open.put(p, new KinetoJsonWriter.ProcessFile(timeline, p, ranks.of(p.pid()), file.stream()));
                }
                source.walk(new Router(open, collector, rangeNames));
                for (int k = 0; k < batch.size(); k++) {
                    TimelineProcess p = batch.get(k);
                    List<ProfilerSteps.Step> own = collector == null ? List.of() : collector.of(p);
                    stepsOf.put(p, own);
                    // Steps the source already holds as ProfilerStep#N ranges are in the file as they are.
                    open.get(p).finish(own.stream().filter(st -> !st.annotated()).toList(),
                            pathOf(out, p, processes.size()).getFileName().toString());
                    files.get(from + k).closeStream();
                }
            }
            if (steps != null) {
                checkSteps(timeline, processes, stepsOf, steps, rangeNames, notes, warnings);
            }
            List<File> written = new ArrayList<>();
            for (int i = 0; i < processes.size(); i++) {
                TimelineProcess p = processes.get(i);
                files.get(i).commit();
                written.add(new File(pathOf(out, p, processes.size()), p, ranks.of(p.pid()), stepsOf.get(p).size(),
                        p.gpuOps()));
            }
            String strangers = otherTraces(out, written);
            if (!strangers.isEmpty()) {
                notes.add("HTA reads every .json and .gz file of a folder as a rank, and this folder also holds " + strangers
                        + "; give the export a folder of its own");
            }
            return new Result(List.copyOf(written), List.copyOf(notes), List.copyOf(warnings));
        } finally {
            for (OutputFile f : files) {
                f.close(); // deletes what was not committed
            }
        }
    }

    /** {@code out} itself for a lone process, else {@code OUT-pidPID.json} beside it. */
    private static Path pathOf(Path out, TimelineProcess p, int processes) {
        return processes == 1 ? out : Exporter.perProcess(out, p.pid());
    }

    /** Hands each event to its process's file, and ranges to the step collector. */
    private static final class Router implements TimelineVisitor {
        private final TrackMap<TimelineProcess, KinetoJsonWriter.ProcessFile> files = new TrackMap<>("a process");
        private final ProfilerSteps.Collector steps;
        private final Map<Integer, Integer> rangeNames;

        Router(Map<TimelineProcess, KinetoJsonWriter.ProcessFile> files, ProfilerSteps.Collector steps,
               Map<Integer, Integer> rangeNames) {
            files.forEach(this.files::put);
            this.steps = steps;
            this.rangeNames = rangeNames;
        }

        /** The file of {@code p}, or null for a process of another batch. */
        private KinetoJsonWriter.ProcessFile fileOf(TimelineProcess p) {
            return files.find(p);
        }

        @Override
        public void gpuOp(GpuStream stream, GpuOp op) throws IOException {
            KinetoJsonWriter.ProcessFile f = fileOf(stream.device().process());
            if (f != null) {
                f.gpuOp(stream, op);
            }
        }

        @Override
        public void apiCall(CpuThread thread, ApiCall call) throws IOException {
            KinetoJsonWriter.ProcessFile f = fileOf(thread.process());
            if (f != null) {
                f.apiCall(thread, call);
            }
        }

        @Override
        public boolean wantsEventArgs() {
            return true; // a trace's fields no record holds go back into its file
        }

        @Override
        public void threadSlice(CpuThread thread, ThreadSliceKind kind, int nameId, long startNs, long endNs,
                                int domainId, EventArgs args) throws IOException {
            KinetoJsonWriter.ProcessFile f = fileOf(thread.process());
            if (f == null) {
                return;
            }
            f.threadSlice(thread, kind, nameId, startNs, endNs, domainId, args);
            if (steps != null && kind == ThreadSliceKind.NVTX_RANGE) {
                steps.range(thread, nameId, startNs, endNs, domainId);
                rangeNames.merge(nameId, 1, Integer::sum);
            }
        }
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
                                   Map<TimelineProcess, List<ProfilerSteps.Step>> stepsOf, ProfilerSteps.Spec spec,
                                   Map<Integer, Integer> rangeNames, List<String> notes, List<String> warnings) {
        if (stepsOf.values().stream().allMatch(List::isEmpty)) {
            String known = rangeNames(timeline, rangeNames);
            throw new IllegalArgumentException("--steps " + spec + ": no NVTX range named '" + spec.rangeName()
                    + "' in the capture" + (known.isEmpty() ? " (it has none: the program pushed no NVTX range, or --kinds left out nvtx)"
                    : "; its ranges are " + known));
        }
        for (TimelineProcess p : processes) {
            boolean hasSteps = !stepsOf.get(p).isEmpty();
            if (hasSteps && p.gpuOps() > 0 && !p.hasApiCalls()) {
                // Still written: Perfetto and TensorBoard show the steps; only HTA's step analyses need the launches.
                warnings.add("pid " + p.pid() + " has no CUDA API calls in the capture, and once a trace has "
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

    /** The NVTX range names seen, most frequent first: "step (412), forward (12)". */
    private static String rangeNames(Timeline timeline, Map<Integer, Integer> counts) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<Integer, Integer>comparingByValue().reversed())
                .limit(8)
                .map(e -> timeline.strings().get(e.getKey()) + " (" + e.getValue() + ")")
                .collect(Collectors.joining(", "));
    }
}
