package dev.vprof.trace;

import dev.vprof.capture.ArgsCodec;

/**
 * One trace event as {@link TraceTokenizer} read it, reused from event to event: the fields the
 * mapping reads ({@link EventMapper}), and every field it might have to give back (each arg
 * encoded with its span, the top-level fields the mapping does not read), so that what the ring
 * records cannot hold is kept in an ARGS record.
 */
final class KinetoEvent {
    /** The args the mapping reads; {@link #OTHER} for any other. */
    enum Arg {
        DEVICE("device", true), STREAM("stream", true), CORRELATION("correlation", true), CONTEXT("context", true),
        CBID("cbid", true), BYTES("bytes", true), REGISTERS("registers per thread", true),
        SHARED_MEMORY("shared memory", true), GRAPH_ID("graph id", false), GRAPH_NODE_ID("graph node id", false),
        GRID("grid", true), BLOCK("block", true), NAME("name", false), LABELS("labels", false), OTHER(null, false);

        /** The key. */
        final String key;
        /** Whether a ring record may hold it exactly (then it is read into the event, not encoded). */
        final boolean fromRecord;

        Arg(String key, boolean fromRecord) {
            this.key = key;
            this.fromRecord = fromRecord;
        }

        static Arg of(String key) {
            return switch (key) {
                case "device" -> DEVICE;
                case "stream" -> STREAM;
                case "correlation" -> CORRELATION;
                case "context" -> CONTEXT;
                case "cbid" -> CBID;
                case "bytes" -> BYTES;
                case "registers per thread" -> REGISTERS;
                case "shared memory" -> SHARED_MEMORY;
                case "graph id" -> GRAPH_ID;
                case "graph node id" -> GRAPH_NODE_ID;
                case "grid" -> GRID;
                case "block" -> BLOCK;
                case "name" -> NAME;
                case "labels" -> LABELS;
                default -> OTHER;
            };
        }

        int bit() {
            return 1 << ordinal();
        }
    }

    char ph;
    TraceCategory kind;
    /** Whether {@code cat} was spelled as the export spells its kind ({@code kernel}, not the old {@code Kernel}). */
    boolean catCanonical;
    String name;
    long pid;
    boolean pidIsInt;
    long tid;
    boolean tidIsInt;
    String tidText;
    long ts;
    boolean hasTs;
    /** The text of {@code ts} when it holds more than ns can keep (a fourth decimal, an exponent): kept as it was. */
    String tsText;
    long dur;
    boolean hasDur;
    String durText;
    long device = -1;
    long stream = -1;
    long correlation = -1;
    long context = -1;
    long cbid = -1;
    long bytes = -1;
    long registers;
    long sharedMemory;
    long graphId;
    long graphNodeId;
    final long[] grid = new long[3];
    final long[] block = new long[3];
    String argName;
    String argLabels;
    /** The {@link Arg#bit()}s of the args whose value a ring record holds exactly (an int in its field's range). */
    int exact;

    /**
     * The args not read exactly into the fields above, encoded one after another (key id, value),
     * and how many.
     */
    final ArgsCodec.Encoder args = new ArgsCodec.Encoder();
    int spans;
    /** The top-level fields the mapping does not read ({@code "s"}, {@code "id"} on an X event...), encoded as key/value pairs. */
    final ArgsCodec.Encoder other = new ArgsCodec.Encoder();
    int others;
    /** Whether a field could not be kept (nested too deep, or over the size bound). */
    boolean fieldsLost;

    void reset() {
        ph = 0;
        kind = null;
        catCanonical = false;
        name = tidText = argName = argLabels = tsText = durText = null;
        pid = tid = 0;
        pidIsInt = tidIsInt = hasTs = hasDur = false;
        ts = dur = 0;
        device = stream = correlation = context = cbid = bytes = -1;
        registers = sharedMemory = graphId = graphNodeId = 0;
        grid[0] = grid[1] = grid[2] = 0;
        block[0] = block[1] = block[2] = 0;
        exact = 0;
        args.reset();
        spans = 0;
        other.reset();
        others = 0;
        fieldsLost = false;
    }

    /** Notes that one more arg was encoded whole. */
    void span() {
        spans++;
    }

    boolean isExact(Arg a) {
        return (exact & a.bit()) != 0;
    }
}
