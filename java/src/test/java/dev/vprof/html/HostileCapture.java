package dev.vprof.html;

import dev.vprof.capture.CaptureFormat;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.capture.SpansV1;
import dev.vprof.otlp.Attribute;
import dev.vprof.otlp.Span;
import dev.vprof.otlp.SpanKind;
import dev.vprof.otlp.StatusCode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A capture whose strings are markup: a kernel named {@link #KERNEL}, a request whose id attribute
 * is {@link #ATTRIBUTE}, and a command line and host with tags and quotes. Kernels at 0.5 to 3 s
 * of the capture, the request from 1 to 2.5 s.
 */
final class HostileCapture {
    private HostileCapture() {}

    static final String KERNEL = "<img src=x onerror=alert(1)>";
    static final String ATTRIBUTE = "</script><script>alert(2)</script>";
    static final String COMMAND = "python3 -c \"print('<b onmouseover=alert(3)>x</b>')\"";
    static final long R0 = 1_760_000_000_000_000_000L;
    static final int PID = 4242;
    static final long MS = 1_000_000L;

    static Path write(Path file) throws IOException {
        return write(file, 1);
    }

    /** Durations of the hostile kernel's runs in ms: (1 + i % 7) for the i-th kernel, i % 3 != 0. */
    static long hostileKernelNs(int i) {
        return (1 + i % 7) * MS;
    }

    /** As {@link #write(Path)}, with the hostile kernel's runs {@code slower} times as long. */
    static Path write(Path file, int slower) throws IOException {
        try (CaptureWriter w = CaptureWriter.create(file, new CaptureMetadata("<i>host</i>", R0, "0.1.0",
                List.of("vprof", "run", "--", "<svg onload=alert(4)>"), Map.of()))) {
            w.process(new ProcessInfo(PID, 1, COMMAND, 130000, 1, 1 << 20, R0));
            RingRecords r = new RingRecords();
            for (int i = 0; i <= 4; i++) {
                r.clockSync(R0 + i * 1000L * MS, R0 + i * 1000L * MS, i * 1000L * MS);
            }
            r.string(1, KERNEL).string(2, "ok_kernel").kernelDesc(1, 1, 0, 7).kernelDesc(2, 2, 0, 7);
            for (int i = 0; i < 50; i++) {
                long t = R0 + 500 * MS + i * 50L * MS;
                boolean hostile = i % 3 != 0;
                r.kernel(t, t + hostileKernelNs(i) * (hostile ? slower : 1), 10 + i, hostile ? 1 : 2);
            }
            r.writeTo(w, PID);
            byte[] trace = new byte[16];
            trace[15] = 9;
            byte[] span = new byte[8];
            span[7] = 1;
            Span request = new Span(trace, span, new byte[0], "llm_request", SpanKind.SERVER, R0 + 1000 * MS,
                    R0 + 2500 * MS, List.of(Attribute.of("gen_ai.request.id", ATTRIBUTE),
                            Attribute.of("gen_ai.latency.time_in_queue", 0.25),
                            Attribute.of("gen_ai.latency.time_in_model_prefill", 0.25),
                            Attribute.of("gen_ai.latency.time_in_model_decode", 0.75),
                            Attribute.of("gen_ai.latency.time_to_first_token", 0.5),
                            Attribute.of("gen_ai.latency.e2e", 1.5),
                            Attribute.of("note", ATTRIBUTE)),
                    StatusCode.UNSET, "", "vllm", "test", "1");
            w.chunk(CaptureFormat.KIND_SPANS, SpansV1.encode(List.of(request)));
        }
        return file;
    }
}
