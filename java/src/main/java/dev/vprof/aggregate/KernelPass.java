package dev.vprof.aggregate;

import dev.vprof.capture.ApiEvent;
import dev.vprof.capture.CaptureReader;
import dev.vprof.capture.CpuOpEvent;
import dev.vprof.capture.DeviceProperties;
import dev.vprof.capture.DropsEvent;
import dev.vprof.capture.KernelDesc;
import dev.vprof.capture.MarkerEvent;
import dev.vprof.capture.MemcpyEvent;
import dev.vprof.capture.MemsetEvent;
import dev.vprof.capture.RangeEvent;
import dev.vprof.capture.RecordVisitor;
import dev.vprof.time.Clocks;
import dev.vprof.time.Scope;
import java.util.Arrays;

/**
 * The one aggregation pass over a capture's records: each kernel is placed in epoch time through the
 * one per-process clock ({@link Clocks}), given its step by the one step rule ({@link Steps}), and
 * handed to every {@link Sink} whose {@link Scope} admits it (a window, a set of requests, some
 * processes); copies and sets alike; the other records to every sink that reads their process.
 * A trace's CPU ops come as their own records (never as markers). Several analyses share one pass (the
 * report's tables, its requests, its steps; both sides of a diff of one file), so a file is read
 * once for all of them. Memory is the sinks'; the pass keeps nothing per record.
 */
public final class KernelPass implements RecordVisitor {
    private final Clocks clocks;
    /** False when no process has a fitted clock: epoch times are then the CUPTI times, with no call per kernel. */
    private final boolean mapsTime;
    private Steps steps;
    private Scope[] scopes = new Scope[0];
    private Sink[] sinks = new Sink[0];
    /** The sinks that take kernels, and their scopes. */
    private Scope[] kernelScopes = new Scope[0];
    private Sink[] kernelSinks = new Sink[0];
    private final Kernel k = new Kernel();

    /**
     * A pass placing work in epoch time by {@code clocks}: {@code Clocks.of(reader)} when any
     * scope cuts by time or any sink reads epoch times, else {@code Clocks.unfitted()}.
     */
    public KernelPass(Clocks clocks) {
        this.clocks = clocks;
        this.mapsTime = clocks.fitted();
    }

    /** Gives each kernel its step among {@code steps} (found before the pass: {@link StepFinder#scan}). */
    public KernelPass steps(Steps steps) {
        this.steps = steps == null || steps.isEmpty() ? null : steps; // none: no look-up per kernel
        return this;
    }

    /** {@code sink} takes what {@code scope} admits. */
    public KernelPass add(Scope scope, Sink sink) {
        scopes = Arrays.copyOf(scopes, scopes.length + 1);
        sinks = Arrays.copyOf(sinks, sinks.length + 1);
        scopes[scopes.length - 1] = scope;
        sinks[sinks.length - 1] = sink;
        if (sink.takesKernels()) {
            kernelScopes = Arrays.copyOf(kernelScopes, kernelScopes.length + 1);
            kernelSinks = Arrays.copyOf(kernelSinks, kernelSinks.length + 1);
            kernelScopes[kernelScopes.length - 1] = scope;
            kernelSinks[kernelSinks.length - 1] = sink;
        }
        return this;
    }

    /** Reads every record of {@code reader} once. */
    public void run(CaptureReader reader) {
        reader.forEachRecord(this);
    }

    @Override
    public void kernel(int pid, long start, long end, int correlationId, KernelDesc desc, String name) {
        Kernel k = this.k;
        k.pid = pid;
        k.startNs = start;
        k.endNs = end;
        if (mapsTime) {
            k.startEpochNs = clocks.epochNs(pid, start);
            k.endEpochNs = clocks.epochNs(pid, Math.max(start, end));
        } else {
            k.startEpochNs = start;
            k.endEpochNs = Math.max(start, end);
        }
        k.correlationId = correlationId;
        k.desc = desc;
        k.name = name;
        k.step = steps == null ? -1 : steps.stepOf(pid, start, correlationId);
        Scope[] scopes = kernelScopes;
        Sink[] sinks = kernelSinks;
        for (int i = 0; i < sinks.length; i++) {
            if (scopes[i].admits(pid, k.startEpochNs)) {
                sinks[i].kernel(k);
            }
        }
    }

    @Override
    public void memcpy(int pid, MemcpyEvent m) {
        toAdmitting(pid, mapsTime ? clocks.epochNs(pid, m.start()) : m.start(), m, Sink::memcpy);
    }

    @Override
    public void memset(int pid, MemsetEvent m) {
        toAdmitting(pid, mapsTime ? clocks.epochNs(pid, m.start()) : m.start(), m, Sink::memset);
    }

    @Override
    public void marker(int pid, MarkerEvent m) {
        toReaders(pid, m, Sink::marker);
    }

    @Override
    public void cpuOp(int pid, CpuOpEvent op) {
        toReaders(pid, op, Sink::cpuOp);
    }

    @Override
    public void api(int pid, ApiEvent a) {
        toReaders(pid, a, Sink::api);
    }

    @Override
    public void range(int pid, RangeEvent e) {
        toReaders(pid, e, Sink::range);
    }

    @Override
    public void drops(int pid, DropsEvent d) {
        toReaders(pid, d, Sink::drops);
    }

    @Override
    public void device(int pid, DeviceProperties d) {
        toReaders(pid, d, Sink::device);
    }

    /** How a record reaches a sink: a method reference such as {@code Sink::marker}, so no object per record. */
    @FunctionalInterface
    private interface Delivery<E> {
        void deliver(Sink sink, int pid, E event);
    }

    /** Hands {@code event}, at epoch time {@code t}, to every sink whose scope admits it. */
    private <E> void toAdmitting(int pid, long t, E event, Delivery<E> delivery) {
        for (int i = 0; i < sinks.length; i++) {
            if (scopes[i].admits(pid, t)) {
                delivery.deliver(sinks[i], pid, event);
            }
        }
    }

    /** Hands {@code event} to every sink whose scope reads process {@code pid}. */
    private <E> void toReaders(int pid, E event, Delivery<E> delivery) {
        for (int i = 0; i < sinks.length; i++) {
            if (scopes[i].reads(pid)) {
                delivery.deliver(sinks[i], pid, event);
            }
        }
    }
}
