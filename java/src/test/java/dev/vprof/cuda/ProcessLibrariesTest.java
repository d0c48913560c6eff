package dev.vprof.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessLibrariesTest {
    private static final String SITE = "/srv/venv/lib/python3.12/site-packages";

    @Test
    void mapsGiveTheLoadedCuptiTheCudartAndTheSitePackages() {
        String maps = String.join("\n",
                "55d1c000-55d1d000 r-xp 00000000 08:01 12 /usr/bin/python3.12",
                "7f00a000-7f00b000 r-xp 00000000 08:01 13 " + SITE + "/torch/lib/libtorch_cuda.so",
                "7f00c000-7f00d000 r-xp 00000000 08:01 14 " + SITE + "/nvidia/cuda_runtime/lib/libcudart.so.12",
                "7f00e000-7f00f000 r-xp 00000000 08:01 15 " + SITE + "/nvidia/cuda_cupti/lib/libcupti.so.12",
                "7f010000-7f011000 rw-p 00000000 00:00 0 [heap]",
                "7f012000-7f013000 r--s 00000000 00:05 16 /dev/shm/vprof.42 (deleted)");
        ProcessLibraries libs = ProcessLibraries.parse(maps);
        assertEquals(Path.of(SITE + "/nvidia/cuda_cupti/lib/libcupti.so.12"), libs.cupti());
        assertEquals(Path.of(SITE + "/nvidia/cuda_runtime/lib/libcudart.so.12"), libs.cudart());
        assertEquals(List.of(Path.of(SITE)), libs.sitePackages());
    }

    @Test
    void aCuda12CudartPointsAtItsSiblingCuptiWheelAndACuda13OneAtItsOwnFolder() {
        ProcessLibraries cu12 = ProcessLibraries.parse(
                "7f00c000-7f00d000 r-xp 00000000 08:01 14 " + SITE + "/nvidia/cuda_runtime/lib/libcudart.so.12");
        assertTrue(cu12.cuptiNextToCudart().contains(Path.of(SITE + "/nvidia/cuda_cupti/lib/libcupti.so.12")));
        ProcessLibraries cu13 = ProcessLibraries.parse(
                "7f00c000-7f00d000 r-xp 00000000 08:01 14 /usr/lib/python3/dist-packages/nvidia/cu13/lib/libcudart.so.13");
        assertTrue(cu13.cuptiNextToCudart().contains(Path.of("/usr/lib/python3/dist-packages/nvidia/cu13/lib/libcupti.so.13")));
        assertEquals(List.of(Path.of("/usr/lib/python3/dist-packages")), cu13.sitePackages());
        assertNull(cu13.cupti());
    }

    @Test
    void aLibraryPathNamesItsWheelOnlyWhereTheWheelPutsIt() {
        var w = PipCuda.wheelOf(Path.of(SITE + "/nvidia/cu13/lib/libcupti.so.13")).orElseThrow();
        assertEquals(PipCuda.Wheel.CU13, w.wheel());
        assertEquals(Path.of(SITE), w.sitePackages());
        assertEquals(PipCuda.Wheel.CU12,
                PipCuda.wheelOf(Path.of(SITE + "/nvidia/cuda_cupti/lib/libcupti.so.12")).orElseThrow().wheel());
        assertTrue(PipCuda.wheelOf(Path.of("/usr/local/cuda/lib64/libcupti.so.13")).isEmpty());
    }
}
