package dev.vprof.aggregate;

import dev.vprof.time.Clocks;

/**
 * Analyses that ride on another view's pass over the records rather than making their own: the
 * report's pass carries the page's analyses, so that {@code report --html} reads the records once
 * for the report's tables, its step table and the analyses alike.
 */
public interface Rider {
    /**
     * Called once the capture's steps are known ({@link StepFinder#scan}), before the pass: makes the
     * sinks; returns whether any of them reads epoch times (the pass then places kernels through
     * {@code fitted}, the clocks the scan fitted).
     */
    boolean prepare(Steps steps, Clocks fitted);

    /** Adds the sinks to {@code pass}, whose kernels carry their step. */
    void join(KernelPass pass);
}
