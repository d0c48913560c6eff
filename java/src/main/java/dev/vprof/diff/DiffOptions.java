package dev.vprof.diff;

import dev.vprof.time.Selection;
import dev.vprof.names.KernelNames;
import java.nio.file.Path;

/**
 * How to compare: the two sides (a file and a selection inside it each), and the settings.
 *
 * @param noiseFloor          a relative change below this is noise (default 0.02)
 * @param regressionThreshold the change of GPU time per unit (or of a request latency) that makes a verdict (0.05)
 * @param top                 contributor rows the text shows, and the explained share is over
 * @param byShape             also compare by launch shape (grid and block)
 * @param force               reach a verdict even when the sides are not comparable
 * @param stepRange           the NVTX range that marks a step (default {@code step})
 * @param step                only the step with this number (ProfilerStep#N), on both sides; null for all
 * @param rank                only the processes of this rank, on both sides; null for all
 * @param categories          the kernel category rules
 * @param names               how kernel names are shown
 */
public record DiffOptions(Path baseFile, Selection baseSelection, Path newFile, Selection newSelection,
                          double noiseFloor, double regressionThreshold, int top, boolean byShape, boolean force,
                          String stepRange, Long step, Integer rank, Categories categories, KernelNames names) {
    public static final double DEFAULT_NOISE_FLOOR = 0.02;
    public static final double DEFAULT_THRESHOLD = 0.05;
    public static final int DEFAULT_TOP = 10;

    /** Two whole files with every default. */
    public static DiffOptions of(Path base, Path next) {
        return new DiffOptions(base, Selection.ALL, next, Selection.ALL, DEFAULT_NOISE_FLOOR, DEFAULT_THRESHOLD,
                DEFAULT_TOP, false, false, "step", null, null, Categories.defaults(), KernelNames.demangled());
    }

    public DiffOptions withForce(boolean f) {
        return new DiffOptions(baseFile, baseSelection, newFile, newSelection, noiseFloor, regressionThreshold, top,
                byShape, f, stepRange, step, rank, categories, names);
    }

    public DiffOptions withSelections(Selection b, Selection n) {
        return new DiffOptions(baseFile, b, newFile, n, noiseFloor, regressionThreshold, top, byShape, force,
                stepRange, step, rank, categories, names);
    }
}
