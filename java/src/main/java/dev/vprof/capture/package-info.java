/**
 * The {@code .vprof} capture file: its framing and every chunk codec, in one place.
 *
 * <p>{@link dev.vprof.capture.CaptureFormat} draws the layout (file header, checksummed chunks,
 * footer index, trailer) and holds its constants; {@link dev.vprof.capture.CaptureWriter} writes
 * it from the one thread that drains the rings; {@link dev.vprof.capture.CaptureReader} maps it
 * and reads it back, past damage, with every length bounded. One codec per chunk kind:
 * <ul>
 * <li>METADATA, PROCESS, COUNTERS: JSON ({@link dev.vprof.capture.CaptureMetadata},
 *     {@link dev.vprof.capture.ProcessInfo}, {@link dev.vprof.capture.AgentCounters} through
 *     {@code CaptureJson});</li>
 * <li>RECORDS: the ring's own records, byte for byte, decoded by
 *     {@link dev.vprof.capture.RecordDecoder} into {@link dev.vprof.capture.RecordVisitor} calls;</li>
 * <li>METRICS: {@link dev.vprof.capture.MetricsCodec}; SPANS: {@link dev.vprof.capture.SpansCodec};
 *     WINDOW: {@link dev.vprof.capture.WindowChunk}.</li>
 * </ul>
 * Readers above this package use the typed reads ({@link dev.vprof.capture.CaptureReader#forEachRecord},
 * {@link dev.vprof.capture.CaptureReader#scrapes}, {@link dev.vprof.capture.CaptureReader#spans},
 * {@link dev.vprof.capture.CaptureReader#window}) rather than decode payloads themselves. The file
 * keeps what the sources said (CUPTI's mangled kernel names, the server's samples, the spans'
 * requests); how it is shown (demangled names, windows, lanes) is the business of report and export.
 *
 * <p><b>SPANS chunks keep the OTLP bytes as received.</b> Each OTLP export request that held an
 * accepted span is stored whole, protobuf or JSON as it arrived (gzip undone), and decoded when
 * the file is read: a bug in vprof's OTLP decoder found later is fixed for old captures too, by
 * reading them with a newer vprof. The capture decodes each request once as it arrives, only to
 * answer the sender (partial success), count the spans and push back when it falls behind.
 * Spans imported with {@code --spans} are stored as the requests read from the file (each OTLP
 * JSON line, or the whole document); a Jaeger export is not OTLP, so its spans are stored as
 * requests vprof encodes itself. A received request always fits one chunk ({@code --otlp-max-body}
 * is at most 32 MiB); an imported document larger than a chunk can hold is stored as requests
 * vprof encodes from its spans. Version 1 chunks (spans as vprof decoded them, as every span was
 * stored before version 2) are still read, no longer written. Deflated, the requests take about
 * what the decoded spans took (the demo's 100 spans: 18.2 KB against 18.1 KB).
 *
 * <p><b>Compatibility.</b> {@link dev.vprof.capture.CaptureFormat#FORMAT_VERSION} is raised only for
 * a change an older reader cannot skip; such a file is refused with a message that names both
 * versions. Chunk payloads carry their own versions (METRICS {@code VPM1}, SPANS 1 and 2): this
 * vprof reads every version it ever wrote, and an older vprof that meets a newer chunk leaves it out
 * with a note and reads the rest.
 */
package dev.vprof.capture;
