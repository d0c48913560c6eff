/**
 * PyTorch profiler (Kineto) traces as a source of a capture's records: {@link
 * dev.vprof.trace.TorchTraceImport} streams each trace file with Jackson's streaming parser
 * (bounded: decompressed bytes, token length, distinct names) into the same ring records an agent
 * writes, one process per file with its rank and world size, so report, export and every other
 * reader of a capture read a trace unchanged. {@code source.CaptureSources.open} uses it for a
 * trace or a folder of rank traces; {@code vprof import} stores the result; a live capture folds
 * traces in with {@link dev.vprof.trace.TorchTraceImport#into}. The mapping of each trace field,
 * and what is dropped, is docs/pytorch-traces.md.
 */
package dev.vprof.trace;
