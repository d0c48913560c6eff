/**
 * Sources of a capture's records: where what a command reads comes from. A {@code .vprof} file
 * is read as it is; other sources (PyTorch profiler traces) become the same records, so every
 * analysis and every sink reads one model whatever the source was.
 */
package dev.vprof.source;
