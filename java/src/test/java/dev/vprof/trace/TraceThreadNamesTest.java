package dev.vprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.capture.CaptureReader;
import dev.vprof.source.CaptureSources;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A trace's host threads keep the names Kineto gave them; its GPU rows' "stream 7" names are not threads. */
class TraceThreadNamesTest {
    @Test
    void theHostProcessesThreadsAreNamedAsTheTraceNamesThem() throws Exception {
        Path trace = TraceOracle.REAL.resolve("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
        try (CaptureReader reader = CaptureSources.open(trace)) {
            // Thread 1262 is named twice in the trace, pt_main_thread then pt_autograd_0: the last one holds.
            assertEquals(Map.of(1102L, "pt_main_thread", 1262L, "pt_autograd_0"),
                    reader.processes().getFirst().threadNames());
        }
    }

    @Test
    void kinetosThreadLabelGivesTheNameInItsParentheses() {
        assertEquals("pt_autograd_0", EventMapper.threadName("thread 1262 (pt_autograd_0)"));
        assertEquals("stream 7 ", EventMapper.threadName("stream 7 "), "another form, whole");
        assertEquals("thread 5", EventMapper.threadName("thread 5"));
    }
}
