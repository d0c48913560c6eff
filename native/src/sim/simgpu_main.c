/*
 * vprof-simgpu: a synthetic GPU process. It "runs" an LLM inference schedule
 * on the CUPTI test double (libvprof-cuptisim.so, soname libcupti.so.13), so
 * that vprof's agent, injected through CUDA_INJECTION64_PATH exactly as libcuda
 * would, can be exercised without a GPU. Nothing it reports is a GPU figure.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/simgpu_crew.h"
#include "sim/cuptisim_helpers.h"
#include "sim/simgpu_driver.h"
#include "sim/simgpu_kineto.h"
#include "sim/simgpu_model.h"
#include "sim/simgpu_options.h"
#include "sim/simgpu_replay.h"
#include "sim/simgpu_rendezvous.h"

struct counts {
    uint64_t kernels, in_profiler, in_nvtx, memcpys, steps, graph_launches, replay_late;
    uint64_t loop_ns;     /* time in the step loop: what a dormant agent must not slow down */
    uint64_t loop_cpu_ns; /* CPU time of this thread in that loop: immune to other processes' load */
    int device;
};

static volatile sig_atomic_t stop_requested;
static pid_t workers[SIMGPU_MAX_WORKERS];
static volatile sig_atomic_t worker_count;
static struct simgpu_replay_script replay_script; /* --replay: loaded before any process starts */

/* Finish the current step, then leave: SIGTERM and SIGINT end the run cleanly
 * (status 0), so a profiler sees open ranges closed and buffers flushed. A
 * parent passes the signal on to its workers. */
static void on_stop_signal(int sig) {
    stop_requested = 1;
    for (int i = 0; i < worker_count; i++)
        if (workers[i] > 0) kill(workers[i], sig);
}

static void install_signal_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a blocking read or sleep returns to check the flag */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

#define APPEND(...) (n += snprintf(line + n, sizeof line - (size_t)n, __VA_ARGS__))

/* The fields after steps= appear only where they mean something (see --help). */
static void print_summary(const struct simgpu_options *o, const char *role, const struct counts *c) {
    char line[1024];
    int n = 0;
    APPEND("vprof-simgpu: pid=%d role=%s kernels=%llu kernels_in_profiler_ranges=%llu kernels_in_nvtx_ranges=%llu "
           "memcpys=%llu steps=%llu loop_ns=%llu loop_cpu_ns=%llu device=%d",
           (int)getpid(), role, (unsigned long long)c->kernels, (unsigned long long)c->in_profiler,
           (unsigned long long)c->in_nvtx, (unsigned long long)c->memcpys, (unsigned long long)c->steps,
           (unsigned long long)c->loop_ns, (unsigned long long)c->loop_cpu_ns, c->device);
    if (o->cuda_graph) APPEND(" graph_launches=%llu", (unsigned long long)c->graph_launches);
    if (o->replay != NULL) APPEND(" replay_late=%llu", (unsigned long long)c->replay_late);
    if (o->kineto_range_count > 0 && strcmp(role, "parent") != 0) {
        struct simgpu_kineto_stats k;
        simgpu_kineto_stats(&k);
        APPEND(" kineto_records=%llu kineto_kernels=%llu kineto_foreign_buffers=%llu kineto_teardowns=%llu "
               "kineto_teardowns_skipped=%llu", (unsigned long long)k.records, (unsigned long long)k.kernels,
               (unsigned long long)k.foreign_buffers, (unsigned long long)k.teardowns,
               (unsigned long long)k.teardowns_skipped);
    }
    struct simcuda_stats st;
    simcuda_get_stats(&st);
    const char *rate = getenv("VPROF_SIM_INVALID_TS_RATE");
    if (rate != NULL && *rate != '\0')
        APPEND(" invalid_end_before_start=%llu invalid_start_zero=%llu invalid_end_zero=%llu invalid_both_zero=%llu",
               (unsigned long long)st.invalid_end_before_start, (unsigned long long)st.invalid_start_zero,
               (unsigned long long)st.invalid_end_zero, (unsigned long long)st.invalid_both_zero);
    if (st.device_timestamps_torn + st.device_timestamps_dropped > 0)
        APPEND(" device_timestamps_torn=%llu device_timestamps_dropped=%llu",
               (unsigned long long)st.device_timestamps_torn, (unsigned long long)st.device_timestamps_dropped);
    APPEND("\n");
    if (n >= (int)sizeof line) n = (int)sizeof line - 1;
    if (n > 0) (void)!write(STDERR_FILENO, line, (size_t)n); /* one write: lines of workers never interleave */
}

static uint64_t monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_until_monotonic(uint64_t t) {
    struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u), .tv_nsec = (long)(t % 1000000000u) };
    while (!stop_requested && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

/* The device a process started on its own uses: LOCAL_RANK, as a torchrun- or
 * vLLM-launched worker calls cudaSetDevice(local_rank); 0 without it. */
static int device_from_local_rank(void) {
    const char *v = getenv("LOCAL_RANK");
    if (v == NULL || *v < '0' || *v > '9') return 0;
    char *end;
    long n = strtol(v, &end, 10);
    return *end == '\0' && n >= 0 && n < 4096 ? (int)n : 0;
}

/* What a process does before its schedule: NVTX before CUDA if asked, CUDA
 * init (which loads an injected agent), its device. Worker i uses device i-1;
 * a process on its own uses its LOCAL_RANK's. */
static void start_gpu(const struct simgpu_options *o, int worker_index, struct counts *c) {
    if (o->bare) simcuda_helpers_disable();
    if (o->nvtx_before_init[0] != '\0') { /* an NVTX module initialised before CUDA */
        simcuda_nvtx_push(o->nvtx_before_init);
        simcuda_nvtx_pop();
    }
    if (simcuda_init() != 0)
        fprintf(stderr, "vprof-simgpu: pid=%d continues without the injected library\n", (int)getpid());
    c->device = worker_index > 0 ? worker_index - 1 : device_from_local_rank();
    if (simcuda_set_device((uint32_t)c->device) != 0) {
        fprintf(stderr, "vprof-simgpu: pid=%d has no device %d (VPROF_SIM_DEVICE_COUNT); using device 0\n",
                (int)getpid(), c->device);
        c->device = 0;
    }
}

/* Workers of one run differ (as TP ranks do) but each is reproducible. */
static uint64_t seed_of(const struct simgpu_options *o, int worker_index) {
    return o->seed + 0x100000001b3ull * (uint64_t)worker_index;
}

static int starts_at(const struct simgpu_range *r, int n, long step) {
    for (int i = 0; i < n; i++)
        if (r[i].start == step) return 1;
    return 0;
}

static int ends_after(const struct simgpu_range *r, int n, long step) {
    for (int i = 0; i < n; i++)
        if (r[i].end - 1 == step) return 1;
    return 0;
}

/* vLLM's stop: a long kernel still queued, no synchronize. */
static void profiler_stop(const struct simgpu_options *o, struct simgpu_crew *crew, struct counts *c) {
    if (o->stop_kernel_us > 0) {
        simcuda_dim3 grid = { 132, 1, 1 }, block = { 256, 1, 1 };
        simcuda_launch_kernel(crew->models[0].compute, "_Z21long_kernel_at_stopv", grid, block,
                              simgpu_slow_duration(o->slow, o->slow_count, "_Z21long_kernel_at_stopv", o->stop_kernel_us * 1000u));
        c->kernels++;
        c->in_profiler++;
    }
    simcuda_profiler_stop();
}

/* The --steps / --duration schedule. Ranges are placed by step index:
 * a range A:B opens before step A and closes after step B-1. */
static void run_schedule(const struct simgpu_options *o, int worker_index, struct counts *c) {
    static struct simgpu_crew crew;
    static struct simgpu_replay replay;
    start_gpu(o, worker_index, c);
    if (o->replay != NULL) {
        char err[512];
        uint32_t index = worker_index > 0 ? (uint32_t)worker_index - 1 : 0;
        if (simgpu_replay_prepare(&replay, &replay_script, index, o->slow, o->slow_count, err, sizeof err) != 0) {
            fprintf(stderr, "vprof-simgpu: %s\n", err);
            simcuda_shutdown();
            exit(1);
        }
        if (replay.count > 0) c->device = (int)replay.ops[0].device;
    } else {
        simgpu_crew_start(&crew, o, seed_of(o, worker_index)); /* graphs are captured here, while dormant */
    }
    int profiler_open = 0, kineto_open = 0;
    int nvtx_stack[SIMGPU_MAX_RANGES], nvtx_depth = 0;
    uint64_t t0 = monotonic_ns();
    uint64_t cpu0 = thread_cpu_ns();
    for (long step = 0; !stop_requested; step++) {
        if (o->steps >= 0 && step >= o->steps) break;
        if (o->duration_ns > 0 && monotonic_ns() - t0 >= o->duration_ns) break;
        if (o->step_us > 0) {
            sleep_until_monotonic(t0 + (uint64_t)step * o->step_us * 1000u);
            if (stop_requested) break;
        }
        if (starts_at(o->kineto_ranges, o->kineto_range_count, step)) { simgpu_kineto_start(o->kineto_tsc); kineto_open = 1; }
        if (starts_at(o->profiler_ranges, o->profiler_range_count, step)) { simcuda_profiler_start(); profiler_open = 1; }
        for (int r = 0; r < o->nvtx_range_count; r++) /* sorted: outer ranges first */
            if (o->nvtx_ranges[r].start == step) { simcuda_nvtx_push(o->nvtx_ranges[r].name); nvtx_stack[nvtx_depth++] = r; }
        if (o->nvtx_steps) simcuda_nvtx_push("step");

        /* every 8th step carries a prompt (prefill); the rest decode */
        int prefill = step % 8 == 0 ? 512 : 0;
        int decode = 16 + (int)(step % 48);
        struct simgpu_step_result res = o->replay != NULL ? simgpu_replay_pass(&replay) : simgpu_crew_step(&crew, prefill, decode, 1);
        c->kernels += res.kernels;
        c->memcpys += res.memcpys;
        c->graph_launches += res.graph_launches;
        if (profiler_open) c->in_profiler += res.kernels;
        if (nvtx_depth > 0) c->in_nvtx += res.kernels;
        c->steps++;

        if (o->nvtx_steps) simcuda_nvtx_pop();
        while (nvtx_depth > 0 && o->nvtx_ranges[nvtx_stack[nvtx_depth - 1]].end - 1 == step) {
            simcuda_nvtx_pop();
            nvtx_depth--;
        }
        if (profiler_open && ends_after(o->profiler_ranges, o->profiler_range_count, step)) {
            profiler_stop(o, &crew, c);
            profiler_open = 0;
        }
        if (kineto_open && ends_after(o->kineto_ranges, o->kineto_range_count, step)) { simgpu_kineto_stop(o->step_us > 0); kineto_open = 0; }
        /* a paced engine waits for its sampled tokens before the next step */
        if (o->sync_each_step == 2) simcuda_stream_synchronize(0);
        else if (o->sync_each_step == 1) simcuda_device_synchronize();
        else if (o->step_us > 0) simcuda_synchronize();
    }
    /* cut short (--steps, --duration, a signal): close what is still open */
    while (nvtx_depth-- > 0) simcuda_nvtx_pop();
    if (profiler_open) profiler_stop(o, &crew, c);
    if (kineto_open) simgpu_kineto_stop(o->step_us > 0);
    c->loop_ns = monotonic_ns() - t0;
    c->loop_cpu_ns = thread_cpu_ns() - cpu0;
    c->replay_late = replay.late;
    if (o->replay == NULL) simgpu_crew_stop(&crew);
    simcuda_shutdown();
}

/* --serve: one command per line on stdin, one reply per line on stdout. */
static void run_serve(const struct simgpu_options *o, int worker_index, struct counts *c) {
    struct simgpu_model m;
    start_gpu(o, worker_index, c);
    simgpu_model_init(&m, seed_of(o, worker_index), o->kernels_per_step, o->memcpys_per_step);
    m.slow = o->slow;
    m.slow_count = o->slow_count;
    int profiler_open = 0;
    char line[256];
    while (!stop_requested && fgets(line, sizeof line, stdin) != NULL) {
        char cmd[16] = "";
        long prefill = -1, decode = -1;
        char extra[2];
        int fields = sscanf(line, "%15s %ld %ld %1s", cmd, &prefill, &decode, extra);
        if (fields <= 0) continue; /* blank line */
        if (strcmp(cmd, "step") == 0) {
            if (fields != 3 || prefill < 0 || decode < 0 || prefill > 1000000 || decode > 100000 || prefill + decode == 0) {
                printf("error: expected 'step PREFILL_TOKENS DECODE_SEQS' with non-negative numbers, not both 0\n");
            } else {
                struct simgpu_step_result res = simgpu_model_step(&m, (int)prefill, (int)decode, 0);
                c->kernels += res.kernels;
                c->memcpys += res.memcpys;
                if (profiler_open) c->in_profiler += res.kernels;
                c->steps++;
                simcuda_synchronize(); /* the reply means the step's GPU work is done */
                printf("ok\n");
            }
        } else if (strcmp(cmd, "start") == 0 && fields == 1) {
            simcuda_profiler_start();
            profiler_open = 1;
            printf("ok\n");
        } else if (strcmp(cmd, "stop") == 0 && fields == 1) {
            simcuda_profiler_stop();
            profiler_open = 0;
            printf("ok\n");
        } else if (strcmp(cmd, "exit") == 0 && fields == 1) {
            printf("ok\n");
            fflush(stdout);
            break;
        } else {
            line[strcspn(line, "\n")] = '\0';
            printf("error: unknown command '%s' (commands: step PREFILL_TOKENS DECODE_SEQS, start, stop, exit)\n", line);
        }
        fflush(stdout);
    }
    if (profiler_open) simcuda_profiler_stop();
    simcuda_shutdown();
}

static int run_single(const struct simgpu_options *o, const char *role, int worker_index) {
    struct counts c = { 0 };
    if (o->serve) run_serve(o, worker_index, &c);
    else run_schedule(o, worker_index, &c);
    fflush(stdout);
    print_summary(o, role, &c);
    return 0;
}

/* Reads one reply line from a worker; returns 0 on EOF. */
static int read_line(int fd, char *buf, size_t cap) {
    size_t n = 0;
    while (n + 1 < cap) {
        char ch;
        ssize_t r = read(fd, &ch, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        if (ch == '\n') break;
        buf[n++] = ch;
    }
    buf[n] = '\0';
    return n > 0;
}

/* --serve --workers W: the parent (like vLLM's API server) relays each
 * command to every worker and answers once they all have. */
static void relay_commands(int to_worker[], int from_worker[], int n) {
    char line[258], reply[256]; /* room to append a newline to a 255-char line */
    int alive = 1;
    while (alive && !stop_requested && fgets(line, 256, stdin) != NULL) {
        char first[8] = "";
        if (sscanf(line, "%7s", first) != 1) continue;
        const char *error = NULL;
        char errbuf[300];
        for (int i = 0; i < n; i++) {
            size_t len = strlen(line);
            if (line[len - 1] != '\n') { line[len] = '\n'; line[len + 1] = '\0'; len++; }
            if (write(to_worker[i], line, len) != (ssize_t)len) {
                snprintf(errbuf, sizeof errbuf, "error: worker %d is gone", (int)workers[i]);
                error = errbuf;
                alive = 0;
            }
        }
        for (int i = 0; i < n; i++) {
            if (!read_line(from_worker[i], reply, sizeof reply)) {
                snprintf(errbuf, sizeof errbuf, "error: worker %d exited", (int)workers[i]);
                if (!error) error = errbuf;
                alive = 0;
            } else if (strncmp(reply, "ok", 2) != 0 && !error) {
                snprintf(errbuf, sizeof errbuf, "%s", reply);
                error = errbuf;
            }
        }
        printf("%s\n", error ? error : "ok");
        fflush(stdout);
        if (strcmp(first, "exit") == 0) break;
    }
    for (int i = 0; i < n; i++) close(to_worker[i]); /* EOF ends each worker's loop */
}

/* What torchrun gives each worker before it starts CUDA; the double's node has
 * one device per worker unless VPROF_SIM_DEVICE_COUNT says otherwise. */
static void export_rank(int rank, int world) {
    char v[16];
    snprintf(v, sizeof v, "%d", rank);
    setenv("RANK", v, 1);
    setenv("LOCAL_RANK", v, 1);
    snprintf(v, sizeof v, "%d", world);
    setenv("WORLD_SIZE", v, 1);
    setenv("VPROF_SIM_DEVICE_COUNT", v, 0);
}

static int run_parent(const struct simgpu_options *o) {
    int to_worker[SIMGPU_MAX_WORKERS], from_worker[SIMGPU_MAX_WORKERS];
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < o->workers; i++) {
        int down[2] = { -1, -1 }, up[2] = { -1, -1 };
        if (o->serve && (pipe(down) != 0 || pipe(up) != 0)) {
            perror("vprof-simgpu: pipe");
            break;
        }
        pid_t pid = fork();
        if (pid < 0) {
            perror("vprof-simgpu: fork");
            break;
        }
        if (pid == 0) {
            worker_count = 0; /* a worker forwards signals to nobody */
            if (o->replay != NULL && replay_script.processes[i].rank >= 0) /* the trace's own rank */
                export_rank(replay_script.processes[i].rank,
                            replay_script.processes[i].world_size > 0 ? replay_script.processes[i].world_size : o->workers);
            else
                export_rank(i, o->workers);
            if (o->serve) {
                dup2(down[0], STDIN_FILENO);
                dup2(up[1], STDOUT_FILENO);
                for (int j = 0; j < i; j++) { close(to_worker[j]); close(from_worker[j]); }
                close(down[0]); close(down[1]); close(up[0]); close(up[1]);
            }
            /* exit, not _exit: an injected agent's atexit handlers must run, as in a real worker */
            exit(run_single(o, "worker", i + 1));
        }
        workers[i] = pid;
        worker_count = i + 1;
        if (o->serve) {
            close(down[0]);
            close(up[1]);
            to_worker[i] = down[1];
            from_worker[i] = up[0];
        }
    }
    int started = worker_count;
    if (o->serve) relay_commands(to_worker, from_worker, started);
    int failed = started < o->workers;
    for (int i = 0; i < started; i++) {
        int status;
        while (waitpid(workers[i], &status, 0) < 0) {
            if (errno != EINTR) { status = -1; break; }
        }
        if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "vprof-simgpu: worker %d failed (%s %d)\n", (int)workers[i],
                    status != -1 && WIFSIGNALED(status) ? "signal" : "status",
                    status == -1 ? -1 : WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
            failed = 1;
        }
        workers[i] = 0;
    }
    struct counts none = { 0 };
    print_summary(o, "parent", &none);
    return failed ? 1 : 0;
}

/* --replay: the script is read once, before any worker forks; a process per
 * traced process, on a node with every device the trace uses. */
static int start_replay(struct simgpu_options *o) {
    char err[512];
    if (simgpu_replay_load(o->replay, &replay_script, err, sizeof err) != 0) {
        fprintf(stderr, "vprof-simgpu: %s\n", err);
        return -1;
    }
    uint32_t devices = replay_script.process_count; /* worker i starts on device i, as --workers does */
    for (uint32_t i = 0; i < replay_script.process_count; i++)
        if (replay_script.processes[i].max_device + 1 > devices) devices = replay_script.processes[i].max_device + 1;
    const char *have = getenv("VPROF_SIM_DEVICE_COUNT");
    if (have == NULL || atol(have) < (long)devices) {
        char v[16];
        snprintf(v, sizeof v, "%u", devices);
        setenv("VPROF_SIM_DEVICE_COUNT", v, 1);
    }
    if (replay_script.process_count > 1) {
        o->workers = (int)replay_script.process_count;
    } else if (replay_script.processes[0].rank >= 0) { /* what the traced process had in its environment */
        char v[16];
        snprintf(v, sizeof v, "%d", replay_script.processes[0].rank);
        setenv("RANK", v, 0);
        if (replay_script.processes[0].world_size > 0) {
            snprintf(v, sizeof v, "%d", replay_script.processes[0].world_size);
            setenv("WORLD_SIZE", v, 0);
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    struct simgpu_options o;
    int rc = simgpu_parse_options(argc, argv, &o);
    if (rc >= 0) return rc; /* --help (0) or a usage error (2) */
    install_signal_handlers();
    /* Unpaced, the simulated GPU runs far ahead of the wall clock (nothing
     * waits for it), so its work counts as complete when launched; a paced
     * run or --serve waits for each step and keeps CUPTI's asynchronous
     * completion. An explicit VPROF_SIM_COMPLETION wins. */
    if (!o.serve && o.step_us == 0) setenv("VPROF_SIM_COMPLETION", "at-launch", 0);
    if (o.replay != NULL && start_replay(&o) != 0) return 2;
    if (o.workers > 0) return run_parent(&o);
    if (o.rendezvous[0] != '\0' && simgpu_rendezvous_join(o.rendezvous, o.rank, o.world) != 0) return 1;
    rc = run_single(&o, "single", 0);
    simgpu_rendezvous_leave();
    return rc;
}
