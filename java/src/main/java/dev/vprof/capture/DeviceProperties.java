package dev.vprof.capture;

/**
 * A DEVICE record: one GPU's properties from CUPTI's device record, sent once per device and
 * arming before the first record that names the device. Sizes are bytes, the clock kHz, the
 * bandwidth KB/s; {@code name} is null when the file lacks its STRING.
 */
public record DeviceProperties(
        int id,
        String name,
        long globalMemoryBytes,
        long globalMemoryBandwidthKbps,
        int smCount,
        int computeMajor,
        int computeMinor,
        int coreClockKHz,
        int l2CacheBytes,
        int warpSize,
        int maxThreadsPerBlock,
        int maxWarpsPerSm,
        int maxBlocksPerSm,
        int maxSharedMemoryPerSm,
        int maxSharedMemoryPerBlock,
        int maxRegistersPerSm,
        int maxRegistersPerBlock,
        boolean eccEnabled,
        boolean migEnabled,
        String uuid) {

    /** Threads an SM can hold: its warps times the warp size. */
    public int maxThreadsPerSm() {
        return maxWarpsPerSm * warpSize;
    }
}
