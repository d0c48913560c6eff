package dev.vprof.capture;

/**
 * What does not change between launches of one kernel on one stream: the fields of one
 * KERNEL_DESC record but its id. Readers that translate other tools' files into records key their
 * interned shapes by it and write each new one with {@link RecordEncoder#kernelDesc}.
 */
public record KernelShape(int nameId, int device, int context, int stream, int gx, int gy, int gz, int bx, int by,
                          int bz, int sharedMemory, int registers, int graphId, long graphNodeId) {}
