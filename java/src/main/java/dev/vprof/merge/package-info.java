/**
 * One view of a multi-node run: each capture's node identity and clock evidence
 * ({@link dev.vprof.capture.NodeEvidence}, {@link dev.vprof.capture.TimeSync}, written by the engine),
 * the offset of each node's clock measured from the ends of the collectives every rank joined
 * ({@link dev.vprof.merge.OffsetEstimate}), and {@code vprof merge}'s archive: a Perfetto
 * manifest with one machine per node and the per-node {@code .pftrace} files written by the
 * ordinary Perfetto sink ({@link dev.vprof.merge.RunMerge}). docs/multinode.md says how to run
 * it on a cluster and what the offset is measured on.
 */
package dev.vprof.merge;
