package dev.vprof.replay;

import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.ReadStats;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.ProcessInfo;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.source.CaptureSources;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the replay script of a capture: one pass over its records (streaming: the operations go
 * to a temporary file as they come, only the distinct names and the processes are held), then the
 * script: header, processes (ordered by rank, then pid; processes without GPU work left out),
 * names, operations. The layout is the one {@code native/src/sim/simgpu_replay.h} reads.
 */
public final class ReplayScript {
    static final byte[] MAGIC = "VPRFRPL1".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int OP_BYTES = 72;
    /** What the player accepts (native/src/sim/simgpu_replay.h). */
    static final int MAX_PROCESSES = 64;
    static final int MAX_DEVICES = 64;
    static final int KERNEL = 1;
    static final int MEMCPY = 2;
    static final int MEMSET = 3;

    /**
     * What a script holds, what of the source it left out (each counted, never silently), and how the
     * source was read ({@code health}: a damaged capture's script holds what could be read).
     */
    public record Summary(int processes, long kernels, long memcpys, long memsets, long invalidTimestamps,
                          long unknownCopyKinds, long otherDevices, ReadStats health) {
        public long operations() {
            return kernels + memcpys + memsets;
        }
    }

    private ReplayScript() {}

    /** A source read partly whose readable part holds nothing to replay: its read health says why. */
    public static final class NothingRead extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient ReadStats health;

        NothingRead(ReadStats health) {
            super(health.summary() + "; nothing in what could be read is a kernel, copy or set to replay");
            this.health = health;
        }

        public ReadStats health() {
            return health;
        }
    }

    /** Reads {@code source} through {@link CaptureSources#open} and writes its script to {@code script}. */
    public static Summary write(Path source, Path script) throws IOException {
        Path ops = Files.createTempFile(script.toAbsolutePath().getParent(), ".vprof-replay-ops", ".tmp");
        try (CaptureReader reader = CaptureSources.open(source)) {
            Walk walk = new Walk();
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(ops), 1 << 16)) {
                walk.out = out;
                reader.forEachRecord(walk);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            return assemble(reader, walk, ops, script);
        } finally {
            Files.deleteIfExists(ops);
        }
    }

    /** The record walk: each GPU operation as a 72-byte op (process field: the pid, for now). */
    private static final class Walk implements RecordVisitor {
        OutputStream out;
        final Map<String, Integer> names = new LinkedHashMap<>();
        final Map<Integer, Long> opsByPid = new HashMap<>();
        long kernels;
        long memcpys;
        long memsets;
        long invalid;
        long unknownCopyKinds;
        long otherDevices;
        private final ByteBuffer op = ByteBuffer.allocate(OP_BYTES).order(ByteOrder.LITTLE_ENDIAN);

        private boolean valid(long start, long end) {
            if (start <= 0 || end < start) {
                invalid++;
                return false;
            }
            return true;
        }

        private boolean onDevice(int device) {
            if (device < 0 || device >= MAX_DEVICES) {
                otherDevices++;
                return false;
            }
            return true;
        }

        private void put(int pid, long start, long end, long bytes, int name, int stream, int device,
                         int gx, int gy, int gz, int bx, int by, int bz, int kind, int copyKind, int value) {
            op.clear();
            op.putLong(start).putLong(end).putLong(bytes).putInt(name).putInt(pid).putInt(stream).putInt(device);
            op.putInt(gx).putInt(gy).putInt(gz).putInt(bx).putInt(by).putInt(bz);
            op.put((byte) kind).put((byte) copyKind).putShort((short) 0).putInt(value);
            try {
                out.write(op.array(), 0, OP_BYTES);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            opsByPid.merge(pid, 1L, Long::sum);
        }

        @Override
        public void kernel(int pid, long start, long end, int correlationId, KernelDesc d, String name) {
            if (!valid(start, end) || (d != null && !onDevice(d.deviceId()))) {
                return;
            }
            Integer id = names.get(name);
            if (id == null) {
                id = names.size();
                names.put(name, id);
            }
            if (d == null) {
                put(pid, start, end, 0, id, 7, 0, 1, 1, 1, 1, 1, 1, KERNEL, 0, 0);
            } else {
                put(pid, start, end, 0, id, d.streamId(), d.deviceId(), d.gridX(), d.gridY(), d.gridZ(),
                        d.blockX(), d.blockY(), d.blockZ(), KERNEL, 0, 0);
            }
            kernels++;
        }

        @Override
        public void memcpy(int pid, MemcpyEvent m) {
            if (!valid(m.start(), m.end()) || !onDevice(m.deviceId())) {
                return;
            }
            if (m.copyKind() < 1 || m.copyKind() > 10) {
                unknownCopyKinds++;
                return;
            }
            put(pid, m.start(), m.end(), m.bytes(), 0, m.streamId(), m.deviceId(), 0, 0, 0, 0, 0, 0,
                    MEMCPY, m.copyKind(), 0);
            memcpys++;
        }

        @Override
        public void memset(int pid, MemsetEvent m) {
            if (!valid(m.start(), m.end()) || !onDevice(m.deviceId())) {
                return;
            }
            put(pid, m.start(), m.end(), m.bytes(), 0, m.streamId(), m.deviceId(), 0, 0, 0, 0, 0, 0,
                    MEMSET, 0, m.value());
            memsets++;
        }
    }

    private static Summary assemble(CaptureReader reader, Walk walk, Path ops, Path script) throws IOException {
        Map<Integer, ProcessInfo> infos = new HashMap<>();
        for (ProcessInfo p : reader.processes()) {
            infos.put(p.pid(), p);
        }
        List<Integer> pids = new ArrayList<>(walk.opsByPid.keySet());
        pids.sort(Comparator.<Integer>comparingInt(pid -> rankOf(infos.get(pid)) < 0 ? Integer.MAX_VALUE
                : rankOf(infos.get(pid))).thenComparingInt(pid -> pid));
        if (pids.isEmpty()) {
            if (reader.readStats().readPartly()) { // the damage is the cause, not a source without GPU work
                throw new NothingRead(reader.readStats());
            }
            throw new IOException(reader.path() + " holds no kernel, copy or set to replay");
        }
        if (pids.size() > MAX_PROCESSES) {
            throw new IOException(reader.path() + " has GPU work in " + pids.size() + " processes; the test double "
                    + "replays at most " + MAX_PROCESSES);
        }
        Map<Integer, Integer> index = new HashMap<>();
        for (int i = 0; i < pids.size(); i++) {
            index.put(pids.get(i), i);
        }
        long count = walk.kernels + walk.memcpys + walk.memsets;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(script), 1 << 16)) {
            ByteBuffer b = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
            b.put(MAGIC).putInt(VERSION).putInt(pids.size()).putInt(walk.names.size()).putInt(0).putLong(count);
            out.write(b.array());
            long at = 32;
            for (int pid : pids) {
                ProcessInfo p = infos.get(pid);
                ByteBuffer pb = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
                pb.putInt(rankOf(p)).putInt(p != null && p.worldSize() != null ? p.worldSize() : -1).putInt(pid).putInt(0);
                out.write(pb.array());
                at += 16;
            }
            ByteBuffer len = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            for (String name : walk.names.keySet()) {
                byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
                len.clear();
                len.putInt(bytes.length);
                out.write(len.array());
                out.write(bytes);
                at += 4 + bytes.length;
            }
            while (at % 8 != 0) {
                out.write(0);
                at++;
            }
            byte[] op = new byte[OP_BYTES];
            ByteBuffer view = ByteBuffer.wrap(op).order(ByteOrder.LITTLE_ENDIAN);
            try (InputStream in = new BufferedInputStream(Files.newInputStream(ops), 1 << 16)) {
                for (long i = 0; i < count; i++) {
                    if (in.readNBytes(op, 0, OP_BYTES) != OP_BYTES) {
                        throw new IOException("the replay's temporary file " + ops + " was cut short");
                    }
                    view.putInt(28, index.get(view.getInt(28)));
                    out.write(op);
                }
            }
        }
        return new Summary(pids.size(), walk.kernels, walk.memcpys, walk.memsets, walk.invalid,
                walk.unknownCopyKinds, walk.otherDevices, reader.readStats());
    }

    private static int rankOf(ProcessInfo p) {
        return p != null && p.rank() != null && p.rank() >= 0 ? p.rank() : -1;
    }
}
