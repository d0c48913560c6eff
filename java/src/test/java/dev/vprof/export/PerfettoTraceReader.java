package dev.vprof.export;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a Perfetto trace back the way trace processor would, independently of the writer: protobuf's
 * own wire reader, per-sequence incremental state (interned data, defaults, incremental clock), and
 * field numbers spelled out again here so a wrong constant in the writer shows up as a failure.
 */
public final class PerfettoTraceReader {

    /** A decoded message: every field number with the raw values in order (Long or ByteString). */
    static final class Msg {
        final Map<Integer, List<Object>> fields = new LinkedHashMap<>();
        ByteString bytes;

        static Msg parse(ByteString bytes) throws IOException {
            Msg m = new Msg();
            m.bytes = bytes;
            CodedInputStream in = bytes.newCodedInput();
            while (!in.isAtEnd()) {
                int tag = in.readTag();
                int field = WireFormat.getTagFieldNumber(tag);
                Object v = switch (WireFormat.getTagWireType(tag)) {
                    case WireFormat.WIRETYPE_VARINT -> in.readUInt64();
                    case WireFormat.WIRETYPE_FIXED64 -> in.readFixed64();
                    case WireFormat.WIRETYPE_LENGTH_DELIMITED -> in.readBytes();
                    case WireFormat.WIRETYPE_FIXED32 -> (long) in.readFixed32();
                    default -> throw new IOException("unexpected wire type in tag " + tag);
                };
                m.fields.computeIfAbsent(field, k -> new ArrayList<>()).add(v);
            }
            return m;
        }

        boolean has(int field) {
            return fields.containsKey(field);
        }

        long num(int field) {
            return (Long) fields.get(field).getFirst();
        }

        String str(int field) {
            return ((ByteString) fields.get(field).getFirst()).toStringUtf8();
        }

        Msg msg(int field) throws IOException {
            return parse((ByteString) fields.get(field).getFirst());
        }

        List<Msg> msgs(int field) throws IOException {
            List<Msg> out = new ArrayList<>();
            for (Object o : fields.getOrDefault(field, List.of())) {
                out.add(parse((ByteString) o));
            }
            return out;
        }

        List<Long> nums(int field) {
            List<Long> out = new ArrayList<>();
            for (Object o : fields.getOrDefault(field, List.of())) {
                out.add((Long) o);
            }
            return out;
        }
    }

    record Track(long uuid, long parent, String name, Integer pid, Long tid, String processName,
                 List<String> cmdline, boolean counter) {}

    /**
     * One track event; {@code ts} is on the builtin clock {@code clock} (a sequence-scoped clock's
     * value already turned into the global clock its sequence's snapshot ties it to).
     */
    public record Event(long track, long ts, int type, String name, Map<String, Object> args, List<Long> flows,
                 Double counterValue, int sequence, int clock) {}

    /** ClockSnapshot.Clock.BuiltinClocks: BOOTTIME is the default clock of a packet's timestamp. */
    public static final int REALTIME = 1;
    public static final int BOOTTIME = 6;

    /** Each ClockSnapshot's readings of builtin clocks (ids below 64), in file order. */
    public final List<Map<Integer, Long>> snapshots = new ArrayList<>();
    /** The first snapshot's primary_trace_clock; null where none says. */
    public Integer primaryTraceClock;

    final Map<Long, Track> tracks = new LinkedHashMap<>();
    public final List<Event> events = new ArrayList<>();
    int packets;
    int compressedPackets;

    private static final class SeqState {
        long defaultTrack;
        Integer defaultClock;
        final Map<Integer, long[]> clocks = new HashMap<>(); // id -> {last value, incremental?1:0}
        /** Per sequence-scoped clock: {the builtin clock its snapshot ties it to, that clock's reading − its own}. */
        final Map<Integer, long[]> tiedTo = new HashMap<>();
        final Map<Long, String> names = new HashMap<>();
        final Map<Long, String> annotationNames = new HashMap<>();
        final Map<Long, String> values = new HashMap<>();
        boolean cleared;
    }

    /** Packets whose compressed_packets (field 50) hold a zlib-deflated Trace, expanded in place as trace processor does. */
    static List<Msg> expandCompressed(List<Msg> packets, PerfettoTraceReader r) throws IOException {
        List<Msg> out = new ArrayList<>();
        for (Msg p : packets) {
            if (!p.has(50)) {
                out.add(p);
                continue;
            }
            r.compressedPackets++;
            byte[] deflated = ((ByteString) p.fields.get(50).getFirst()).toByteArray();
            java.util.zip.Inflater inflater = new java.util.zip.Inflater();
            inflater.setInput(deflated);
            java.io.ByteArrayOutputStream plain = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[1 << 16];
            try {
                while (!inflater.finished()) {
                    int n = inflater.inflate(buf);
                    if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        throw new IOException("compressed_packets ended early");
                    }
                    plain.write(buf, 0, n);
                }
            } catch (java.util.zip.DataFormatException e) {
                throw new IOException("compressed_packets is not zlib data", e);
            } finally {
                inflater.end();
            }
            out.addAll(Msg.parse(ByteString.copyFrom(plain.toByteArray())).msgs(1));
        }
        return out;
    }

    /**
     * Every packet's bytes, compressed batches expanded, by trusted_packet_sequence_id, each
     * sequence's packets in file order: what a reader of one sequence sees.
     */
    static Map<Long, List<ByteString>> packetsBySequence(byte[] trace) throws IOException {
        Map<Long, List<ByteString>> out = new LinkedHashMap<>();
        bySequence(Msg.parse(ByteString.copyFrom(trace)), out);
        return out;
    }

    private static void bySequence(Msg trace, Map<Long, List<ByteString>> out) throws IOException {
        for (Object o : trace.fields.getOrDefault(1, List.of())) {
            ByteString raw = (ByteString) o;
            Msg p = Msg.parse(raw);
            if (p.has(50)) {
                PerfettoTraceReader scratch = new PerfettoTraceReader();
                List<Msg> expanded = expandCompressed(List.of(p), scratch);
                Msg inner = new Msg();
                for (Msg m : expanded) {
                    inner.fields.computeIfAbsent(1, k -> new ArrayList<>()).add(m.bytes);
                }
                bySequence(inner, out);
                continue;
            }
            out.computeIfAbsent(p.has(10) ? p.num(10) : 0, k -> new ArrayList<>()).add(raw);
        }
    }

    public static PerfettoTraceReader read(byte[] trace) throws IOException {
        PerfettoTraceReader r = new PerfettoTraceReader();
        Msg root = Msg.parse(ByteString.copyFrom(trace));
        Map<Integer, SeqState> seqs = new HashMap<>();
        for (Msg p : expandCompressed(root.msgs(1), r)) {
            r.packets++;
            int seqId = p.has(10) ? (int) p.num(10) : 0;
            SeqState st = seqs.computeIfAbsent(seqId, k -> new SeqState());
            long flags = p.has(13) ? p.num(13) : 0;
            if ((flags & 1) != 0) {
                SeqState fresh = new SeqState();
                fresh.cleared = true;
                seqs.put(seqId, fresh);
                st = fresh;
            }
            if ((flags & 2) != 0 && !st.cleared) {
                throw new AssertionError("packet on sequence " + seqId + " needs incremental state before it was cleared");
            }
            if (p.has(59)) {
                Msg d = p.msg(59);
                st.defaultClock = d.has(58) ? (int) d.num(58) : null;
                if (d.has(11)) {
                    Msg ted = d.msg(11);
                    st.defaultTrack = ted.has(11) ? ted.num(11) : 0;
                }
            }
            if (p.has(6)) {
                Msg snap = p.msg(6);
                Map<Integer, Long> builtin = new LinkedHashMap<>();
                List<Msg> clocks = snap.msgs(1);
                for (Msg c : clocks) {
                    st.clocks.put((int) c.num(1), new long[] {c.num(2), c.has(3) && c.num(3) != 0 ? 1 : 0});
                    if (c.num(1) < 64) {
                        builtin.put((int) c.num(1), c.num(2));
                    }
                }
                for (Msg c : clocks) {
                    if (c.num(1) >= 64 && !builtin.isEmpty()) {
                        Map.Entry<Integer, Long> g = builtin.entrySet().iterator().next();
                        st.tiedTo.put((int) c.num(1), new long[] {g.getKey(), g.getValue() - c.num(2)});
                    }
                }
                if (!builtin.isEmpty()) {
                    r.snapshots.add(builtin);
                }
                if (snap.has(2) && r.primaryTraceClock == null) {
                    r.primaryTraceClock = (int) snap.num(2);
                }
            }
            if (p.has(12)) {
                Msg in = p.msg(12);
                for (Msg n : in.msgs(2)) {
                    st.names.put(n.num(1), n.str(2));
                }
                for (Msg n : in.msgs(3)) {
                    st.annotationNames.put(n.num(1), n.str(2));
                }
                for (Msg n : in.msgs(29)) {
                    st.values.put(n.num(1), n.str(2));
                }
            }
            if (p.has(60)) {
                Msg d = p.msg(60);
                Integer pid = null;
                Long tid = null;
                String pname = null;
                List<String> cmd = new ArrayList<>();
                if (d.has(3)) {
                    Msg pd = d.msg(3);
                    pid = (int) pd.num(1);
                    pname = pd.has(6) ? pd.str(6) : null;
                    for (Object o : pd.fields.getOrDefault(2, List.of())) {
                        cmd.add(((ByteString) o).toStringUtf8());
                    }
                }
                if (d.has(4)) {
                    Msg td = d.msg(4);
                    pid = (int) td.num(1);
                    tid = td.num(2);
                    pname = td.has(5) ? td.str(5) : null;
                }
                Track t = new Track(d.num(1), d.has(5) ? d.num(5) : 0, d.has(2) ? d.str(2) : null, pid, tid, pname, cmd, d.has(8));
                if (r.tracks.put(t.uuid(), t) != null) {
                    throw new AssertionError("track uuid " + t.uuid() + " described twice");
                }
            }
            if (p.has(11)) {
                long ts = r.timestamp(p, st);
                int clock = r.clockOf(p, st);
                if (clock >= 64) {
                    long[] tie = st.tiedTo.get(clock);
                    if (tie == null) {
                        throw new AssertionError("sequence-scoped clock " + clock + " tied to no builtin clock");
                    }
                    ts += tie[1];
                    clock = (int) tie[0];
                }
                Msg e = p.msg(11);
                long track = e.has(11) ? e.num(11) : st.defaultTrack;
                int type = (int) e.num(9);
                String name = null;
                if (e.has(10)) {
                    name = st.names.get(e.num(10));
                    if (name == null) {
                        throw new AssertionError("name iid " + e.num(10) + " not interned on sequence " + seqId);
                    }
                } else if (e.has(23)) {
                    name = e.str(23);
                }
                Map<String, Object> args = new LinkedHashMap<>();
                for (Msg a : e.msgs(4)) {
                    String an = a.has(1) ? st.annotationNames.get(a.num(1)) : a.str(10);
                    if (an == null) {
                        throw new AssertionError("annotation name iid not interned on sequence " + seqId);
                    }
                    Object v;
                    if (a.has(3)) {
                        v = a.num(3);
                    } else if (a.has(6)) {
                        v = a.str(6);
                    } else if (a.has(17)) {
                        v = st.values.get(a.num(17));
                        if (v == null) {
                            throw new AssertionError("string value iid not interned on sequence " + seqId);
                        }
                    } else {
                        throw new AssertionError("annotation " + an + " without a value");
                    }
                    args.put(an, v);
                }
                Double cv = e.has(44) ? Double.longBitsToDouble(e.num(44)) : null;
                r.events.add(new Event(track, ts, type, name, args, e.nums(47), cv, seqId, clock));
            }
        }
        return r;
    }

    /** The clock a packet's timestamp is on: its own timestamp_clock_id, its sequence's default, or BOOTTIME. */
    private int clockOf(Msg p, SeqState st) {
        if (p.has(58)) {
            return (int) p.num(58);
        }
        return st.defaultClock != null ? st.defaultClock : BOOTTIME;
    }

    /**
     * {@code e}'s time on builtin clock {@code clock}, converted as trace processor does with this
     * trace's own snapshots: through the last snapshot that read both clocks at or before the event
     * (the first one for an event before all), {@code ts − snapshot[e.clock] + snapshot[clock]}.
     */
    public long on(Event e, int clock) {
        if (e.clock() == clock) {
            return e.ts();
        }
        Map<Integer, Long> use = null;
        for (Map<Integer, Long> s : snapshots) {
            if (s.containsKey(e.clock()) && s.containsKey(clock) && (use == null || s.get(e.clock()) <= e.ts())) {
                use = s;
            }
        }
        if (use == null) {
            throw new AssertionError("no clock snapshot of the trace relates clock " + e.clock() + " to clock " + clock);
        }
        return e.ts() - use.get(e.clock()) + use.get(clock);
    }

    private long timestamp(Msg p, SeqState st) {
        long raw = p.num(8);
        int clockId = clockOf(p, st);
        if (clockId < 64) {
            return raw;
        }
        long[] clock = st.clocks.get(clockId);
        if (clock == null) {
            throw new AssertionError("sequence-scoped clock " + clockId + " used without a snapshot");
        }
        if (clock[1] == 1) {
            clock[0] += raw;
            return clock[0];
        }
        return raw;
    }

    /** The slices of one track as (start, end, name) after pairing begins and ends; fails if they do not nest. */
    List<Slice> slices(long track) {
        List<Slice> done = new ArrayList<>();
        List<Event> open = new ArrayList<>();
        long last = Long.MIN_VALUE;
        for (Event e : events) {
            if (e.track() != track) {
                continue;
            }
            if (e.ts() < last) {
                throw new AssertionError("events on track " + track + " out of order");
            }
            last = e.ts();
            if (e.type() == 1) {
                open.add(e);
            } else if (e.type() == 2) {
                if (open.isEmpty()) {
                    throw new AssertionError("end without begin on track " + track + " at " + e.ts());
                }
                Event b = open.removeLast();
                done.add(new Slice(b.ts(), e.ts(), b.name(), open.size(), b.args(), b.flows()));
            }
        }
        if (!open.isEmpty()) {
            throw new AssertionError(open.size() + " slices left open on track " + track);
        }
        done.sort((a, b) -> a.start() != b.start() ? Long.compare(a.start(), b.start()) : Integer.compare(a.depth(), b.depth()));
        return done;
    }

    record Slice(long start, long end, String name, int depth, Map<String, Object> args, List<Long> flows) {}

    Track trackNamed(String name) {
        return tracks.values().stream().filter(t -> name.equals(t.name())).findFirst()
                .orElseThrow(() -> new AssertionError("no track named '" + name + "' in " + tracks.values()));
    }

    List<Track> children(long parent) {
        return tracks.values().stream().filter(t -> t.parent() == parent).toList();
    }
}
