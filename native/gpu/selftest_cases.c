/*
 * selftest_cases.c: the GPU self-test's cases. Each launches a known set of kernels, copies and
 * sets, and prints on stdout, as its last line, one JSON object saying what it launched, so that
 * `vprof selftest --gpu` can check that vprof recorded exactly that (GpuSelftest.java). The GPU
 * itself is behind selftest.h: CUDA in selftest.cu, the CUPTI test double in
 * native/test/selftest_double.c.
 *
 *   selftest info           the device, driver and runtime, and the kernels' launch shapes
 *   selftest profiler       the checked phase between cudaProfilerStart and cudaProfilerStop
 *   selftest nvtx           the checked phase inside the NVTX range "vprof_selftest"
 *   selftest none           no bracket: everything the process launches is checked
 *   selftest wait           the profiler phase after a go on stdin (late injection)
 *   selftest graph-dormant  two graphs captured and instantiated while the agent is dormant
 *                           (one replayed then), replayed inside two profiler ranges (R2)
 *   selftest unsync-stop    a long kernel launched just before cudaProfilerStop, no synchronize;
 *                           kernels launched after the stop (R3)
 *   selftest threads        32 host threads launching inside one profiler range (R6)
 *   selftest launch-cost    ns per launch in phases a driver chooses on stdin (R7)
 *   selftest nvtx-early     an NVTX range before CUDA initializes, then an NVTX capture range (R12)
 *   selftest graph-stress   a graph of 1000 kernels replayed 1000 times in one range (R4)
 *
 * The result line:
 *   {"case":C,"device":D,"driver":V,"runtime":V,"ranges":[R...],"outside":{...},...}
 * where each R is what the range with that index (1, 2, ...) must hold:
 *   {"kernels":{NAME:N...}, "kernel_launches":N, "graph_launches":N, "memcpys":N,
 *    "graphs":[{"kernel":NAME,"kernel_nodes":N,"copy_nodes":N,"memset_nodes":N,"launches":N}]}
 * kernel_launches counts kernel launches that run (not graph nodes, not launches into a capturing
 * stream, which only become nodes) and graph_launches cudaGraphLaunch calls;
 * memcpys counts every copy, eager or a graph node; a memset node's record may come back as a
 * memset or as a kernel (CUPTI may report it either way), so it is only in "graphs".
 * Interactive cases print {"event":E} lines and wait for a line on stdin where they say so.
 */
#include "selftest.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const struct st_shape st_kernels[ST_KERNELS] = {
    [ST_ADD] = { "vprof_selftest_add", 256, 256 },
    [ST_SCALE] = { "vprof_selftest_scale", 256, 256 },
    [ST_GRAPH_NODE] = { "vprof_selftest_graph_node", 256, 256 },
    [ST_GRAPH_A] = { "vprof_selftest_graph_a", 128, 256 },
    [ST_GRAPH_B] = { "vprof_selftest_graph_b", 64, 256 },
    [ST_EMPTY] = { "vprof_selftest_empty", 1, 1 },
    [ST_SPIN] = { "vprof_selftest_spin", 1, 1 },
    [ST_AFTER_STOP] = { "vprof_selftest_after_stop", 2, 32 },
    [ST_THREAD] = { "vprof_selftest_thread", 4, 64 },
    [ST_STRESS] = { "vprof_selftest_stress", 1, 32 },
    [ST_WINDOW] = { "vprof_selftest_window", 8, 128 },
};

/* ---- what a range must hold, as JSON ---------------------------------------------- */

#define ST_MAX_GRAPHS 4
struct st_graph_expect {
    enum st_kernel kernel;
    long kernel_nodes, copy_nodes, memset_nodes, launches;
};
struct st_range {
    long kernels[ST_KERNELS]; /* records per kernel; -1: not checked */
    long kernel_launches, graph_launches, memcpys;
    int n_graphs;
    struct st_graph_expect graphs[ST_MAX_GRAPHS];
};

static void range_init(struct st_range *r)
{
    memset(r, 0, sizeof *r);
    for (int k = 0; k < ST_KERNELS; k++)
        r->kernels[k] = -1;
}

static void print_kernels(const long *kernels)
{
    printf("{");
    const char *sep = "";
    for (int k = 0; k < ST_KERNELS; k++) {
        if (kernels[k] < 0)
            continue;
        printf("%s\"%s\":%ld", sep, st_kernels[k].name, kernels[k]);
        sep = ",";
    }
    printf("}");
}

static void print_range(const struct st_range *r)
{
    printf("{\"kernels\":");
    print_kernels(r->kernels);
    printf(",\"kernel_launches\":%ld,\"graph_launches\":%ld,\"memcpys\":%ld,\"graphs\":[", r->kernel_launches,
           r->graph_launches, r->memcpys);
    for (int g = 0; g < r->n_graphs; g++) {
        const struct st_graph_expect *e = &r->graphs[g];
        printf("%s{\"kernel\":\"%s\",\"kernel_nodes\":%ld,\"copy_nodes\":%ld,\"memset_nodes\":%ld,\"launches\":%ld}",
               g ? "," : "", st_kernels[e->kernel].name, e->kernel_nodes, e->copy_nodes, e->memset_nodes,
               e->launches);
    }
    printf("]}");
}

/* The start of the result line: the case and the machine. The caller prints the rest and ends it. */
static void print_head(const char *name)
{
    char device[256];
    int driver = 0, runtime = 0;
    st_device(device, sizeof device, &driver, &runtime);
    for (char *c = device; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
            *c = '?';
    printf("{\"case\":\"%s\",\"device\":\"%s\",\"driver\":%d,\"runtime\":%d", name, device, driver, runtime);
}

static void print_ranges(const struct st_range *ranges, int n)
{
    printf(",\"ranges\":[");
    for (int i = 0; i < n; i++) {
        printf("%s", i ? "," : "");
        print_range(&ranges[i]);
    }
    printf("]");
}

static void print_end(void)
{
    printf("}\n");
    fflush(stdout);
}

/* ---- interactive cases ------------------------------------------------------------- */

static void event(const char *name)
{
    printf("{\"event\":\"%s\"}\n", name);
    fflush(stdout);
}

/* Reads one line from stdin into line (without its newline); ends the process at EOF. */
static void read_line(char *line, size_t size)
{
    if (fgets(line, (int)size, stdin) == NULL) {
        fprintf(stderr, "selftest: stdin closed while waiting for the driver's next step\n");
        exit(4);
    }
    line[strcspn(line, "\r\n")] = '\0';
}

static void await_go(const char *event_name)
{
    char line[64];
    event(event_name);
    read_line(line, sizeof line);
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ---- the checked phase (profiler, nvtx, none, wait) -------------------------------- */

/* How many of each the checked phase launches (all of them on two streams). */
enum { N_ADD = 100, N_SCALE = 50, GRAPH_NODES = 10, GRAPH_REPLAYS = 3, N_COPIES = 5 };
/* Launched outside the checked phase, before and after it. */
enum { N_OUTSIDE = 20 };

static void outside(st_stream s)
{
    for (int i = 0; i < N_OUTSIDE; i++)
        st_launch(ST_ADD, s, 0);
    st_stream_sync(s);
}

static void checked_phase(st_stream s0, st_stream s1)
{
    for (int i = 0; i < N_COPIES; i++)
        st_copy_to_device(s0);
    for (int i = 0; i < N_ADD; i++)
        st_launch(ST_ADD, s0, 0);
    for (int i = 0; i < N_SCALE; i++)
        st_launch(ST_SCALE, s1, 0);
    /* A graph captured and instantiated inside the phase (kernel tracing on), replayed. */
    st_capture_begin(s1);
    for (int i = 0; i < GRAPH_NODES; i++)
        st_launch(ST_GRAPH_NODE, s1, 0);
    st_graph g = st_capture_end(s1);
    for (int i = 0; i < GRAPH_REPLAYS; i++)
        st_graph_launch(g, s1);
    for (int i = 0; i < N_COPIES; i++)
        st_copy_to_host(s1);
    st_sync();
    st_graph_destroy(g);
}

static void checked_range(struct st_range *r, int with_outside)
{
    range_init(r);
    r->kernels[ST_ADD] = N_ADD + (with_outside ? 2 * N_OUTSIDE : 0);
    r->kernels[ST_SCALE] = N_SCALE;
    r->kernels[ST_GRAPH_NODE] = GRAPH_NODES * GRAPH_REPLAYS;
    /* Launches that run: those into the capturing stream only became the graph's nodes. */
    r->kernel_launches = r->kernels[ST_ADD] + N_SCALE;
    r->graph_launches = GRAPH_REPLAYS;
    r->memcpys = 2 * N_COPIES;
    r->n_graphs = 1;
    r->graphs[0] = (struct st_graph_expect){ ST_GRAPH_NODE, GRAPH_NODES, 0, 0, GRAPH_REPLAYS };
}

static int checked(const char *mode)
{
    st_init();
    st_stream s0 = st_stream_create(), s1 = st_stream_create();
    const int profiler = strcmp(mode, "profiler") == 0 || strcmp(mode, "wait") == 0;
    const int nvtx = strcmp(mode, "nvtx") == 0;
    outside(s0);
    if (strcmp(mode, "wait") == 0)
        await_go("ready"); /* the driver injects the agent and arms it now */
    if (profiler)
        st_profiler_start();
    if (nvtx)
        st_nvtx_push("vprof_selftest");
    checked_phase(s0, s1);
    if (nvtx)
        st_nvtx_pop();
    if (profiler)
        st_profiler_stop();
    outside(s0);
    struct st_range r;
    checked_range(&r, !profiler && !nvtx);
    print_head(mode);
    print_ranges(&r, 1);
    print_end();
    return 0;
}

/* ---- graph-dormant: graphs instantiated while nobody traces (R2) -------------------- */

enum { DORMANT_NODES = 8, DORMANT_REPLAYS = 20, DORMANT_RANGES = 2 };

static st_graph capture_decode_graph(st_stream s, enum st_kernel k)
{
    st_capture_begin(s);
    st_copy_to_device(s); /* the inputs, as a copy node */
    for (int i = 0; i < DORMANT_NODES; i++)
        st_launch(k, s, 0);
    st_memset(s);         /* a memset node */
    return st_capture_end(s);
}

static int graph_dormant(void)
{
    st_init();
    st_stream s = st_stream_create();
    /* start-up: capture and instantiate while the agent is dormant, as vLLM and SGLang do */
    st_graph a = capture_decode_graph(s, ST_GRAPH_A);
    st_graph b = capture_decode_graph(s, ST_GRAPH_B);
    st_graph_launch(a, s); /* a warm replay of A before anyone attaches; B is first replayed in a range */
    st_sync();
    struct st_range ranges[DORMANT_RANGES];
    for (int r = 0; r < DORMANT_RANGES; r++) {
        /* go: the driver has attached (r = 0), or has seen the previous range closed */
        await_go(r == 0 ? "captured" : "next");
        st_profiler_start();
        for (int i = 0; i < DORMANT_REPLAYS; i++) {
            st_graph_launch(a, s);
            st_graph_launch(b, s);
            st_launch(ST_ADD, s, 0); /* eager work between replays */
        }
        st_sync();
        st_profiler_stop();
        range_init(&ranges[r]);
        ranges[r].kernels[ST_GRAPH_A] = DORMANT_NODES * DORMANT_REPLAYS;
        ranges[r].kernels[ST_GRAPH_B] = DORMANT_NODES * DORMANT_REPLAYS;
        ranges[r].kernels[ST_ADD] = DORMANT_REPLAYS;
        ranges[r].kernel_launches = DORMANT_REPLAYS;
        ranges[r].graph_launches = 2 * DORMANT_REPLAYS;
        ranges[r].memcpys = 2 * DORMANT_REPLAYS;
        ranges[r].n_graphs = 2;
        ranges[r].graphs[0] = (struct st_graph_expect){ ST_GRAPH_A, DORMANT_NODES, 1, 1, DORMANT_REPLAYS };
        ranges[r].graphs[1] = (struct st_graph_expect){ ST_GRAPH_B, DORMANT_NODES, 1, 1, DORMANT_REPLAYS };
    }
    event("stopped");
    print_head("graph-dormant");
    print_ranges(ranges, DORMANT_RANGES);
    print_end();
    st_graph_destroy(a);
    st_graph_destroy(b);
    return 0;
}

/* ---- unsync-stop: a kernel still running at cudaProfilerStop (R3) ------------------ */

enum { UNSYNC_KERNELS = 100, UNSYNC_AFTER = 50 };
static const unsigned long long SPIN_NS = 500000000ull;

static int unsync_stop(void)
{
    st_init();
    st_stream s0 = st_stream_create(), s1 = st_stream_create();
    outside(s0);
    st_profiler_start();
    for (int i = 0; i < UNSYNC_KERNELS; i++)
        st_launch(ST_ADD, s0, 0);
    st_launch(ST_SPIN, s0, SPIN_NS);
    const double t0 = now_ns();
    st_profiler_stop(); /* no synchronize before it: vLLM's CudaProfilerWrapper does not */
    const double stop_ns = now_ns() - t0;
    /* On another stream: these finish while the spin still runs, before the range's last record. */
    for (int i = 0; i < UNSYNC_AFTER; i++)
        st_launch(ST_AFTER_STOP, s1, 0);
    st_sync();
    struct st_range r;
    range_init(&r);
    r.kernels[ST_ADD] = UNSYNC_KERNELS;
    r.kernels[ST_SPIN] = 1;
    r.kernels[ST_AFTER_STOP] = 0;
    r.kernel_launches = UNSYNC_KERNELS + 1;
    print_head("unsync-stop");
    print_ranges(&r, 1);
    /* How long cudaProfilerStop took: a stop that waited for the GPU took about spin_ns. */
    printf(",\"spin_ns\":%llu,\"stop_call_ns\":%.0f,\"after_stop\":%d", SPIN_NS, stop_ns, UNSYNC_AFTER);
    print_end();
    return 0;
}

/* ---- threads: many launching threads, per-thread buffers (R6) ------------------------ */

enum { THREADS = 32, THREAD_LAUNCHES = 500 };

struct thread_work {
    st_stream s;
    pthread_t tid;
};

static void *thread_main(void *arg)
{
    struct thread_work *w = (struct thread_work *)arg;
    for (int i = 0; i < THREAD_LAUNCHES; i++)
        st_launch(ST_THREAD, w->s, 0);
    st_stream_sync(w->s);
    return NULL;
}

static int threads(void)
{
    st_init();
    st_stream s = st_stream_create();
    outside(s);
    static struct thread_work work[THREADS];
    for (int t = 0; t < THREADS; t++)
        work[t].s = st_stream_create();
    st_profiler_start();
    for (int t = 0; t < THREADS; t++) {
        if (pthread_create(&work[t].tid, NULL, thread_main, &work[t]) != 0) {
            fprintf(stderr, "selftest: pthread_create failed\n");
            exit(3);
        }
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(work[t].tid, NULL);
    st_sync();
    st_profiler_stop();
    outside(s);
    struct st_range r;
    range_init(&r);
    r.kernels[ST_THREAD] = THREADS * THREAD_LAUNCHES;
    r.kernels[ST_ADD] = 0;
    r.kernel_launches = THREADS * THREAD_LAUNCHES;
    print_head("threads");
    print_ranges(&r, 1);
    printf(",\"threads\":%d", THREADS);
    print_end();
    return 0;
}

/* ---- launch-cost: ns per launch in phases the driver chooses (R7) -------------------- */

enum { COST_BLOCKS = 5, COST_ROUNDS = 21, COST_PER_ROUND = 1000 };

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median ns per launch over rounds of COST_PER_ROUND launches (the GPU waited for between
 * rounds, not timed), and the median of each of COST_BLOCKS blocks of rounds: their spread is
 * the measurement's own noise. Returns the launches made. */
static long measure(st_stream s, const char *phase)
{
    static double all[COST_BLOCKS * COST_ROUNDS];
    double blocks[COST_BLOCKS];
    for (int b = 0; b < COST_BLOCKS; b++) {
        double rounds[COST_ROUNDS];
        for (int r = 0; r < COST_ROUNDS; r++) {
            const double t0 = now_ns();
            for (int i = 0; i < COST_PER_ROUND; i++)
                st_launch(ST_EMPTY, s, 0);
            rounds[r] = (now_ns() - t0) / COST_PER_ROUND;
            all[b * COST_ROUNDS + r] = rounds[r];
            st_stream_sync(s);
        }
        blocks[b] = median(rounds, COST_ROUNDS);
    }
    printf("{\"event\":\"measured\",\"phase\":\"%s\",\"ns_per_launch\":%.2f,\"block_medians\":[", phase,
           median(all, COST_BLOCKS * COST_ROUNDS));
    for (int b = 0; b < COST_BLOCKS; b++)
        printf("%s%.2f", b ? "," : "", blocks[b]);
    printf("],\"launches\":%d}\n", COST_BLOCKS * COST_ROUNDS * COST_PER_ROUND);
    fflush(stdout);
    return (long)COST_BLOCKS * COST_ROUNDS * COST_PER_ROUND;
}

/*
 * Commands, one a line: "measure PHASE", "start" (cudaProfilerStart), "stop" (synchronize,
 * cudaProfilerStop), "launch" (one launch, synchronized: where a dormant agent finalizes
 * CUPTI), "exit". Each is answered with an event line.
 */
static int launch_cost(void)
{
    st_init();
    st_stream s = st_stream_create();
    for (int i = 0; i < 2000; i++) /* warm-up: module loading, the launch path's first touches */
        st_launch(ST_EMPTY, s, 0);
    st_sync();
    struct st_range ranges[8];
    int n_ranges = 0, in_range = 0;
    char line[128];
    event("ready");
    for (;;) {
        read_line(line, sizeof line);
        if (strncmp(line, "measure ", 8) == 0) {
            const long n = measure(s, line + 8);
            if (in_range)
                ranges[n_ranges - 1].kernels[ST_EMPTY] += n;
        } else if (strcmp(line, "start") == 0 && !in_range && n_ranges < 8) {
            st_profiler_start();
            range_init(&ranges[n_ranges]);
            ranges[n_ranges].kernels[ST_EMPTY] = 0;
            n_ranges++;
            in_range = 1;
            event("started");
        } else if (strcmp(line, "stop") == 0 && in_range) {
            st_sync();
            st_profiler_stop();
            in_range = 0;
            event("stopped");
        } else if (strcmp(line, "launch") == 0) {
            st_launch(ST_EMPTY, s, 0);
            st_sync();
            if (in_range)
                ranges[n_ranges - 1].kernels[ST_EMPTY]++;
            event("launched");
        } else if (strcmp(line, "exit") == 0) {
            break;
        } else {
            fprintf(stderr, "selftest: launch-cost: unknown or misplaced command '%s'\n", line);
            return 2;
        }
    }
    for (int r = 0; r < n_ranges; r++)
        ranges[r].kernel_launches = ranges[r].kernels[ST_EMPTY];
    print_head("launch-cost");
    print_ranges(ranges, n_ranges);
    print_end();
    return 0;
}

/* ---- nvtx-early: NVTX before CUDA initializes (R12) ---------------------------------- */

enum { WINDOW_KERNELS = 50 };

static int nvtx_early(void)
{
    /* An import-time range: NVTX looks for its injection library here, once for the process. */
    st_nvtx_push("vprof_selftest_import");
    st_nvtx_pop();
    st_init();
    st_stream s = st_stream_create();
    outside(s);
    st_nvtx_push("vprof_selftest_window");
    for (int i = 0; i < WINDOW_KERNELS; i++)
        st_launch(ST_WINDOW, s, 0);
    st_sync();
    st_nvtx_pop();
    outside(s);
    struct st_range r;
    range_init(&r);
    r.kernels[ST_WINDOW] = WINDOW_KERNELS;
    r.kernels[ST_ADD] = 0;
    r.kernel_launches = WINDOW_KERNELS;
    print_head("nvtx-early");
    print_ranges(&r, 1);
    print_end();
    return 0;
}

/* ---- graph-stress: 10^6 graph kernels in one range (R4) ------------------------------ */

enum { STRESS_NODES = 1000, STRESS_REPLAYS = 1000, STRESS_BATCH = 20 };

static int graph_stress(void)
{
    st_init();
    st_stream s = st_stream_create();
    unsigned long long free0 = 0, free1 = 0, total = 0;
    st_profiler_start();
    /* Captured inside the range, so kernel tracing is on when it is instantiated (R2 is
       graph-dormant's question, not this one's). */
    st_capture_begin(s);
    for (int i = 0; i < STRESS_NODES; i++)
        st_launch(ST_STRESS, s, 0);
    st_graph g = st_capture_end(s);
    st_mem_info(&free0, &total);
    /* Synchronized every STRESS_BATCH replays, as a server waits for its steps: CUPTI makes a
       record when work is launched and completes it when the work has run, so a CPU that runs a
       whole second ahead of the GPU holds 10^6 incomplete records in the agent's buffers. */
    for (int i = 0; i < STRESS_REPLAYS; i++) {
        st_graph_launch(g, s);
        if (i % STRESS_BATCH == STRESS_BATCH - 1)
            st_stream_sync(s);
    }
    st_sync();
    st_mem_info(&free1, &total);
    st_profiler_stop();
    struct st_range r;
    range_init(&r);
    r.kernels[ST_STRESS] = (long)STRESS_NODES * STRESS_REPLAYS;
    r.kernel_launches = 0; /* the captured launches only became nodes */
    r.graph_launches = STRESS_REPLAYS;
    r.n_graphs = 1;
    r.graphs[0] = (struct st_graph_expect){ ST_STRESS, STRESS_NODES, 0, 0, STRESS_REPLAYS };
    print_head("graph-stress");
    print_ranges(&r, 1);
    /* CUPTI's device buffers grow with graph records (docs/cupti-field-facts.md §2): free device memory before and after. */
    printf(",\"device_free_before\":%llu,\"device_free_after\":%llu,\"device_total\":%llu", free0, free1, total);
    print_end();
    st_graph_destroy(g);
    return 0;
}

/* ---- info ---------------------------------------------------------------------------- */

static int info(void)
{
    st_init();
    unsigned long long free_b = 0, total = 0;
    st_mem_info(&free_b, &total);
    print_head("info");
    printf(",\"device_total\":%llu,\"shapes\":{", total);
    for (int k = 0; k < ST_KERNELS; k++)
        printf("%s\"%s\":[%u,%u]", k ? "," : "", st_kernels[k].name, st_kernels[k].grid, st_kernels[k].block);
    printf("}");
    print_end();
    return 0;
}

/* Every case with its name on the command line; checked() runs the four checked-phase modes. */
static int profiler_mode(void) { return checked("profiler"); }
static int nvtx_mode(void) { return checked("nvtx"); }
static int none_mode(void) { return checked("none"); }
static int wait_mode(void) { return checked("wait"); }

static const struct {
    const char *name;
    int (*run)(void);
} CASES[] = {
    { "info", info },
    { "profiler", profiler_mode },
    { "nvtx", nvtx_mode },
    { "none", none_mode },
    { "wait", wait_mode },
    { "graph-dormant", graph_dormant },
    { "unsync-stop", unsync_stop },
    { "threads", threads },
    { "launch-cost", launch_cost },
    { "nvtx-early", nvtx_early },
    { "graph-stress", graph_stress },
};

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "profiler";
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        if (strcmp(c, CASES[i].name) == 0)
            return CASES[i].run();
    fprintf(stderr, "usage: selftest CASE, one of:");
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        fprintf(stderr, " %s", CASES[i].name);
    fprintf(stderr, "\n");
    return 2;
}
