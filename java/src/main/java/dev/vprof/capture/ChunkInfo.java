package dev.vprof.capture;

/** Where one chunk lies in a capture file: the offset of its header, its kind and payload length. */
public record ChunkInfo(long offset, int kind, int length) {}
