package dev.vprof.diff;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What {@code vprof diff} found: the verdict first, then why. Rendered as text by
 * {@link DiffText}, as JSON by {@link DiffJson} (snake_case; every key is listed in
 * docs/diff-json.md) and as HTML by the HTML report's page code. Plain values only, so that any
 * renderer reads it without knowing how it was computed. Times are ns; a figure "per unit" is per
 * the {@link Basis} named in {@link #basis}; a relative change is a fraction (0.05 = +5 %), null
 * where the base is 0.
 *
 * @param verdict     one of {@link #REGRESSED}, {@link #IMPROVED}, {@link #NO_CHANGE}, {@link #NOT_COMPARABLE}
 * @param headline    one sentence that says why (first line of the text after the verdict)
 * @param decidedBy   the row (kernel, base name or category) whose change decided the verdict; null
 *                    when the total or a latency decided it, or nothing moved
 * @param story       further sentences, most important first: where the time went, requests, metrics
 * @param base        what the base side is and what it holds
 * @param next        the new side ({@code new} in JSON)
 * @param basis       what the per-unit figures are normalised by
 * @param settings    the thresholds and options the verdict was reached with
 * @param gpuTime     all kernels' time per unit, both sides, and its change
 * @param stepTime    the steps' own wall time per step, both sides; null without steps on both
 * @param kernels     every exact kernel name of both sides (an outer join), ranked by the size of
 *                    its change per unit, largest first
 * @param baseNames   the same rows by base name (templates and arguments stripped)
 * @param categories  the same rows by kernel category (GEMM, attention, ...)
 * @param shapes      by name and launch shape (grid, block); empty without {@code --by-shape}
 * @param cpuOps      CPU operators by name where both sides hold them; empty otherwise
 * @param matching    how many names match at each level
 * @param explained   the share of the GPU-time change that the ranked rows' changes account for
 *                    (their summed change over the total change); null when the total did not change
 * @param comparability the comparability gate: every mismatch named
 * @param requests    requests and their phases where both sides hold spans; null otherwise
 * @param metrics     the server's metrics where both sides hold scrapes; empty otherwise
 * @param warnings    what the reader should know about the inputs (lost records, cut files)
 */
public record DiffResult(
        String verdict,
        String headline,
        Row decidedBy,
        List<String> story,
        Side base,
        @JsonProperty("new") Side next,
        Basis basis,
        Settings settings,
        Change gpuTime,
        Change stepTime,
        List<Row> kernels,
        List<Row> baseNames,
        List<Row> categories,
        List<Row> shapes,
        List<Row> cpuOps,
        List<LevelMatch> matching,
        Double explained,
        Comparability comparability,
        Requests requests,
        List<MetricChange> metrics,
        List<String> warnings) {

    public static final String REGRESSED = "REGRESSED";
    public static final String IMPROVED = "IMPROVED";
    public static final String NO_CHANGE = "NO CHANGE";
    public static final String NOT_COMPARABLE = "NOT COMPARABLE";

    /**
     * One side of the comparison.
     *
     * @param label     what it is: the file, and the window or request set when it is part of one
     * @param file      the file or folder read
     * @param window    the selection inside that file, as given ({@code 0s..12s}, {@code slowest 10 %}); null for all
     * @param startNs   the side's interval in epoch ns (the capture window, or the selected window)
     * @param endNs     its end
     * @param kernels   kernels in the side, every one: those in its steps and those outside them
     * @param gpuNs     their summed duration
     * @param steps     steps in the side (0 without steps)
     * @param requests  requests in the side (0 without spans)
     * @param devices   the GPU models, one per device seen ("NVIDIA H100 80GB HBM3"); may be empty
     * @param worldSize the world size the processes say (largest seen), null when not said
     * @param ranks     the ranks read
     * @param outsideSteps with steps: the side's kernels that belong to none of its steps (counted in
     *                  kernels and gpu_ns, not in the per-step figures); null without steps
     */
    public record Side(String label, String file, String window, long startNs, long endNs, long kernels, long gpuNs,
                       long steps, long requests, List<String> devices, Integer worldSize, List<Integer> ranks,
                       OutsideSteps outsideSteps) {

        /** A side whose kernels are all counted per unit (none outside its steps). */
        public Side(String label, String file, String window, long startNs, long endNs, long kernels, long gpuNs,
                    long steps, long requests, List<String> devices, Integer worldSize, List<Integer> ranks) {
            this(label, file, window, startNs, endNs, kernels, gpuNs, steps, requests, devices, worldSize, ranks, null);
        }

        /** This side with {@code outside} (kernels of no step of the side) added to its kernels and named. */
        public Side withOutsideSteps(OutsideSteps outside) {
            return new Side(label, file, window, startNs, endNs, kernels + outside.kernels(), gpuNs + outside.gpuNs(),
                    steps, requests, devices, worldSize, ranks, outside);
        }
    }

    /** A side's kernels that belong to none of its steps, and their summed duration. */
    public record OutsideSteps(long kernels, long gpuNs) {}

    /** This result with other sides (the rest as it is). */
    public DiffResult withSides(Side base, Side next) {
        return new DiffResult(verdict, headline, decidedBy, story, base, next, basis, settings, gpuTime, stepTime, kernels,
                baseNames, categories, shapes, cpuOps, matching, explained, comparability, requests, metrics, warnings);
    }

    /**
     * What a figure "per unit" is per: {@code step} (steps on both sides), {@code request} (requests
     * on both), or {@code second} (of each side's interval). base_units and new_units are how many
     * of it each side holds.
     */
    public record Basis(String unit, double baseUnits, @JsonProperty("new_units") double newUnits, String note) {}

    /**
     * The settings the comparison ran with.
     *
     * @param noiseFloor          a row's relative change below this is within the noise (default 0.02)
     * @param regressionThreshold the GPU (or step) time change that makes a verdict (default 0.05)
     * @param ci                  the confidence level of the intervals (0.95)
     * @param ciMethod            {@code bootstrap over steps}, {@code bootstrap over kernel instances}, or {@code none}
     * @param byShape             whether launch shapes were compared
     * @param forced              whether the verdict was reached despite the comparability gate
     * @param top                 how many contributor rows the text shows and {@code explained} is over
     * @param smallSample         fewer than 10 steps or 30 kernels on a side: intervals widened, said so
     * @param falseDiscoveryRate  the rate the row tests are held to (Benjamini-Hochberg)
     */
    public record Settings(double noiseFloor, double regressionThreshold, double ci, String ciMethod,
                           boolean byShape, boolean forced, int top, boolean smallSample, double falseDiscoveryRate) {}

    /**
     * One measure on both sides and its change: per unit, with its confidence interval.
     *
     * @param base        the base's figure per unit
     * @param next        the new side's figure per unit ({@code new} in JSON)
     * @param delta       new minus base
     * @param relative    delta over base; null when base is 0
     * @param ciLow       the confidence interval of delta, low end; null when none could be computed
     * @param ciHigh      its high end
     * @param significant whether the interval excludes 0 and the relative change is past the noise floor
     */
    public record Change(double base, @JsonProperty("new") double next, double delta, Double relative,
                         Double ciLow, Double ciHigh, boolean significant) {}

    /**
     * One side's figures for a row. Per-unit figures are per the basis; percentiles are of one
     * instance's duration (exact up to 1024 instances, within 0.4 % past that).
     */
    public record Figures(long count, double countPerUnit, long totalNs, double nsPerUnit, double meanNs,
                          long p50Ns, long p90Ns, long p99Ns, double shareOfGpu) {
        public static final Figures NONE = new Figures(0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * One row of a table: a kernel name (or base name, category, shape, CPU operator) on both sides.
     *
     * @param name          the key as shown (demangled unless --mangled)
     * @param level         {@code exact}, {@code base}, {@code category}, {@code shape}; beside kernels
     *                      {@code cpu_op}, {@code annotation} or {@code runtime}
     * @param category      the kernel category of the row's name
     * @param baseName      the base name of the row's name
     * @param status        {@code matched} (on both sides), {@code new} (only in the new side),
     *                      {@code gone} (only in the base)
     * @param matchedAt     for a row on one side only, the coarsest level at which the other side
     *                      has its counterpart ({@code base} or {@code category}); null otherwise
     * @param base          the base's figures ({@link Figures#NONE} when gone... or new)
     * @param next          the new side's figures ({@code new} in JSON)
     * @param time          its time per unit on both sides and the change
     * @param countChange   its count per unit: new minus base
     * @param shareOfChange its change over the total GPU-time change (null when the total did not change)
     * @param qValue        the Benjamini-Hochberg adjusted p-value that the row moved by more than the
     *                      threshold of the base's GPU time; null where the row was not tested
     */
    public record Row(String name, String level, String category, String baseName, String status, String matchedAt,
                      Figures base, @JsonProperty("new") Figures next, Change time, double countChange,
                      Double shareOfChange, Double qValue) {
        /** This row with its q-value (the verdict's row test). */
        public Row withQValue(Double q) {
            return new Row(name, level, category, baseName, status, matchedAt, base, next, time, countChange,
                    shareOfChange, q);
        }
    }

    /**
     * How names match at one level: distinct keys on each side and how many are on both.
     *
     * @param level   {@code exact}, {@code base}, {@code category} or {@code shape}
     */
    public record LevelMatch(String level, int baseKeys, @JsonProperty("new_keys") int newKeys, int matched) {}

    /**
     * The comparability gate.
     *
     * @param comparable whether the sides may be compared (no blocking mismatch, or --force)
     * @param mismatches every difference found, blocking ones first
     */
    public record Comparability(boolean comparable, List<Mismatch> mismatches) {}

    /**
     * One difference between the sides.
     *
     * @param what     {@code gpu}, {@code gpu_count}, {@code world_size}, {@code driver}, {@code cuda},
     *                 {@code cupti}, {@code record_kinds}, {@code cuda_graphs}, {@code workload}, {@code common_kernels}
     * @param base     the base's value, as text
     * @param next     the new side's ({@code new} in JSON)
     * @param blocking whether it alone makes the sides NOT COMPARABLE
     */
    public record Mismatch(String what, String base, @JsonProperty("new") String next, boolean blocking) {}

    /**
     * Requests on both sides, from their spans (every figure exact).
     *
     * @param latencies ttft, queue, prefill, decode and e2e: p50, p90 and p99 of each side, in seconds
     * @param gpuPerRequest GPU busy time while each request was in a phase (queue, prefill, decode, total),
     *                  per request, ns, with an interval from a bootstrap over requests (it grows with
     *                  concurrency too: the GPU busy with other requests counts)
     * @param gpuCost   the GPU work a request costs: all kernels' time over the requests when the basis is
     *                  requests, else the per-phase total
     * @param where     the phase that carries most of the TTFT change ({@code queue} or {@code prefill}); null
     *                  if TTFT did not rise
     * @param kernelRegression whether GPU time per request rose past the regression threshold
     */
    public record Requests(long baseRequests, @JsonProperty("new_requests") long newRequests,
                           List<LatencyChange> latencies, List<PhaseChange> gpuPerRequest, Change gpuCost,
                           String where, boolean kernelRegression) {}

    /** GPU busy time per request in one phase ({@code queue}, {@code prefill}, {@code decode}, {@code total}). */
    public record PhaseChange(String phase, Change change) {}

    /** One request latency: quantiles of both sides in seconds, and the p99's and p50's relative change. */
    public record LatencyChange(String name, long baseCount, @JsonProperty("new_count") long newCount,
                                double baseP50, double baseP90, double baseP99,
                                @JsonProperty("new_p50") double newP50, @JsonProperty("new_p90") double newP90,
                                @JsonProperty("new_p99") double newP99,
                                Double p50Change, Double p99Change) {}

    /** One server metric over each side's interval (a rate, a mean gauge), and its change. */
    public record MetricChange(String name, Double base, @JsonProperty("new") Double next, Double relative) {}
}
