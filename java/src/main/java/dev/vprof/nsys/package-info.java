/**
 * Nsight Systems SQLite exports as a source of a capture's records: {@link
 * dev.vprof.nsys.NsysExport} opens an {@code nsys export --type sqlite} file read-only (schema 2.x
 * and 3.x), checks that it is one, and streams its kernels, copies, sets, CUDA API calls and NVTX
 * events in start order (one SQL query per table, merged) into the same ring records an agent
 * writes, one capture process per nsys process, with its threads' names, its GPUs and the
 * session clock's anchor as clock pairs. {@code source.CaptureSources.open} reads an export
 * through a temporary capture; {@code vprof import} stores one. The mapping, and what is not
 * read: docs/nsys-input.md.
 */
package dev.vprof.nsys;
