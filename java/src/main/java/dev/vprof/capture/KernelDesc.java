package dev.vprof.capture;

/**
 * An interned kernel launch shape (KERNEL_DESC record): what stays the same between
 * launches of one kernel on one stream. {@code name} is the resolved STRING, or null
 * when the file does not hold it.
 */
public record KernelDesc(
        int id,
        int nameId,
        String name,
        int deviceId,
        int contextId,
        int streamId,
        int graphId,
        int gridX, int gridY, int gridZ,
        int blockX, int blockY, int blockZ,
        int sharedMemory,
        int registers) {}
