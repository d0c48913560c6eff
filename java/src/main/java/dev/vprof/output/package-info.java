/**
 * Every file vprof writes for a person (captures, exports, pages, archives, imported traces):
 * written aside under a recognisable temporary name, claimed atomically, nothing left behind.
 *
 * <p>{@link OutputFile} is the one way to write an output: a temporary file beside the target,
 * created exclusively ({@code .NAME.vprof-tmp-PID-N}), synced, then moved onto the target in one
 * step that fails when the target appeared meanwhile, unless the person asked to replace it.
 * {@link TempFolder} is the work folder of a writer that needs several files before its output
 * (merge's per-node traces). Both are removed when the writer fails, and by a shutdown hook when
 * the JVM ends on SIGINT, SIGTERM or SIGHUP ({@link Live}); what a SIGKILL leaves is removed by
 * the next writer into the same folder ({@link Leftovers}). The package depends on nothing of
 * vprof's, so every writer can use it.
 */
package dev.vprof.output;
