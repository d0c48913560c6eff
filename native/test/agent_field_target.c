/*
 * agent_field_target.c: small CUDA programs over the CUPTI test double that do
 * what real inference servers do to a CUPTI agent (docs/cupti-field-facts.md), for the
 * agent's tests (agent_field_test.c) and the front end's end-to-end tests.
 * Each prints one summary line on stderr:
 *   agent_field_target: scenario=NAME pid=P in_range=N after_stop=M graph_kernels_in_range=G
 *
 *   graph-server   graphs captured and instantiated while the agent is dormant (before any
 *                  range), replayed inside a cudaProfilerApi range; a few replays after the
 *                  stop, no synchronize before it (vLLM and SGLang decode)
 *   unsync-stop    kernels, the last one 700 ms long, then cudaProfilerStop without a
 *                  synchronize, then more work after the stop (vLLM's CudaProfilerWrapper)
 *   kineto         a range in which torch.profiler (Kineto) starts: it registers its own
 *                  activity buffer callbacks and toggles kinds, without subscribing;
 *                  then a second range after torch.profiler stopped
 *   nvtx-before-cuda  an NVTX range before CUDA initializes, then a range "window" to capture
 *   invalid-ts     a range of steps under VPROF_SIM_INVALID_TS_RATE; prints what the double spoiled
 *   launch-cost    ns per launch before the first range and after it ended (R7)
 *   workers        two forked workers (RANK 0 and 1) running the same paced steps; only
 *                  rank 0 calls cudaProfilerStart/Stop (SGLang's base-GPU rank); with
 *                  AGENT_FIELD_WAIT=frontend they start once a front end has found both
 *
 * Exit status 0 unless the double refused something.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cupti_abi.h" /* CUPTI as vprof declares it (no CUDA headers needed) */

#include "sim/simgpu_driver.h"
#include "vprof_ring.h"

static const simcuda_dim3 GRID = { 132, 1, 1 }, BLOCK = { 128, 1, 1 };

static void sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

static void summary(const char *scenario, long in_range, long after, long graph_kernels)
{
    fprintf(stderr, "agent_field_target: scenario=%s pid=%d in_range=%ld after_stop=%ld graph_kernels_in_range=%ld\n",
            scenario, (int)getpid(), in_range, after, graph_kernels);
}

/* Arguments: replays graphs nodes-per-graph. */
static int graph_server(int argc, char **argv)
{
    const int replays = argc > 2 ? atoi(argv[2]) : 50;
    const int graphs = argc > 3 ? atoi(argv[3]) : 4;
    const int nodes = argc > 4 ? atoi(argv[4]) : 12;
    simcuda_init();
    simcuda_stream s = simcuda_stream_create();
    simcuda_graph graph[16];
    simcuda_graph_exec exec[16];
    /* start-up: capture one decode graph per batch size, while nobody traces */
    for (int g = 0; g < graphs && g < 16; g++) {
        if (simcuda_graph_begin_capture(s) != 0)
            return 1;
        for (int n = 0; n < nodes; n++) {
            char name[64];
            snprintf(name, sizeof name, "decode_layer_kernel_%d", n);
            simcuda_launch_kernel(s, name, GRID, BLOCK, 20000);
        }
        graph[g] = simcuda_graph_end_capture(s);
        exec[g] = simcuda_graph_instantiate(graph[g]);
        if (exec[g] == NULL)
            return 1;
    }
    simcuda_synchronize();
    long in_range = 0, graph_kernels = 0;
    simcuda_profiler_start();
    for (int r = 0; r < replays; r++) {
        simcuda_graph_launch(exec[r % graphs], s);
        simcuda_launch_kernel(s, "sample_tokens_kernel", GRID, BLOCK, 5000); /* eager, between replays */
        graph_kernels += nodes;
        in_range += nodes + 1;
        if (r % 10 == 9)
            simcuda_synchronize(); /* the server waits for a batch now and then, not at the stop */
    }
    simcuda_profiler_stop();
    long after = 0;
    for (int r = 0; r < 3; r++) {
        simcuda_graph_launch(exec[r % graphs], s);
        after += nodes;
    }
    simcuda_synchronize();
    sleep_ms(100);
    for (int g = 0; g < graphs && g < 16; g++) {
        simcuda_graph_exec_destroy(exec[g]);
        simcuda_graph_destroy(graph[g]);
    }
    summary("graph-server", in_range, after, graph_kernels);
    return 0;
}

static int unsync_stop(void)
{
    simcuda_init();
    simcuda_stream s = simcuda_stream_create();
    simcuda_profiler_start();
    for (int i = 0; i < 200; i++)
        simcuda_launch_kernel(s, "decode_kernel", GRID, BLOCK, 100000); /* 20 ms queued in all */
    simcuda_launch_kernel(s, "long_tail_kernel", GRID, BLOCK, 700000000); /* 700 ms, still running at the stop */
    simcuda_profiler_stop(); /* no synchronize: vLLM's wrapper does not */
    simcuda_stream s2 = simcuda_stream_create();
    for (int i = 0; i < 50; i++)
        simcuda_launch_kernel(s2, "after_stop_kernel", GRID, BLOCK, 10000);
    sleep_ms(1500); /* the server goes on */
    simcuda_synchronize();
    summary("unsync-stop", 201, 50, 0);
    return 0;
}

/* torch.profiler's activity buffers: Kineto hands out malloc'ed buffers and counts what it gets. */
static long kineto_records;
/* The ones it handed out and has not had back: one that CUPTI completes to vprof after vprof took
   the callbacks back stays here, reachable, as it stays allocated in a real process. */
static uint8_t *kineto_buffers[64];
/* CUPTI calls the two callbacks on whatever thread asks for or flushes a buffer (a launch on the
   main thread, vprof's control thread's cuptiActivityFlushAll), so Kineto locks its buffer map. */
static pthread_mutex_t kineto_lock = PTHREAD_MUTEX_INITIALIZER;
static void CUPTIAPI kineto_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *size = 1u << 20;
    *buffer = NULL;
    *max_records = 0;
    pthread_mutex_lock(&kineto_lock);
    for (size_t i = 0; i < sizeof kineto_buffers / sizeof kineto_buffers[0]; i++)
        if (kineto_buffers[i] == NULL) {
            *buffer = kineto_buffers[i] = aligned_alloc(8, *size);
            break;
        }
    pthread_mutex_unlock(&kineto_lock);
}
static void CUPTIAPI kineto_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)ctx; (void)stream; (void)size;
    CUpti_Activity *r = NULL;
    long n = 0;
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS)
        n++;
    pthread_mutex_lock(&kineto_lock);
    kineto_records += n;
    /* Kineto frees only buffers it allocated; one of another client's it leaves alone. */
    for (size_t i = 0; i < sizeof kineto_buffers / sizeof kineto_buffers[0]; i++)
        if (kineto_buffers[i] == buffer) {
            kineto_buffers[i] = NULL;
            free(buffer);
        }
    pthread_mutex_unlock(&kineto_lock);
}

static void steps(simcuda_stream s, int n, const char *name)
{
    for (int i = 0; i < n; i++) {
        simcuda_launch_kernel(s, name, GRID, BLOCK, 20000);
        if (i % 20 == 19)
            simcuda_synchronize();
    }
    simcuda_synchronize();
}

/* One profiler range (cudaProfilerStart to cudaProfilerStop) of `n` steps. */
static void range_of_steps(simcuda_stream s, int n, const char *name)
{
    simcuda_profiler_start();
    steps(s, n, name);
    simcuda_profiler_stop();
}

static int kineto(void)
{
    simcuda_init();
    simcuda_stream s = simcuda_stream_create();
    simcuda_profiler_start();
    steps(s, 100, "before_torch_profiler");
    /* torch.profiler.profile().__enter__: Kineto's CuptiActivityApi, no cuptiSubscribe */
    cuptiActivityRegisterCallbacks(kineto_requested, kineto_completed);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    steps(s, 100, "under_torch_profiler");
    /* __exit__: Kineto flushes and disables its kinds */
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    steps(s, 100, "after_torch_profiler");
    simcuda_profiler_stop();
    sleep_ms(2500); /* longer than vprof's drain window: the records it waits for never come */
    range_of_steps(s, 100, "second_range"); /* the next range: vprof takes the callbacks back */
    sleep_ms(300);
    pthread_mutex_lock(&kineto_lock);
    long records = kineto_records;
    pthread_mutex_unlock(&kineto_lock);
    fprintf(stderr, "agent_field_target: kineto_records=%ld\n", records);
    summary("kineto", 400, 0, 0);
    return 0;
}

/*
 * With AGENT_FIELD_WAIT=frontend: waits (at most 30 s) until a front end has found this
 * process's agent, i.e. written a heartbeat into its region, so that what the front end does
 * (relaying ranges) can be tested without guessing how long it takes to start.
 */
static void wait_for_frontend(void)
{
    const char *how = getenv("AGENT_FIELD_WAIT");
    if (how == NULL || strcmp(how, "frontend") != 0)
        return;
    char path[64];
    snprintf(path, sizeof path, "/dev/shm/" VPROF_SHM_PREFIX "%d", (int)getpid());
    for (int i = 0; i < 3000; i++, sleep_ms(10)) {
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            continue;
        struct vprof_control *c = mmap(NULL, sizeof *c, PROT_READ, MAP_SHARED, fd, 0);
        close(fd);
        if (c == MAP_FAILED)
            continue;
        const uint64_t first = __atomic_load_n(&c->heartbeat_ns, __ATOMIC_ACQUIRE);
        int seen = 0;
        for (int j = 0; j < 100 && !seen; j++, sleep_ms(10))
            seen = __atomic_load_n(&c->heartbeat_ns, __ATOMIC_ACQUIRE) != first;
        munmap(c, sizeof *c);
        if (seen)
            return;
    }
}

/* Arguments: steps step_ms first_range_step last_range_step. */
static int worker(int rank, int n, long step_ms, int from, int to, int *ready)
{
    char value[16];
    snprintf(value, sizeof value, "%d", rank);
    setenv("RANK", value, 1);
    setenv("LOCAL_RANK", value, 1);
    setenv("WORLD_SIZE", "2", 1);
    simcuda_init();
    simcuda_stream s = simcuda_stream_create();
    /* Both workers start their steps once the front end (if told to wait for one) knows both. */
    wait_for_frontend();
    __atomic_fetch_add(ready, 1, __ATOMIC_ACQ_REL);
    for (int i = 0; i < 3000 && __atomic_load_n(ready, __ATOMIC_ACQUIRE) < 2; i++)
        sleep_ms(10);
    long in_range = 0;
    for (int i = 0; i < n; i++) {
        if (rank == 0 && i == from)
            simcuda_profiler_start();
        for (int k = 0; k < 10; k++)
            simcuda_launch_kernel(s, rank == 0 ? "rank0_kernel" : "rank1_kernel", GRID, BLOCK, 20000);
        if (i >= from && i < to)
            in_range += 10;
        simcuda_synchronize();
        if (rank == 0 && i == to - 1)
            simcuda_profiler_stop();
        sleep_ms(step_ms);
    }
    sleep_ms(300);
    summary("workers", in_range, 0, 0);
    return 0;
}

static int workers(int argc, char **argv)
{
    const int n = argc > 2 ? atoi(argv[2]) : 120;
    const long step_ms = argc > 3 ? atol(argv[3]) : 10;
    const int from = argc > 4 ? atoi(argv[4]) : 30;
    const int to = argc > 5 ? atoi(argv[5]) : 90;
    int *ready = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (ready == MAP_FAILED)
        return 1;
    *ready = 0;
    pid_t pids[2];
    for (int r = 0; r < 2; r++) {
        pids[r] = fork();
        if (pids[r] == 0)
            _exit(worker(r, n, step_ms, from, to, ready));
    }
    int bad = 0;
    for (int r = 0; r < 2; r++) {
        int st = 0;
        waitpid(pids[r], &st, 0);
        bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
    return bad;
}

/* A range of paced steps under VPROF_SIM_INVALID_TS_RATE; prints what the double spoiled. */
static int invalid_ts(void)
{
    simcuda_init();
    simcuda_stream s = simcuda_stream_create();
    range_of_steps(s, 2000, "step_kernel");
    sleep_ms(200);
    struct simcuda_stats st;
    simcuda_get_stats(&st);
    fprintf(stderr, "agent_field_target: invalid end_before_start=%llu start_zero=%llu end_zero=%llu both_zero=%llu\n",
            (unsigned long long)st.invalid_end_before_start, (unsigned long long)st.invalid_start_zero,
            (unsigned long long)st.invalid_end_zero, (unsigned long long)st.invalid_both_zero);
    summary("invalid-ts", 2000, 0, 0);
    return 0;
}

/* NVTX before CUDA is initialized (an import-time range), then an NVTX range "window" over steps 10..19. */
static int nvtx_before_cuda(void)
{
    simcuda_nvtx_push("import_time");
    simcuda_nvtx_pop();
    simcuda_init();
    simcuda_stream s = simcuda_stream_create();
    for (int i = 0; i < 30; i++) {
        if (i == 10)
            simcuda_nvtx_push("window");
        for (int k = 0; k < 10; k++)
            simcuda_launch_kernel(s, "step_kernel", GRID, BLOCK, 20000);
        simcuda_synchronize();
        if (i == 19)
            simcuda_nvtx_pop();
    }
    sleep_ms(100);
    summary("nvtx-before-cuda", 100, 0, 0);
    return 0;
}

static volatile sig_atomic_t go;
static void on_usr1(int sig) { (void)sig; go = 1; }

/*
 * With AGENT_FIELD_WAIT=signal the test front end says when to go on (SIGUSR1: it has seen
 * the agent reach the state the next step needs), launching a kernel every 10 ms meanwhile;
 * otherwise the program waits `ms`.
 */
static void wait_for_front_end(simcuda_stream s, long ms)
{
    const char *how = getenv("AGENT_FIELD_WAIT");
    if (how == NULL || strcmp(how, "signal") != 0) {
        sleep_ms(ms);
        return;
    }
    for (int i = 0; i < 3000 && !go; i++) { /* at most 30 s */
        simcuda_launch_kernel(s, "waiting", GRID, BLOCK, 1000);
        sleep_ms(10);
    }
    go = 0;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Median ns per launch over `rounds` rounds of `n` launches (the simulated GPU is not waited for). */
static double launch_ns(simcuda_stream s, int n, int rounds)
{
    double best[64];
    if (rounds > 64)
        rounds = 64;
    for (int r = 0; r < rounds; r++) {
        const uint64_t t0 = now_ns();
        for (int i = 0; i < n; i++)
            simcuda_launch_kernel(s, "cost_kernel", GRID, BLOCK, 1000);
        best[r] = (double)(now_ns() - t0) / n;
        simcuda_synchronize();
    }
    for (int i = 1; i < rounds; i++) /* insertion sort: a handful of values */
        for (int j = i; j > 0 && best[j] < best[j - 1]; j--) {
            double x = best[j];
            best[j] = best[j - 1];
            best[j - 1] = x;
        }
    return best[rounds / 2];
}

/* Launch cost before the first range and after it ended (R7). Arguments: launches per round. */
static int launch_cost(int argc, char **argv)
{
    const int n = argc > 2 ? atoi(argv[2]) : 20000;
    simcuda_init();
    simcuda_stream s = simcuda_stream_create();
    const double before = launch_ns(s, n, 15);
    range_of_steps(s, 100, "range_kernel");
    wait_for_front_end(s, 1000); /* the agent drains, goes DORMANT (repeat=1), finalizes at a launch */
    simcuda_launch_kernel(s, "first_after", GRID, BLOCK, 1000);
    simcuda_synchronize();
    const double after = launch_ns(s, n, 15);
    fprintf(stderr, "agent_field_target: launch_ns_before=%.1f launch_ns_after=%.1f ratio=%.3f\n", before, after,
            after / before);
    summary("launch-cost", 100, 0, 0);
    return 0;
}

/* A range, a quiet spell with launches now and then (the agent finalizes at one of them), a second range. */
static int rearm(void)
{
    simcuda_init();
    simcuda_stream s = simcuda_stream_create();
    range_of_steps(s, 100, "first_range");
    wait_for_front_end(s, 2000); /* the agent finalizes at a launch; the front end arms it again */
    range_of_steps(s, 100, "second_range");
    sleep_ms(300);
    summary("rearm", 200, 0, 0);
    return 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    signal(SIGUSR1, on_usr1);
    /* each scenario by its name; it takes the command line's arguments or none */
    static const struct {
        const char *name;
        int (*run)(void);
        int (*run_with_args)(int argc, char **argv);
    } scenarios[] = {
        {"rearm", rearm, NULL},
        {"launch-cost", NULL, launch_cost},
        {"nvtx-before-cuda", nvtx_before_cuda, NULL},
        {"invalid-ts", invalid_ts, NULL},
        {"graph-server", NULL, graph_server},
        {"unsync-stop", unsync_stop, NULL},
        {"kineto", kineto, NULL},
        {"workers", NULL, workers},
    };
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        if (strcmp(what, scenarios[i].name) == 0)
            return scenarios[i].run != NULL ? scenarios[i].run() : scenarios[i].run_with_args(argc, argv);
    }
    fprintf(stderr, "usage: agent_field_target graph-server|unsync-stop|kineto|workers [ARGS]\n");
    return 2;
}
