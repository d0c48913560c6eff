package dev.vprof.export;

import dev.vprof.timeline.GpuOp;
import dev.vprof.timeline.GpuOpKind;
import dev.vprof.timeline.Timeline;
import java.io.IOException;
import java.util.Arrays;

/**
 * The Trace Event Format events that the Chrome and Kineto exports both write: one JSON object
 * per call, comma-separated, timestamps in microseconds from {@code base}, names quoted once.
 */
final class TraceEvents {
    final JsonOut json;
    final long base;
    private final Timeline timeline;
    private byte[][] names;
    private final boolean metadataTimestamp;
    private final String flowCategory;
    long count;

    /**
     * @param metadataTimestamp whether "M" events carry {@code "ts":0} (Kineto's own writer does)
     * @param flowCategory the cat and name of launch-to-kernel flow events ("ac2g" for Kineto)
     */
    TraceEvents(JsonOut json, long base, Timeline timeline, boolean metadataTimestamp, String flowCategory) {
        this.json = json;
        this.base = base;
        this.timeline = timeline;
        this.names = new byte[Math.max(16, timeline.strings().size())][];
        this.metadataTimestamp = metadataTimestamp;
        this.flowCategory = flowCategory;
    }

    /** The timeline string {@code id} as it is (null for 0). */
    String text(int id) {
        return id == 0 ? null : timeline.strings().get(id);
    }

    /** The timeline string {@code id}, quoted for JSON (cached). */
    byte[] name(int id) {
        if (id >= names.length) { // a streamed walk may intern names as it goes
            names = Arrays.copyOf(names, Math.max(id + 1, names.length * 2));
        }
        byte[] b = names[id];
        if (b == null) {
            b = JsonOut.quoted(timeline.strings().get(id));
            names[id] = b;
        }
        return b;
    }

    /** A GPU op's name, quoted: its own, or for a copy or set Kineto's name of its kind. */
    byte[] name(GpuOp op) {
        return op.nameId() != 0 ? name(op.nameId()) : JsonOut.quoted(GpuNames.unnamed(op));
    }

    /** The category both JSON formats give a GPU op. */
    static byte[] category(GpuOpKind kind) {
        return kind == GpuOpKind.KERNEL ? KERNEL : kind == GpuOpKind.MEMCPY ? GPU_MEMCPY : GPU_MEMSET;
    }

    private static final byte[] GRID = JsonOut.ascii(",\"grid\":[");
    private static final byte[] BLOCK = JsonOut.ascii("],\"block\":[");

    /** A kernel's {@code ,"grid":[x,y,z],"block":[x,y,z]} args. */
    void gridAndBlock(GpuOp op) throws IOException {
        json.raw(GRID);
        dim3(op.gridX(), op.gridY(), op.gridZ());
        json.raw(BLOCK);
        dim3(op.blockX(), op.blockY(), op.blockZ());
        json.raw(']');
    }

    /** The three numbers of a CUDA dim3, comma-separated. */
    private void dim3(long x, long y, long z) throws IOException {
        json.number(x);
        json.raw(',');
        json.number(y);
        json.raw(',');
        json.number(z);
    }

    /** The separator before the next event. */
    void next() throws IOException {
        json.raw(count++ == 0 ? "\n" : ",\n");
        json.maybeFlush();
    }

    void metadata(String what, long pid, long tid, String key, String value) throws IOException {
        next();
        json.raw("{\"name\":\"");
        json.raw(what);
        json.raw(metadataTimestamp ? "\",\"ph\":\"M\",\"ts\":0.000,\"pid\":" : "\",\"ph\":\"M\",\"pid\":");
        json.number(pid);
        json.raw(",\"tid\":");
        json.number(tid);
        json.raw(",\"args\":{\"");
        json.raw(key);
        json.raw("\":");
        json.string(value);
        json.raw("}}");
    }

    private static final byte[] X_CAT = JsonOut.ascii("{\"ph\":\"X\",\"cat\":\"");
    private static final byte[] NAME = JsonOut.ascii("\",\"name\":");
    private static final byte[] PID = JsonOut.ascii(",\"pid\":");
    private static final byte[] TID = JsonOut.ascii(",\"tid\":");
    private static final byte[] TS = JsonOut.ascii(",\"ts\":");
    private static final byte[] DUR = JsonOut.ascii(",\"dur\":");
    private static final byte[] ARGS = JsonOut.ascii(",\"args\":{");
    private static final byte[] KERNEL = JsonOut.ascii("kernel");
    private static final byte[] GPU_MEMCPY = JsonOut.ascii("gpu_memcpy");
    private static final byte[] GPU_MEMSET = JsonOut.ascii("gpu_memset");

    /** Opens an X event up to its args; the caller writes args (or none) and closes with "}}". */
    void complete(byte[] quotedName, String cat, long pid, long tid, long start, long end) throws IOException {
        next();
        json.raw(X_CAT);
        json.raw(cat);
        completeAfterCategory(quotedName, pid, tid, start, end);
    }

    /** {@link #complete(byte[], String, long, long, long, long)} with the category as bytes. */
    void complete(byte[] quotedName, byte[] cat, long pid, long tid, long start, long end) throws IOException {
        next();
        json.raw(X_CAT);
        json.raw(cat);
        completeAfterCategory(quotedName, pid, tid, start, end);
    }

    private void completeAfterCategory(byte[] quotedName, long pid, long tid, long start, long end) throws IOException {
        json.raw(NAME);
        json.raw(quotedName);
        json.raw(PID);
        json.number(pid);
        json.raw(TID);
        json.number(tid);
        json.raw(TS);
        json.micros(start - base);
        json.raw(DUR);
        json.micros(end - start);
        json.raw(ARGS);
    }

    /** One end of a launch-to-kernel flow: 's' at the API call, 'f' at the kernel. */
    void flow(char phase, long id, long pid, long tid, long ts) throws IOException {
        next();
        json.raw("{\"ph\":\"");
        json.raw(phase);
        json.raw("\",\"cat\":\"");
        json.raw(flowCategory);
        json.raw("\",\"name\":\"");
        json.raw(flowCategory);
        json.raw("\",\"id\":");
        json.number(id);
        json.raw(",\"pid\":");
        json.number(pid);
        json.raw(",\"tid\":");
        json.number(tid);
        json.raw(",\"ts\":");
        json.micros(ts - base);
        // A flow end binds to the slice that encloses it, i.e. the kernel starting there.
        json.raw(phase == 'f' ? ",\"bp\":\"e\"}" : "}");
    }
}
