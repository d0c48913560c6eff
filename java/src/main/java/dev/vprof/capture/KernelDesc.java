package dev.vprof.capture;

/**
 * An interned kernel launch shape (KERNEL_DESC record): what stays the same between launches of
 * one kernel on one stream, and for a CUDA graph's kernel, of one graph node. {@code name} is the
 * resolved STRING, or null when the file does not hold it. {@code graphId} is 0 for a kernel not
 * launched from a graph; {@code graphNodeId} is 0 then, and in files of format 1.
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
        int registers,
        long graphNodeId) {

    public boolean fromGraph() {
        return graphId != 0;
    }
}
