package dev.vprof.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.vprof.bindings.VprofRing;
import dev.vprof.capture.CaptureMetadata;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CaptureWriter;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RingRecords;
import dev.vprof.names.KernelNames;
import dev.vprof.timeline.GpuDevice;
import dev.vprof.timeline.Timeline;
import dev.vprof.timeline.TimelineProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's half of the Kineto export on the timeline: device properties from DEVICE records, ranks from the agent. */
class DeviceAndRankTimelineTest {

    @TempDir
    Path dir;

    @Test
    void deviceRecordsFillTheDevicePropertiesAndRanksComeFromTheProcess() throws IOException {
        Path file = dir.resolve("d.vprof");
        try (CaptureWriter w = CaptureWriter.create(file, new CaptureMetadata("h", 1, "0", List.of(), Map.of()))) {
            w.process(new ProcessInfo(20, 1, "worker 0", 130001, 1, 1 << 20, 1L, 0, 0, 2));
            w.process(new ProcessInfo(21, 1, "worker 1", 130001, 1, 1 << 20, 1L));
            new RingRecords()
                    .string(1, "NVIDIA H100 80GB HBM3")
                    .device(0, 1, 132, 85_520_809_984L, 9, 0)
                    .rangeBegin(VprofRing.SOURCE_COMMAND, 1, 1, 1000)
                    .string(2, "k").kernelDesc(1, 2, 0, 7).kernel(1100, 1200, 5, 1)
                    .rangeEnd(VprofRing.SOURCE_COMMAND, 1, 1, 2000, 0, 0, 0)
                    .writeTo(w, 20);
        }
        Timeline t;
        try (CaptureReader c = CaptureReader.open(file)) {
            t = CaptureTimeline.stream(c, KernelNames.demangled(), null).timeline();
        }
        TimelineProcess p = t.process(20);
        assertEquals(0, p.rank());
        assertEquals(2, p.worldSize());
        GpuDevice d = p.device(0);
        assertEquals("NVIDIA H100 80GB HBM3", d.name());
        assertEquals(132, d.numSms());
        assertEquals(85_520_809_984L, d.totalGlobalMemBytes());
        assertEquals(9, d.computeMajor());
        assertEquals(new GpuDevice.Limits(32, 1024, 2048, 65536, 65536, 49152, 233472), d.limits());
        assertNull(t.process(21).rank(), "a process without RANK has none");
    }
}
