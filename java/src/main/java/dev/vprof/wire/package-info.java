/**
 * Bytes on the wire: {@link dev.vprof.wire.WireWriter} encodes varints, fixed-width values and
 * protobuf fields into a growable buffer; {@link dev.vprof.wire.WireReader} reads them back from
 * untrusted input with every length bounded. Protobuf messages (Perfetto traces, OTLP) and the
 * capture file's compact chunks are both written and read through these two classes, which
 * know nothing of what the bytes mean.
 */
package dev.vprof.wire;
