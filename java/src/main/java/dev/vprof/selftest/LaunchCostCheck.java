package dev.vprof.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Judges launch cost (R7) from the self-test program's "measured" events: ns per launch in each
 * phase, each with the medians of its five blocks of rounds. A ratio is held to its margin only
 * where the measurement repeats better than that margin: the noise of a ratio is the larger spread
 * of its two phases (between their block medians), or of the dormant phase measured twice; a ratio
 * above the margin but within that noise is {@link CheckOutcome#INCONCLUSIVE}, not a pass or a failure.
 * Pure: tested on recorded events (LaunchCostCheckTest).
 */
final class LaunchCostCheck {
    /** At most 1 % more per launch: dormant against no agent, and after a capture against before it. */
    static final double MARGIN = 0.01;

    /** One phase's figures. */
    record Phase(double nsPerLaunch, double noise) {
        static Phase of(JsonNode measured) {
            if (measured == null || !measured.has("ns_per_launch")) {
                return null;
            }
            double lo = Double.MAX_VALUE;
            double hi = 0;
            for (JsonNode b : measured.path("block_medians")) {
                lo = Math.min(lo, b.asDouble());
                hi = Math.max(hi, b.asDouble());
            }
            double ns = measured.path("ns_per_launch").asDouble();
            return new Phase(ns, hi > 0 && ns > 0 ? (hi - lo) / ns : 0);
        }
    }

    private LaunchCostCheck() {}

    /**
     * @param phases "none" (no agent, its own process), "dormant", "dormant-again", "armed",
     *               "capturing", "after-capture" (one process): the measured events, any may be missing
     * @param finalized whether the agent's region said CUPTI was finalized before "after-capture"
     *                  (null: not read)
     * @param finalizeExpected whether this CUPTI version is one the agent finalizes (API 24+, not 13.0 GA)
     */
    static List<Row> check(Map<String, JsonNode> phases, Boolean finalized, boolean finalizeExpected) {
        List<Row> rows = new ArrayList<>();
        Phase none = Phase.of(phases.get("none"));
        Phase dormant = Phase.of(phases.get("dormant"));
        Phase again = Phase.of(phases.get("dormant-again"));
        Phase armed = Phase.of(phases.get("armed"));
        Phase capturing = Phase.of(phases.get("capturing"));
        Phase after = Phase.of(phases.get("after-capture"));
        rows.add(figure("launch-cost: ns per launch, no agent", none));
        rows.add(figure("launch-cost: ns per launch, dormant agent", dormant));
        double repeat = dormant != null && again != null ? Math.abs(again.nsPerLaunch() / dormant.nsPerLaunch() - 1) : 0;
        if (again != null) {
            rows.add(Row.info("launch-cost: dormant measured again (the measurement's repeatability)",
                    ratioText(again, dormant)));
        }
        rows.add(bounded("launch-cost: dormant agent vs no agent (separate processes)", dormant, none, repeat));
        if (armed != null) {
            rows.add(Row.info("launch-cost: armed for cudaProfilerApi, no range open, vs dormant", ratioText(armed, dormant)));
        }
        if (capturing != null) {
            rows.add(Row.info("launch-cost: capturing (kernel tracing on) vs dormant", ratioText(capturing, dormant)));
        }
        if (finalized != null || finalizeExpected) {
            String want = finalizeExpected ? "yes" : "no (this CUPTI version is not finalized)";
            String got = finalized == null ? "not read" : finalized ? "yes" : "no";
            rows.add(Row.of("launch-cost: agent finalized CUPTI after the capture", want, got,
                    finalized != null && finalized == finalizeExpected));
        }
        rows.add(bounded("launch-cost: after a finished capture vs before the first arm (one process)", after,
                dormant, repeat));
        return rows;
    }

    private static Row figure(String check, Phase p) {
        return p == null ? Row.of(check, "a figure", "not measured", false)
                : Row.info(check, String.format(Locale.ROOT, "%.1f ns (blocks within %.1f %%)", p.nsPerLaunch(),
                        100 * p.noise()));
    }

    private static String ratioText(Phase a, Phase base) {
        if (a == null || base == null) {
            return "not measured";
        }
        return String.format(Locale.ROOT, "%.1f ns, x%.3f", a.nsPerLaunch(), a.nsPerLaunch() / base.nsPerLaunch());
    }

    /** a / base at most 1 + MARGIN; inconclusive when above it by no more than the noise. */
    private static Row bounded(String check, Phase a, Phase base, double repeat) {
        String want = String.format(Locale.ROOT, "ratio <= %.2f", 1 + MARGIN);
        if (a == null || base == null) {
            return Row.of(check, want, "not measured", false);
        }
        double ratio = a.nsPerLaunch() / base.nsPerLaunch();
        double noise = Math.max(repeat, Math.max(a.noise(), base.noise()));
        String actual = String.format(Locale.ROOT, "x%.3f (%.1f vs %.1f ns; noise %.1f %%)", ratio, a.nsPerLaunch(),
                base.nsPerLaunch(), 100 * noise);
        if (ratio <= 1 + MARGIN) {
            return new Row(check, want, actual, CheckOutcome.OK);
        }
        return new Row(check, want, actual, ratio > 1 + MARGIN + noise ? CheckOutcome.MISMATCH : CheckOutcome.INCONCLUSIVE);
    }
}
