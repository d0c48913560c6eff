package dev.vprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mapping stage alone: Kineto events (built here as the tokenizer would hand them over) into
 * vprof events, with an ARGS record holding exactly what the record does not: the args it holds
 * exactly are left out, every other arg and any field it cannot give back as it was are kept.
 */
class EventMapperTest {
    @TempDir
    Path dir;

    private TraceRecordWriter w;
    private TraceFileReader.Parsed out;
    private EventMapper mapper;

    private void start(boolean cpuOps) {
        w = new TraceRecordWriter(dir.resolve("t.json"), dir);
        out = new TraceFileReader.Parsed(dir.resolve("t.json"), w);
        mapper = new EventMapper(out, new TorchTraceOptions(1 << 20, cpuOps), w);
    }

    @AfterEach
    void close() throws IOException {
        out.close();
    }

    private KinetoEvent event(TraceCategory kind, String name, long pid, long tid, long ts, long dur) {
        KinetoEvent e = new KinetoEvent();
        e.reset();
        e.ph = 'X';
        e.kind = kind;
        e.catCanonical = true;
        e.name = name;
        e.pid = pid;
        e.pidIsInt = true;
        e.tid = tid;
        e.tidIsInt = true;
        e.ts = ts;
        e.hasTs = true;
        e.dur = dur;
        e.hasDur = true;
        return e;
    }

    /**
     * An integer arg as the tokenizer hands it over: one a record may hold exactly is only marked so
     * (its value is in the event's field), any other is encoded.
     */
    private void arg(KinetoEvent e, String key, long v, KinetoEvent.Arg a, boolean exact) throws IOException {
        if (exact) {
            e.exact |= a.bit();
            return;
        }
        e.args.key(mapper.key(key));
        e.args.integer(v);
        e.span();
    }

    /**
     * A 500 ns kernel of process {@code pid} on {@code device}, {@code stream} (its tid, as Kineto
     * writes it) and {@code context}, with those three args read into the event.
     */
    private KinetoEvent kernelOn(long pid, long ts, int device, int stream, int context) throws IOException {
        KinetoEvent e = event(TraceCategory.KERNEL, "gemm", pid, stream, ts, 500);
        e.device = device;
        e.stream = stream;
        e.context = context;
        arg(e, "device", device, KinetoEvent.Arg.DEVICE, true);
        arg(e, "stream", stream, KinetoEvent.Arg.STREAM, true);
        arg(e, "context", context, KinetoEvent.Arg.CONTEXT, true);
        return e;
    }

    @Test
    void aKernelKeepsOnlyTheArgsItsRecordsDoNotHold() throws IOException {
        start(true);
        KinetoEvent e = kernelOn(3, 1_000, 3, 7, 1);
        e.correlation = 42;
        arg(e, "External id", 9, KinetoEvent.Arg.OTHER, false);
        arg(e, "correlation", 42, KinetoEvent.Arg.CORRELATION, true);
        arg(e, "queued", 0, KinetoEvent.Arg.OTHER, false);
        mapper.event(e);
        assertEquals(List.of("desc 1", "args {args={External id=9, queued=0}}",
                "kernel gemm 1000..1500 corr 42 dev 3 ctx 1 stream 7 grid 0"), TraceStages.decode(w.records));
        assertEquals(1, out.kernels);
    }

    @Test
    void whatARecordCannotGiveBackIsKept() throws IOException {
        start(true);
        KinetoEvent k = event(TraceCategory.KERNEL, "gemm", 5, 7, 1_000, 500); // pid 5 is not its device
        k.device = 3;
        k.stream = 7;
        arg(k, "device", 3, KinetoEvent.Arg.DEVICE, true);
        arg(k, "stream", 7, KinetoEvent.Arg.STREAM, true);
        mapper.event(k);
        KinetoEvent c = event(TraceCategory.MEMCPY, "Memcpy HtoD (odd words)", 3, 7, 2_000, 10);
        c.device = 3;
        c.stream = 7;
        c.catCanonical = false; // the old spelling, "Memcpy"
        mapper.event(c);
        KinetoEvent api = event(TraceCategory.RUNTIME, "cudaLaunchKernel", 100, 100, 900, 20);
        api.cbid = 211;
        arg(api, "cbid", 211, KinetoEvent.Arg.CBID, true);
        mapper.event(api); // its pid becomes the process's, and 211 is CUPTI's cudaLaunchKernel: nothing kept
        KinetoEvent op = event(TraceCategory.CPU_OP, "aten::mm", 200, -12, 950, 5); // another pid than the process's
        op.tsText = "0.9504";
        mapper.event(op);
        List<String> got = TraceStages.decode(w.records);
        assertEquals(List.of("desc 1", "args {pid=5}", "kernel gemm 1000..1500 corr 0 dev 3 ctx 0 stream 7 grid 0",
                "args {cat=Memcpy, name=Memcpy HtoD (odd words)}", "memcpy 1/0/0 0",
                "api 211 null tid 100",
                "args {pid=200, ts=0.9504}", "cpu_op aten::mm kind " + VprofRing.CPU_OP_OPERATOR + " tid -12 950..955"), got);
        assertEquals(100, out.osPid);
    }

    @Test
    void anArgReadIntoTheEventThatItsRecordDoesNotHoldIsKeptFromTheEvent() throws IOException {
        start(true);
        mapper.event(kernelOn(3, 1_000, 3, 7, 1));
        // stream 7 was first seen in context 1: the export writes 1 for it
        mapper.event(kernelOn(3, 2_000, 3, 7, 2));
        KinetoEvent api = event(TraceCategory.RUNTIME, "cudaLaunchKernel", 100, 100, 900, 20);
        api.cbid = 211;
        api.device = 0; // an API record has no device
        arg(api, "cbid", 211, KinetoEvent.Arg.CBID, true);
        arg(api, "device", 0, KinetoEvent.Arg.DEVICE, true);
        mapper.event(api);
        assertEquals(List.of("desc 1", "kernel gemm 1000..1500 corr 0 dev 3 ctx 1 stream 7 grid 0",
                "desc 2", "args {args={context=2}}", "kernel gemm 2000..2500 corr 0 dev 3 ctx 2 stream 7 grid 0",
                "args {args={device=0}}", "api 211 null tid 100"), TraceStages.decode(w.records));
    }

    @Test
    void eventsLeftOutAreCountedAndCpuOpsCanBeOnlyCounted() throws IOException {
        start(false);
        mapper.event(event(TraceCategory.KERNEL, "k", 0, 7, 1_000, -1));
        KinetoEvent noTs = event(TraceCategory.KERNEL, "k", 0, 7, 1_000, 1);
        noTs.hasTs = false;
        mapper.event(noTs);
        mapper.event(event(TraceCategory.CPU_OP, "aten::mm", 1, 1, 1, 1));
        mapper.event(event(TraceCategory.OTHER, "flow", 1, 1, 1, 1));
        assertEquals(List.of(1L, 1L, 1L, 0L, 1L), List.of(out.negativeDurations, out.missingTimes, out.cpuSkipped,
                out.cpuOps, out.otherEvents));
        assertEquals(List.of(), TraceStages.decode(w.records));
    }
}
