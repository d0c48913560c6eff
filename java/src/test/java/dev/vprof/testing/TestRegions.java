package dev.vprof.testing;

import dev.vprof.bindings.VprofRing;
import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.nativelib.Posix;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Consumer;

/** Builds region files the way an agent would, so the front end can be tested without one. */
public final class TestRegions {
    private TestRegions() {}

    /** A ring-only test setup: a control block and a ring of {@code capacity} bytes in memory. */
    public static MemorySegment[] inMemory(Arena arena, long capacity) {
        MemorySegment control = arena.allocate(VprofRing.CONTROL_SIZE, 4096);
        MemorySegment ring = arena.allocate(capacity, 4096);
        return new MemorySegment[] {control, ring};
    }

    /**
     * Writes {@code dir/vprof.<pid>} (mode 0600) with a valid DORMANT control block, then lets
     * {@code edit} change the mapped control block (to break it, or set state, reason ...).
     */
    public static Path create(Path dir, int pid, long capacity, Consumer<MemorySegment> edit) throws IOException {
        Path p = dir.resolve("vprof." + pid);
        Files.deleteIfExists(p);
        Files.createFile(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofConfined()) {
            ch.truncate(0);
            ch.write(java.nio.ByteBuffer.allocate(1), VprofRing.CONTROL_SIZE + capacity - 1);
            MemorySegment c = ch.map(FileChannel.MapMode.READ_WRITE, 0, VprofRing.CONTROL_SIZE, arena);
            c.set(ValueLayout.JAVA_LONG, Control.MAGIC, VprofRing.MAGIC);
            c.set(ValueLayout.JAVA_INT, Control.FORMAT_VERSION, VprofRing.FORMAT_VERSION);
            c.set(ValueLayout.JAVA_INT, Control.CONTROL_SIZE, (int) VprofRing.CONTROL_SIZE);
            c.set(ValueLayout.JAVA_LONG, Control.RING_CAPACITY, capacity);
            c.set(ValueLayout.JAVA_INT, Control.PID, pid);
            c.set(ValueLayout.JAVA_INT, Control.UID, Posix.getuid());
            c.set(ValueLayout.JAVA_INT, Control.CUPTI_VERSION, 130001);
            c.set(ValueLayout.JAVA_INT, Control.STATE, VprofRing.STATE_DORMANT);
            c.set(ValueLayout.JAVA_LONG, Control.HEARTBEAT_TIMEOUT_NS, 5_000_000_000L);
            c.set(ValueLayout.JAVA_INT, Control.RANK, -1); // as the agent writes "not set"
            c.set(ValueLayout.JAVA_INT, Control.LOCAL_RANK, -1);
            c.set(ValueLayout.JAVA_INT, Control.WORLD_SIZE, -1);
            putString(c, Control.CMDLINE, "fake-target --steps 10");
            edit.accept(c);
        }
        return p;
    }

    public static void putString(MemorySegment control, long offset, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(b, 0, control, ValueLayout.JAVA_BYTE, offset, b.length);
        control.set(ValueLayout.JAVA_BYTE, offset + b.length, (byte) 0);
    }
}
