package dev.vprof.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vprof.bindings.VprofRing;
import org.junit.jupiter.api.Test;

class RecordTypeNamesTest {
    @Test
    void everyRecordTypeIsNamedAsTheRingHeaderNamesItAndAnUnknownOneByNumber() {
        assertEquals("KERNEL_DESC", RecordDecoder.typeName(VprofRing.REC_KERNEL_DESC));
        assertEquals("CLOCK_SYNC", RecordDecoder.typeName(VprofRing.REC_CLOCK_SYNC));
        assertEquals("DEVICE", RecordDecoder.typeName(VprofRing.REC_DEVICE));
        for (int t = 1; t <= VprofRing.REC_TYPE_MAX; t++) {
            assertEquals(false, RecordDecoder.typeName(t).startsWith("type "), "type " + t + " has a name");
        }
        assertEquals("type 99", RecordDecoder.typeName(99));
    }
}
