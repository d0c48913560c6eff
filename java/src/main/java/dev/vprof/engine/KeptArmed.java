package dev.vprof.engine;

import dev.vprof.nativelib.Posix;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What a continuous capture ({@link CapturePlan.Continuous}, {@code vprof watch}) adds to the
 * drain loop of {@link CaptureSession}: heartbeats from a thread of their own every 100 ms, so that
 * a turn of the loop held up (a loaded host, a long write) does not make the agents, which give up
 * after 0.6 s, disarm, while the JVM's death still silences them at once; the {@link DutyCycle}
 * and the hold a pending dump puts on it; and a status of every process, refreshed once a second,
 * for other threads (the watch's Prometheus endpoint).
 */
final class KeptArmed {
    static final long HEARTBEAT_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long STATUS_EVERY_NS = TimeUnit.SECONDS.toNanos(1);

    private final List<Attached> beating = new CopyOnWriteArrayList<>();
    private final DutyCycle duty;
    private Thread heartbeat;
    private volatile long holdUntilNs;
    private volatile boolean holding;
    private volatile List<AgentStatus> status = List.of();
    private volatile boolean armedNow = true;
    private long nextStatusNs;

    KeptArmed(CapturePlan.Continuous c) {
        this.duty = c.dutyCycled() ? new DutyCycle(c, System.nanoTime()) : null;
    }

    /** The loop begins: the heartbeat thread starts. */
    void start() {
        heartbeat = Thread.ofPlatform().daemon().name("vprof-heartbeat").start(this::beat);
    }

    /** The capture is over: no more heartbeats. */
    void stop() {
        if (heartbeat != null) {
            heartbeat.interrupt();
            try {
                heartbeat.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    void joined(Attached a) {
        beating.add(a);
    }

    /** Before its region is closed. */
    void left(Attached a) {
        beating.remove(a);
    }

    /** Every turn of the drain loop: the duty cycle's edges, the status now and then. */
    void turn(List<Attached> attached, long nowNs, PrintWriter err) {
        if (duty != null) {
            duty.poll(attached, nowNs, holding && nowNs - holdUntilNs < 0, err);
            armedNow = duty.on();
        }
        if (nowNs - nextStatusNs >= 0) {
            List<AgentStatus> s = new ArrayList<>(attached.size());
            for (Attached a : attached) {
                if (!a.finished) {
                    a.last = RegionCounters.read(a.region);
                }
                s.add(new AgentStatus(a.pid(), a.delta(), a.reader.records(), a.finished ? "LEFT" : a.region.state().name()));
            }
            status = List.copyOf(s);
            nextStatusNs = nowNs + STATUS_EVERY_NS;
        }
    }

    /** Any thread: the duty cycle's range stays open until {@code untilNanoTime}. */
    void holdArmed(long untilNanoTime) {
        holdUntilNs = untilNanoTime;
        holding = true;
    }

    List<AgentStatus> status() {
        return status;
    }

    boolean armedNow() {
        return armedNow;
    }

    private void beat() {
        while (!Thread.currentThread().isInterrupted()) {
            long mono = Posix.monotonicNanos();
            for (Attached a : beating) {
                try {
                    a.region.heartbeat(mono);
                } catch (IllegalStateException closed) {
                    // finished and unmapped meanwhile
                }
            }
            LockSupport.parkNanos(HEARTBEAT_EVERY_NS);
        }
    }
}
