/*
 * boot_stamp.c: a Perfetto trace of this host made without vprof, for the Java test that puts a
 * vprof trace beside it (BootClockSideBySideTest). It runs simulated GPU work through the CUPTI
 * test double (a `vprof run` of it captures the kernels) and stamps CLOCK_BOOTTIME before each
 * launch and after the GPU is done, as a system trace's events are stamped: one slice per kernel
 * on a track of its own, timestamps on BOOTTIME (a packet's default clock), and one clock snapshot
 * of BOOTTIME and REALTIME read together, primary clock BOOTTIME. The protobuf is written here by
 * hand from Perfetto's trace_packet.proto, clock_snapshot.proto and track_event.proto numbers.
 *
 *   boot_stamp OUT.pftrace [KERNELS]     (built by the test: gcc ... -l:libvprof-cuptisim.so)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simgpu_driver.h"

enum { LEN = 2, VARINT = 0 };

struct msg {
    uint8_t b[512];
    size_t n;
};

static void varint(struct msg *m, uint64_t v)
{
    do {
        uint8_t byte = v & 0x7f;
        v >>= 7;
        m->b[m->n++] = byte | (v ? 0x80 : 0);
    } while (v);
}

static void num(struct msg *m, int field, uint64_t v)
{
    varint(m, (uint64_t)field << 3 | VARINT);
    varint(m, v);
}

static void bytes(struct msg *m, int field, const void *p, size_t len)
{
    varint(m, (uint64_t)field << 3 | LEN);
    varint(m, len);
    memcpy(m->b + m->n, p, len);
    m->n += len;
}

static void sub(struct msg *m, int field, const struct msg *s) { bytes(m, field, s->b, s->n); }

/* Trace.packet = 1; every packet on trusted_packet_sequence_id (10) 1. */
static void packet(FILE *f, struct msg *p)
{
    num(p, 10, 1);
    struct msg t = { .n = 0 };
    sub(&t, 1, p);
    fwrite(t.b, 1, t.n, f);
}

static uint64_t now(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* BOOTTIME and REALTIME at one instant: the tightest of 20 realtime/boottime/realtime reads. */
static void clock_pair(uint64_t *boot, uint64_t *real)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 20; i++) {
        uint64_t a = now(CLOCK_REALTIME), b = now(CLOCK_BOOTTIME), c = now(CLOCK_REALTIME);
        if (c - a < best) {
            best = c - a;
            *boot = b;
            *real = a + (c - a) / 2;
        }
    }
}

static void slice_edge(FILE *f, uint64_t ts, int type, const char *name)
{
    struct msg ev = { .n = 0 };
    num(&ev, 9, (uint64_t)type); /* TrackEvent.type: 1 SLICE_BEGIN, 2 SLICE_END */
    num(&ev, 11, 1);             /* track_uuid */
    if (name)
        bytes(&ev, 23, name, strlen(name)); /* name */
    struct msg p = { .n = 0 };
    num(&p, 8, ts); /* timestamp, no timestamp_clock_id: BOOTTIME */
    sub(&p, 11, &ev);
    packet(f, &p);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: boot_stamp OUT.pftrace [KERNELS]\n");
        return 2;
    }
    int kernels = argc > 2 ? atoi(argv[2]) : 5;
    FILE *f = fopen(argv[1], "wb");
    if (f == NULL) {
        perror(argv[1]);
        return 1;
    }
    uint64_t boot = 0, real = 0;
    clock_pair(&boot, &real);
    struct msg c1 = { .n = 0 }, c2 = { .n = 0 }, snap = { .n = 0 }, p = { .n = 0 };
    num(&c1, 1, 6); /* clock_id BOOTTIME */
    num(&c1, 2, boot);
    num(&c2, 1, 1); /* clock_id REALTIME */
    num(&c2, 2, real);
    sub(&snap, 1, &c1);
    sub(&snap, 1, &c2);
    num(&snap, 2, 6); /* primary_trace_clock BOOTTIME */
    num(&p, 8, boot);
    sub(&p, 6, &snap);
    packet(f, &p);
    struct msg track = { .n = 0 }, tp = { .n = 0 };
    num(&track, 1, 1);
    bytes(&track, 2, "boot_stamp", 10);
    sub(&tp, 60, &track);
    packet(f, &tp);

    simcuda_init();
    simcuda_stream s = simcuda_stream_create();
    simcuda_profiler_start();
    const simcuda_dim3 grid = { 64, 1, 1 }, block = { 128, 1, 1 };
    for (int i = 0; i < kernels; i++) {
        char name[32];
        snprintf(name, sizeof name, "stamped_kernel_%d", i);
        uint64_t before = now(CLOCK_BOOTTIME);
        simcuda_launch_kernel(s, name, grid, block, 5000000); /* 5 ms */
        simcuda_synchronize();
        uint64_t after = now(CLOCK_BOOTTIME);
        slice_edge(f, before, 1, name);
        slice_edge(f, after, 2, NULL);
        struct timespec gap = { 0, 10000000 }; /* 10 ms between kernels */
        nanosleep(&gap, NULL);
    }
    simcuda_profiler_stop();
    simcuda_shutdown();
    return fclose(f) == 0 ? 0 : 1;
}
