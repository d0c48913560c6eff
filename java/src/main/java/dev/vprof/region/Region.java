package dev.vprof.region;

import dev.vprof.bindings.VprofRing.Control;
import dev.vprof.bindings.VprofRing;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One agent's shared region, {@code /dev/shm/vprof.<pid>}, mapped into this process.
 *
 * <p>The layout comes only from the generated {@link VprofRing} bindings. Nothing in the control
 * block is trusted before {@link #validate} has checked magic, format version, control size, ring
 * capacity against the file size; the owner and the mode are checked before the file is opened.
 *
 * <p>Fields the agent writes concurrently (state, counters, cmd_ack, tail) are read with acquire;
 * fields the front end publishes (cmd_seq, heartbeat, head) are written with release, matching the
 * C side's atomics.
 */
public final class Region implements AutoCloseable {
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final Path path;
    private final int pid;
    private final Arena arena;
    private final MemorySegment control;
    private final MemorySegment ring;

    private Region(Path path, int pid, Arena arena, MemorySegment whole) {
        this.path = path;
        this.pid = pid;
        this.arena = arena;
        this.control = whole.asSlice(0, VprofRing.CONTROL_SIZE);
        this.ring = whole.asSlice(VprofRing.CONTROL_SIZE);
    }

    /** The pid a region file name claims ({@code vprof.<pid>}), or -1 for any other name. */
    public static int pidOf(Path file) {
        String n = file.getFileName().toString();
        String prefix = "vprof.";
        if (!n.startsWith(prefix) || n.length() == prefix.length() || n.length() > prefix.length() + 10) {
            return -1;
        }
        for (int i = prefix.length(); i < n.length(); i++) {
            if (!Character.isDigit(n.charAt(i))) {
                return -1;
            }
        }
        long v = Long.parseLong(n.substring(prefix.length()));
        return v > 0 && v <= Integer.MAX_VALUE ? (int) v : -1;
    }

    /**
     * Checks owner and mode, maps the file and validates the control block.
     *
     * @param writable false for read-only inspection ({@code vprof list})
     */
    public static Region open(Path path, int expectedUid, boolean writable) throws RegionException {
        int pid = pidOf(path);
        String who = pid > 0 ? "the vprof region of pid " + pid + " (" + path + ")" : path.toString();
        checkOwnerAndMode(path, who, expectedUid);
        Arena arena = Arena.ofShared();
        try (FileChannel ch = writable
                ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)
                : FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = ch.size();
            if (size == 0) {
                throw new RegionNotReadyException(who + " is still empty: its agent is starting");
            }
            if (size < VprofRing.CONTROL_SIZE) {
                throw new RegionException(who + " is " + size + " bytes, too small to be a vprof region");
            }
            MemorySegment whole = ch.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
                    0, size, arena);
            validate(whole, who);
            Region r = new Region(path, pid, arena, whole);
            if (pid > 0 && r.declaredPid() != pid) {
                throw new RegionException(who + " says it belongs to pid " + r.declaredPid()
                        + ", not " + pid + "; it is not a region vprof made");
            }
            return r;
        } catch (NoSuchFileException e) {
            arena.close();
            throw new RegionException(who + " vanished (its process exited)");
        } catch (AccessDeniedException e) {
            arena.close();
            throw new RegionException("cannot open " + who + ": permission denied");
        } catch (IOException e) {
            arena.close();
            throw new RegionException("cannot map " + who + ": " + e.getMessage(), e);
        } catch (RegionException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    static void checkOwnerAndMode(Path path, String who, int expectedUid) throws RegionException {
        int uid;
        Set<PosixFilePermission> perms;
        try {
            // The link itself, not what it points to: a link another user planted must not pass
            // for one of our files. And only a regular file: opening a FIFO would block.
            PosixFileAttributes attrs = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attrs.isRegularFile()) {
                throw new RegionException(who + " is " + (attrs.isSymbolicLink() ? "a symbolic link"
                        : attrs.isDirectory() ? "a directory" : "not a regular file")
                        + "; a vprof agent makes regular files only, so it is refused");
            }
            uid = (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            perms = attrs.permissions();
        } catch (NoSuchFileException e) {
            throw new RegionException(who + " vanished (its process exited)");
        } catch (IOException e) {
            throw new RegionException("cannot inspect " + who + ": " + e.getMessage(), e);
        }
        if (uid != expectedUid) {
            throw new RegionException(who + " belongs to user id " + uid + ", not to you (uid "
                    + expectedUid + "); run vprof as the user who owns that process");
        }
        if (!perms.equals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE))) {
            throw new RegionException(who + " has mode " + PosixFilePermissions.toString(perms)
                    + " instead of rw-------; refusing a region that others can open");
        }
    }

    /**
     * Validates the control block in {@code whole} (the entire file). Order matters: magic, then
     * version, then sizes; nothing else is read before they pass.
     */
    public static void validate(MemorySegment whole, String who) throws RegionException {
        long magic = (long) LONG.getAcquire(whole, Control.MAGIC);
        if (magic == 0) {
            throw new RegionNotReadyException(who + " has no identity yet: its agent is starting");
        }
        if (magic != VprofRing.MAGIC) {
            throw new RegionException(who + " is not a vprof region (magic 0x" + Long.toHexString(magic) + ")");
        }
        int version = whole.get(ValueLayout.JAVA_INT, Control.FORMAT_VERSION);
        if (version != VprofRing.FORMAT_VERSION) {
            throw new RegionException(who + " uses region format version " + Integer.toUnsignedString(version)
                    + " but this vprof reads version " + VprofRing.FORMAT_VERSION
                    + "; use the vprof whose agent started that process (its agent-path)");
        }
        int controlSize = whole.get(ValueLayout.JAVA_INT, Control.CONTROL_SIZE);
        if (controlSize != VprofRing.CONTROL_SIZE) {
            throw new RegionException(who + " declares a control block of " + Integer.toUnsignedString(controlSize)
                    + " bytes, expected " + VprofRing.CONTROL_SIZE + "; the region is corrupt");
        }
        long capacity = whole.get(ValueLayout.JAVA_LONG, Control.RING_CAPACITY);
        if (capacity < VprofRing.RING_MIN || capacity > VprofRing.RING_MAX || Long.bitCount(capacity) != 1) {
            throw new RegionException(who + " declares a ring of " + capacity
                    + " bytes, not a power of two between " + VprofRing.RING_MIN + " and " + VprofRing.RING_MAX
                    + "; the region is corrupt");
        }
        if (whole.byteSize() != VprofRing.CONTROL_SIZE + capacity) {
            throw new RegionException(who + " is " + whole.byteSize() + " bytes but declares "
                    + (VprofRing.CONTROL_SIZE + capacity) + " (4096 + ring); the region is corrupt");
        }
    }

    public Path path() { return path; }

    /** The pid from the file name. */
    public int pid() { return pid; }

    public int declaredPid() { return control.get(ValueLayout.JAVA_INT, Control.PID); }

    public MemorySegment control() { return control; }

    /** The ring bytes: a power-of-two slice right after the control block. */
    public MemorySegment ring() { return ring; }

    public long capacity() { return ring.byteSize(); }

    public AgentState state() {
        return AgentState.of(Integer.toUnsignedLong((int) INT.getAcquire(control, Control.STATE)));
    }

    public int cuptiVersion() { return (int) INT.getAcquire(control, Control.CUPTI_VERSION); }

    public long agentFlags() { return control.get(ValueLayout.JAVA_LONG, Control.AGENT_FLAGS); }

    public long startRealtimeNs() { return control.get(ValueLayout.JAVA_LONG, Control.START_REALTIME_NS); }

    public String reason() { return cString(Control.REASON, Control.REASON_SIZE); }

    public String cmdline() { return cString(Control.CMDLINE, Control.CMDLINE_SIZE).strip(); }

    public int frontendPid() { return (int) INT.getAcquire(control, Control.FRONTEND_PID); }

    /** RANK from the process's environment, or null where it was not set (the agent writes -1). */
    public Integer rank() { return envInt(Control.RANK); }

    /** LOCAL_RANK, or null. */
    public Integer localRank() { return envInt(Control.LOCAL_RANK); }

    /** WORLD_SIZE, or null. */
    public Integer worldSize() { return envInt(Control.WORLD_SIZE); }

    private Integer envInt(long offset) {
        int v = (int) INT.getAcquire(control, offset);
        return v < 0 ? null : v;
    }

    /** VPROF_CUPTI_* facts the agent learned about its libcupti. */
    public int cuptiFacts() { return (int) INT.getAcquire(control, Control.CUPTI_FACTS); }

    /** VPROF_WARN_* bits the agent raised since it started (sticky). */
    public long warningFlags() { return (long) LONG.getAcquire(control, Control.WARNING_FLAGS); }

    /** Ranges this process began by its own edge (cudaProfilerStart, NVTX push); --range-scope tree relays them. */
    public long localRangeBegins() { return (long) LONG.getAcquire(control, Control.LOCAL_RANGE_BEGINS); }

    /** Ranges this process ended by its own edge (cudaProfilerStop, NVTX pop). */
    public long localRangeEnds() { return (long) LONG.getAcquire(control, Control.LOCAL_RANGE_ENDS); }

    public void setFrontendPid(int frontendPid) { INT.setRelease(control, Control.FRONTEND_PID, frontendPid); }

    /** The capture id of the last ARM (command or VPROF_ARM). */
    public int captureId() { return control.get(ValueLayout.JAVA_INT, Control.CMD_CAPTURE_ID); }

    public long head() { return (long) LONG.getAcquire(control, Control.HEAD); }

    public long tail() { return (long) LONG.getAcquire(control, Control.TAIL); }

    /** Tells the agent this front end is alive; {@code monotonicNs} is CLOCK_MONOTONIC. */
    public void heartbeat(long monotonicNs) {
        LONG.setRelease(control, Control.HEARTBEAT_NS, monotonicNs);
    }

    public long heartbeatTimeoutNs() { return (long) LONG.getAcquire(control, Control.HEARTBEAT_TIMEOUT_NS); }

    /**
     * How long the agent waits for a heartbeat before it disarms itself (the agent sets 5 s when it
     * makes the region). {@code vprof watch} shortens it, so that a watch killed with SIGKILL leaves
     * its agents armed for under a second, and sets the old value back when it lets go.
     */
    public void setHeartbeatTimeoutNs(long ns) { LONG.setRelease(control, Control.HEARTBEAT_TIMEOUT_NS, ns); }

    /**
     * Sends ARM: fills the arguments, publishes cmd_seq + 1 with release, waits for the ack.
     *
     * @return the agent's cmd_result (VprofRing.RESULT_*)
     */
    public int arm(ArmSpec spec, int frontendPid, long timeoutNanos) throws RegionException {
        control.set(ValueLayout.JAVA_INT, Control.CMD_RANGE_MODE, spec.rangeMode());
        control.set(ValueLayout.JAVA_INT, Control.CMD_RANGE_REPEAT, spec.repeat());
        control.set(ValueLayout.JAVA_INT, Control.CMD_KINDS, spec.kinds());
        control.set(ValueLayout.JAVA_INT, Control.CMD_BUFFER_SIZE, spec.bufferSize());
        control.set(ValueLayout.JAVA_INT, Control.CMD_CAPTURE_ID, spec.captureId());
        putCString(Control.CMD_RANGE_NAME, Control.CMD_RANGE_NAME_SIZE, spec.rangeName());
        putCString(Control.CMD_RANGE_DOMAIN, Control.CMD_RANGE_DOMAIN_SIZE, spec.rangeDomain());
        setFrontendPid(frontendPid);
        return command(VprofRing.CMD_ARM, timeoutNanos);
    }

    /**
     * Sends RANGE_BEGIN (or RANGE_END): another process of the tree began (ended) its capture range
     * and this agent, armed for cudaProfilerApi ranges, follows (--range-scope tree).
     *
     * @return the agent's cmd_result; BAD_COMMAND when it is not armed for such ranges
     */
    public int relayRange(boolean begin, long timeoutNanos) throws RegionException {
        return command((begin ? VprofRing.CMD_RANGE_BEGIN : VprofRing.CMD_RANGE_END), timeoutNanos);
    }

    /** Sends DISARM and waits for the ack: the agent ends any open range, drains it, goes DORMANT. */
    public int disarm(long timeoutNanos) throws RegionException {
        return command(VprofRing.CMD_DISARM, timeoutNanos, null);
    }

    /**
     * DISARM, calling {@code whileWaiting} instead of sleeping until the ack: the agent's final
     * flush writes into the ring before it answers, so a front end that does not drain meanwhile
     * makes it drop what does not fit. {@code whileWaiting} returns true when it did some work.
     */
    public int disarm(long timeoutNanos, BooleanSupplier whileWaiting) throws RegionException {
        return command(VprofRing.CMD_DISARM, timeoutNanos, whileWaiting);
    }

    private int command(int cmd, long timeoutNanos) throws RegionException {
        return command(cmd, timeoutNanos, null);
    }

    private int command(int cmd, long timeoutNanos, BooleanSupplier whileWaiting) throws RegionException {
        control.set(ValueLayout.JAVA_INT, Control.CMD, cmd);
        long seq = (long) LONG.getAcquire(control, Control.CMD_SEQ) + 1;
        LONG.setRelease(control, Control.CMD_SEQ, seq);
        long deadline = System.nanoTime() + timeoutNanos;
        while ((long) LONG.getAcquire(control, Control.CMD_ACK) != seq) {
            if (System.nanoTime() - deadline > 0) {
                throw new RegionException("the agent in pid " + pid + " did not answer the "
                        + commandName(cmd) + " command within "
                        + timeoutNanos / 1_000_000 + " ms (state " + state() + "); is the process stopped or hung?");
            }
            if (pid > 0 && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                throw new RegionException("pid " + pid + " exited before its agent answered");
            }
            if (whileWaiting != null && whileWaiting.getAsBoolean()) {
                continue;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RegionException("interrupted while waiting for the agent in pid " + pid);
            }
        }
        return (int) INT.getAcquire(control, Control.CMD_RESULT);
    }

    private static String commandName(int cmd) {
        if (cmd == VprofRing.CMD_ARM) return "ARM";
        if (cmd == VprofRing.CMD_DISARM) return "DISARM";
        if (cmd == VprofRing.CMD_RANGE_BEGIN) return "RANGE_BEGIN";
        if (cmd == VprofRing.CMD_RANGE_END) return "RANGE_END";
        return "command " + cmd;
    }

    private String cString(long offset, long size) {
        MemorySegment s = control.asSlice(offset, size);
        long n = 0;
        while (n < size && s.get(ValueLayout.JAVA_BYTE, n) != 0) {
            n++;
        }
        return new String(s.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    private void putCString(long offset, long size, String value) {
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        int n = (int) Math.min(b.length, size - 1);
        MemorySegment dst = control.asSlice(offset, size);
        dst.fill((byte) 0);
        MemorySegment.copy(b, 0, dst, ValueLayout.JAVA_BYTE, 0, n);
    }

    /** Unmaps. The file stays; {@link #unlink} removes it. */
    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }

    /** Removes the region file: the front end does this once it has read everything of an exited process. */
    public void unlink() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // Best effort: a region that stays is shown as stale by `vprof list` and replaced by the next agent.
        }
    }
}
