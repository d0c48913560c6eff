package dev.vprof.aggregate;

import dev.vprof.time.CaptureWindow;
import dev.vprof.time.Clocks;
import java.util.Arrays;

/**
 * Per step: the kernels that belong to it, their summed duration and the GPU's busy time over them
 * (the union of their intervals, so concurrent kernels count once); and the kernels that belong to
 * no step, counted apart (never dropped). With a window, the steps are those that start in it and a
 * kernel of the window in another step counts as outside. Memory: three numbers per step, and a
 * union's reorder window for each of the last {@value #OPEN} steps that had kernels, since a step's
 * kernels come together in the records; a step whose kernels come back after {@value #OPEN} others
 * got theirs is marked approximate (its busy time may then be overstated).
 */
public final class StepTally implements Sink {
    static final int OPEN = 8;
    static final int WINDOW = 1 << 12;

    private final Steps steps;
    private final boolean[] included;
    private final long[] kernels;
    private final long[] gpuNs;
    private final long[] busyNs;
    private final boolean[] approximate;
    private final boolean[] seen;
    private long outsideKernels;
    private long outsideGpuNs;

    private final int[] slotStep = new int[OPEN];
    private final long[] slotUse = new long[OPEN];
    private final RunningUnion[] slots = new RunningUnion[OPEN];
    private long uses;
    private int lastSlot = -1;
    private boolean finished;

    /** The steps of {@code steps} that start in {@code window} (null: all), placed by {@code clocks}. */
    public StepTally(Steps steps, CaptureWindow window, Clocks clocks) {
        this.steps = steps;
        int n = steps.count();
        included = new boolean[n];
        for (int i = 0; i < n; i++) {
            included[i] = window == null || window.holds(clocks.epochNs(steps.pid(i), steps.startNs(i)));
        }
        kernels = new long[n];
        gpuNs = new long[n];
        busyNs = new long[n];
        approximate = new boolean[n];
        seen = new boolean[n];
        Arrays.fill(slotStep, -1);
        for (int j = 0; j < OPEN; j++) {
            int slot = j;
            slots[j] = new RunningUnion(WINDOW, new RunningUnion.Segments() {
                @Override
                public void segment(long start, long end) {
                    busyNs[slotStep[slot]] += end - start;
                }

                @Override
                public void late(long start, long end) {
                    busyNs[slotStep[slot]] += end - start; // as BusyTime: a late piece can only overstate
                }
            });
        }
    }

    @Override
    public void kernel(Kernel k) {
        int s = k.step();
        if (s < 0 || !included[s]) {
            outsideKernels++;
            outsideGpuNs += k.durationNs();
            return;
        }
        kernels[s]++;
        gpuNs[s] += k.durationNs();
        slot(s).add(k.startNs(), Math.max(k.startNs(), k.endNs()));
    }

    private RunningUnion slot(int step) {
        if (lastSlot >= 0 && slotStep[lastSlot] == step) {
            slotUse[lastSlot] = ++uses;
            return slots[lastSlot];
        }
        int free = -1, oldest = 0;
        for (int j = 0; j < OPEN; j++) {
            if (slotStep[j] == step) {
                free = j;
                break;
            }
            if (slotUse[j] < slotUse[oldest]) {
                oldest = j;
            }
        }
        if (free < 0) {
            free = oldest;
            if (slotStep[free] >= 0) {
                slots[free].finish(); // settles the evicted step's busy time; the union is empty again
            }
            slotStep[free] = step;
            if (seen[step]) {
                approximate[step] = true;
            }
            seen[step] = true;
        }
        slotUse[free] = ++uses;
        lastSlot = free;
        return slots[free];
    }

    /** Ends the pass: settles every open step's busy time. */
    private void finish() {
        if (!finished) {
            finished = true;
            for (int j = 0; j < OPEN; j++) {
                if (slotStep[j] >= 0) {
                    slots[j].finish();
                }
            }
        }
    }

    public Steps steps() {
        return steps;
    }

    /** Whether step {@code s} is one of the tally's (it starts in the window). */
    public boolean included(int s) {
        return included[s];
    }

    public long kernels(int s) {
        return kernels[s];
    }

    public long gpuNs(int s) {
        return gpuNs[s];
    }

    public long busyNs(int s) {
        finish();
        return busyNs[s];
    }

    public boolean approximate(int s) {
        return approximate[s];
    }

    /** Kernels (of the scope) that belong to none of the tally's steps, and their summed duration. */
    public long outsideKernels() {
        return outsideKernels;
    }

    public long outsideGpuNs() {
        return outsideGpuNs;
    }
}
