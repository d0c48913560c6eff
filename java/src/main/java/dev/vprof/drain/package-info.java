/**
 * The consumer side of an agent's ring ({@code native/include/vprof_ring.h}):
 * {@link dev.vprof.drain.RingReader} loads each record's length with acquire, gathers committed
 * records into contiguous runs handed to a {@link dev.vprof.drain.RecordSink} in one copy, zeroes
 * them and publishes the head with release. Every length and type is checked against the ring
 * before use; a ring that breaks the protocol is reported
 * ({@link dev.vprof.drain.RingCorruptException}), never read past. Confined to the one drain
 * thread; no allocation per record.
 */
package dev.vprof.drain;
