package dev.vprof.merge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.vprof.adapt.CaptureTimeline;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.NodeEvidence;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.TimeSync;
import dev.vprof.export.ExportFormat;
import dev.vprof.export.Exporter;
import dev.vprof.names.KernelNames;
import dev.vprof.output.OutputFile;
import dev.vprof.output.TempFolder;
import dev.vprof.source.CaptureSources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code vprof merge}: the captures of one run's nodes as one archive that Perfetto opens merged
 * (Perfetto's trace manifest, version 1: docs/multinode.md says which rules it follows). Each
 * capture becomes a {@code .pftrace} written by the ordinary Perfetto sink, attributed to a
 * machine of its own; the first capture is the reference, and every other one is placed on it by
 * {@code clocks.sync_to} with the offset measured from collectives ({@link OffsetEstimate}), or
 * with offset 0 and the NTP bound stated where none matched within the residual bound. Captures
 * that do not look like one run ({@link OneRun}) are refused, unless forced, before anything is
 * written.
 */
public final class RunMerge {
    private RunMerge() {}

    /** Where {@code vprof merge} puts the manifest in the archive. */
    public static final String MANIFEST = "perfetto_manifest.json";
    /**
     * The clock the manifest relates the files by: REALTIME, which every vprof trace carries its
     * times on and the offsets are measured on. A trace's BOOTTIME (where its capture recorded one)
     * is its own host's time since boot, which two hosts do not share.
     */
    static final String TRACE_CLOCK = "REALTIME";

    /** One node of the merged run. */
    public record Node(NodeCapture capture, String machine, String file, OffsetEstimate estimate,
                       int referencePid, int pid) {}

    /**
     * What was merged, and what the person must hear about it.
     *
     * @param forced why the captures did not look like one run, merged anyway (--force); empty if they did
     */
    public record Result(String runId, List<Node> nodes, List<String> warnings, List<String> forced,
                         Map<String, Object> manifest) {}

    /** The captures do not look like one run, said in one sentence; nothing was written. */
    public static final class NotOneRun extends Exception {
        private static final long serialVersionUID = 1L;

        NotOneRun(String message) {
            super(message);
        }
    }

    /** {@link #merge(List, Path, boolean)}, refusing captures that are not one run. */
    public static Result merge(List<Path> captures, Path out) throws IOException, NotOneRun {
        return merge(captures, out, false);
    }

    /**
     * Merges {@code captures} into the tar archive {@code out} (written beside it, moved into
     * place). Unless {@code force}, captures that do not look like one run are refused first.
     */
    public static Result merge(List<Path> captures, Path out, boolean force) throws IOException, NotOneRun {
        List<NodeCapture> caps = new ArrayList<>();
        for (Path c : captures) {
            try (CaptureReader reader = CaptureSources.open(c)) {
                caps.add(NodeCapture.read(reader));
            }
        }
        List<String> machines = NodeNames.machines(caps);
        List<String> files = NodeNames.files(caps);
        List<String> warnings = new ArrayList<>();
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < caps.size(); i++) {
            nodes.add(place(caps.getFirst(), caps.get(i), i, machines.get(i), files.get(i), warnings));
        }
        List<String> forced = OneRun.reasons(nodes);
        if (!forced.isEmpty() && !force) {
            throw new NotOneRun("these captures do not look like one run: " + String.join("; ", forced)
                    + "; give the captures the nodes of one run took together, or add --force to merge them anyway");
        }
        // The per-node traces go to a work folder beside the archive, the archive itself through
        // OutputFile: a signal or a failure leaves neither, a SIGKILL leaves them for the next run.
        try (TempFolder work = TempFolder.beside(out); OutputFile archive = OutputFile.create(out, force)) {
            List<Path> traces = new ArrayList<>();
            for (int i = 0; i < captures.size(); i++) {
                try (CaptureReader reader = CaptureSources.open(captures.get(i))) {
                    Path trace = work.path().resolve("node" + i + ".pftrace");
                    CaptureTimeline.Result r = CaptureTimeline.stream(reader, KernelNames.demangled(), null);
                    Exporter.export(r.source(), trace, ExportFormat.PERFETTO);
                    traces.add(trace);
                }
            }
            String runId = runId(caps);
            Map<String, Object> manifest = manifest(nodes, runId, forced);
            byte[] json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(manifest);
            try (TarWriter tar = new TarWriter(archive.stream(), System.currentTimeMillis() / 1000)) {
                tar.add(MANIFEST, json);
                for (int i = 0; i < nodes.size(); i++) {
                    tar.add(nodes.get(i).file(), traces.get(i));
                }
            }
            archive.commit();
            return new Result(runId, nodes, warnings, forced, manifest);
        }
    }

    /**
     * Node {@code index} against the reference: the best-agreeing pair of processes, or the NTP
     * bound where none matched or the best fit's residual is above {@link OffsetEstimate#RESIDUAL_BOUND_NS}.
     */
    static Node place(NodeCapture ref, NodeCapture cap, int index, String machine, String file, List<String> warnings) {
        if (index == 0) {
            return new Node(cap, machine, file, OffsetEstimate.reference(), 0, 0);
        }
        OffsetEstimate best = null;
        int bestRef = 0, bestPid = 0;
        for (var r : ref.collectiveEnds().entrySet()) {
            for (var c : cap.collectiveEnds().entrySet()) {
                Optional<OffsetEstimate> e = OffsetEstimate.fromCollectives(r.getValue(), c.getValue());
                if (e.isPresent() && (best == null || e.get().uncertaintyNs() < best.uncertaintyNs())) {
                    best = e.get();
                    bestRef = r.getKey();
                    bestPid = c.getKey();
                }
            }
        }
        long refErr = ref.maxErrorUs(), capErr = cap.maxErrorUs();
        String syncs = shown(ref.label()) + ": " + ref.timeSyncWords() + ", " + shown(cap.label()) + ": "
                + cap.timeSyncWords();
        String why = null;
        if (best == null) {
            why = String.format(Locale.ROOT, "no collectives matched between %s (%d collectives) and %s (%d): the "
                            + "wall clocks are taken as they are; %s", shown(NodeNames.fileName(ref)),
                    ref.collectiveCount(), shown(NodeNames.fileName(cap)), cap.collectiveCount(), syncs);
        } else if (!best.withinResidualBound()) {
            why = "the collectives' best fit, " + best.describe() + ", is above the "
                    + TimeSync.Units.ns(OffsetEstimate.RESIDUAL_BOUND_NS) + " rms bound on the residual and is not "
                    + "used: the wall clocks are taken as they are; " + syncs;
        }
        if (why != null) {
            OffsetEstimate e = OffsetEstimate.ntpBound(refErr, capErr, why);
            if (e.uncertaintyNs() < 0) {
                warnings.add("node " + shown(machine) + " is placed by its wall clock with no bound on the error: no "
                        + "collectives to measure on within the residual bound, and a clock adjtimex does not call "
                        + "synchronised");
            }
            return new Node(cap, machine, file, e, 0, 0);
        }
        long margin = 3 * best.uncertaintyNs() + 1000;
        if (refErr >= 0 && capErr >= 0) {
            long bound = (refErr + capErr) * 1000;
            if (Math.abs(best.offsetNs()) > bound + margin) {
                warnings.add(String.format(Locale.ROOT, "CLOCKS DISAGREE: node %s's clock is %s from the reference's "
                                + "by the collectives, beyond the ±%s both nodes' NTP says it could be; one host's time "
                                + "sync is wrong (check chrony/ptp4l there)", shown(machine),
                        TimeSync.Units.ns(best.offsetNs()), TimeSync.Units.ns(bound)));
            }
        } else if (Math.abs(best.offsetNs()) > OneRun.slackNs(ref) + OneRun.slackNs(cap) + margin) {
            warnings.add(String.format(Locale.ROOT, "CLOCKS DISAGREE: node %s's clock is %s from the reference's by the "
                            + "collectives, more than the clocks of one run's nodes are apart (±%s, taking %s for a clock "
                            + "NTP does not discipline): a clock is far off, or the collectives matched are not the same "
                            + "ones", shown(machine), TimeSync.Units.ns(best.offsetNs()),
                    TimeSync.Units.ns(OneRun.slackNs(ref) + OneRun.slackNs(cap)),
                    TimeSync.Units.ns(OneRun.UNSYNCHRONISED_SLACK_NS)));
        }
        return new Node(cap, machine, file, best, bestRef, bestPid);
    }

    /** A name from a capture as shown on a terminal: control and non-ASCII characters as \\uXXXX. */
    public static String shown(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        s.chars().forEach(c -> sb.append(c < 0x20 || c >= 0x7f ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return sb.toString();
    }

    /** A stable id for the run: the same captures give the same id. */
    static String runId(List<NodeCapture> caps) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (NodeCapture c : caps) {
                sha.update((c.host() + "|" + c.node().getOrDefault(NodeEvidence.BOOT_ID, "") + "|"
                        + c.node().getOrDefault(NodeEvidence.START_REALTIME, c.path().getFileName().toString()) + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The manifest: version 1, one machine per node, clocks relative to the reference, attributes. */
    static Map<String, Object> manifest(List<Node> nodes, String runId, List<String> forced) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", 1);
        String ref = nodes.getFirst().file();
        m.put("trace_time", Map.of("clock", TRACE_CLOCK, "file", ref));
        List<Object> files = new ArrayList<>();
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("vprof.run_id", runId);
        attrs.put("vprof.reference", ref);
        Set<String> methods = new TreeSet<>();
        long worst = 0;
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("path", n.file());
            f.put("machine", Map.of("name", n.machine()));
            OffsetEstimate e = n.estimate();
            if (i > 0) {
                Map<String, Object> clocks = new LinkedHashMap<>();
                clocks.put("clock", TRACE_CLOCK);
                clocks.put("sync_to", Map.of("file", ref, "clock", TRACE_CLOCK));
                // At one instant this node's clock reads T while the reference reads T - offset.
                clocks.put("offset_ns", -e.offsetNs());
                f.put("clocks", clocks);
                methods.add(e.method());
                worst = worst < 0 || e.uncertaintyNs() < 0 ? -1 : Math.max(worst, e.uncertaintyNs());
            }
            files.add(f);
            String key = "vprof.node." + i + ".";
            attrs.put(key + "machine", n.machine());
            attrs.put(key + "file", n.file());
            attrs.put(key + "method", e.method());
            attrs.put(key + "offset_ns", e.offsetNs());
            attrs.put(key + "uncertainty_ns", e.uncertaintyNs() < 0 ? "unbounded" : (Object) e.uncertaintyNs());
            if (e.method().equals(OffsetEstimate.COLLECTIVES)) {
                attrs.put(key + "residual_max_ns", e.maxResidualNs());
                attrs.put(key + "collectives_matched", (long) e.pairs());
            }
            attrs.put(key + "time_sync", n.capture().timeSyncWords());
        }
        m.put("files", files);
        attrs.put("vprof.offset_method", methods.isEmpty() ? OffsetEstimate.REFERENCE : String.join("+", methods));
        attrs.put("vprof.offset_uncertainty_ns", worst < 0 ? "unbounded" : (Object) worst);
        if (!forced.isEmpty()) {
            attrs.put("vprof.forced", String.join("; ", forced));
        }
        m.put("attributes", attrs);
        return Map.of("perfetto_manifest", m);
    }
}
