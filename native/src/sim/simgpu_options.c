/* simgpu_options.c: parsing and checking vprof-simgpu's command line. */
#include "sim/simgpu_options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The help's body; its usage line and examples name the command as it was typed (print_help). */
static const char HELP[] =
"\n"
"A synthetic GPU process for testing vprof without a GPU. It runs the kernels of\n"
"an LLM inference engine (attention, GEMMs, norms, activations, rotary, KV-cache\n"
"writes, NCCL all-reduce, sampling) on a simulated GPU behind a CUPTI test double,\n"
"so vprof's agent sees what it would see under CUDA. It loads an agent the way\n"
"libcuda does: set CUDA_INJECTION64_PATH to the agent library. No figure it\n"
"produces is a GPU measurement.\n"
"\n"
"How long:\n"
"  --steps N               run N forward steps (default 100)\n"
"  --duration D            run for D instead: 500ms, 10s, 2m, or plain seconds\n"
"  --step-us U             start a step every U microseconds and wait for its GPU\n"
"                          work (a realistic timeline); 0 = as fast as possible,\n"
"                          without waiting, so the simulated GPU's timestamps may run\n"
"                          ahead of the wall clock and its work counts as complete\n"
"                          when launched (default 0)\n"
"\n"
"What a step does:\n"
"  --kernels-per-step K    kernels launched per step, exactly (default 40), on a\n"
"                          compute stream and an NCCL stream\n"
"  --memcpy-per-step M     copies per step (default 2: inputs host-to-device before\n"
"                          the kernels, sampled tokens device-to-host after)\n"
"\n"
"Ranges (A:B means: open before step A, close after step B-1; steps count from 0):\n"
"  --profiler-range A:B    cudaProfilerStart before step A, cudaProfilerStop after\n"
"                          step B-1; repeatable, ranges must not overlap\n"
"  --nvtx                  an NVTX range named 'step' around every step\n"
"  --nvtx-range NAME:A:B   nvtxRangePushA(NAME) before step A, nvtxRangePop after\n"
"                          step B-1; repeatable, ranges must nest or be disjoint\n"
"\n"
"Processes:\n"
"  --workers W             fork W worker processes that each initialize \"CUDA\" and\n"
"                          run the schedule; this parent does no GPU work (like\n"
"                          vLLM's API server and its GPU workers). Worker i (0..W-1)\n"
"                          gets RANK=i, LOCAL_RANK=i, WORLD_SIZE=W in its environment\n"
"                          before CUDA starts (as torchrun sets them) and uses device i\n"
"                          of a W-device node. Exit status is non-zero if any worker\n"
"                          failed. Without --workers the process uses the device its\n"
"                          LOCAL_RANK names (0 without one), as a launched worker does.\n"
"  --threads N             launch each step's kernels from N threads of the process,\n"
"                          each on its own streams (default 1); CUPTI gives each\n"
"                          launching thread a buffer of its own (CUDA 13's default)\n"
"  --serve                 read commands from stdin, one per line, and reply 'ok' or\n"
"                          'error: ...' on stdout:\n"
"                            step PREFILL_TOKENS DECODE_SEQS  one forward step; its\n"
"                                kernels and durations grow with the batch\n"
"                            start | stop  cudaProfilerStart | cudaProfilerStop\n"
"                            exit\n"
"                          With --workers, every worker runs each command.\n"
"  --sync device|stream    end every step with a cudaDeviceSynchronize call, or a\n"
"                          cudaStreamSynchronize of the default stream, paced or not\n"
"                          (a paced step otherwise waits for the GPU without a call):\n"
"                          one API call and synchronization record per step\n"
"  --bare                  start no driver helper threads: each GPU process stays\n"
"                          single-threaded (by default \"CUDA\" init starts libcuda's\n"
"                          two: cuda-EvtHandlr in poll, a worker in a condition wait)\n"
"  --slow SUBSTRING:FACTOR kernels whose names contain SUBSTRING (case-sensitive,\n"
"                          the name as launched: mangled for C++ kernels) take\n"
"                          FACTOR times as long, e.g. gemm:1.3; repeatable, the\n"
"                          factors of all matching rules multiply (a planted\n"
"                          regression for vprof diff)\n"
"  --replay SCRIPT         play a recorded trace's GPU work instead of the synthetic\n"
"                          schedule: a replay script, which `vprof simulate --replay\n"
"                          TRACE` writes from a .vprof, a PyTorch profiler trace or a\n"
"                          folder of rank traces (docs/simulator.md). The same kernel\n"
"                          names, durations, gaps, streams, devices, grid and block,\n"
"                          copies and sets with their sizes and kinds; a process per\n"
"                          traced process (workers, as --workers makes them, with\n"
"                          the trace's RANK and WORLD_SIZE). A step is one pass over\n"
"                          the trace, so the range options count passes\n"
"  --loop N                passes of --replay (default 1); or --duration D\n"
"  --rendezvous NAME --rank R --world W\n"
"                          one rank of W separate processes (one per simulated\n"
"                          node) that meet at every NCCL all-reduce as NCCL ranks\n"
"                          do: each kernel ends at the same physical instant on\n"
"                          every rank; sets RANK=R, WORLD_SIZE=W, LOCAL_RANK=0\n"
"  --seed S                seed of the schedule's random durations (default 1);\n"
"                          the same arguments always give the same schedule\n"
"  -h, --help              this text\n"
"\n"
"What real servers do to a CUPTI tool (docs/simulator.md gives each its source):\n"
"  --cuda-graph            capture decode steps as CUDA graphs at start-up (one per\n"
"                          batch bucket of 8, each with the step's kernels, a memset\n"
"                          and a device-to-device copy) and replay them, as vLLM\n"
"                          does; prefill steps (every 8th) run eagerly\n"
"  --stop-kernel-us U      launch a kernel of U microseconds just before each\n"
"                          cudaProfilerStop and do not wait for it: vLLM stops\n"
"                          without synchronizing (in flight only with --step-us > 0)\n"
"  --kineto-at A:B         a second CUPTI client in the manner of torch.profiler\n"
"                          (Kineto): before step A it registers its own buffer\n"
"                          callbacks and enables kernel, copy, set and runtime\n"
"                          records, without subscribing; after step B-1 it disables\n"
"                          them, flushes, and tries Kineto's teardown (subscribe, then\n"
"                          cuptiFinalize), which fails while another tool holds the\n"
"                          subscription. Its callbacks stay registered. Repeatable.\n"
"  --kineto-tsc            the Kineto-like client also registers a timestamp\n"
"                          callback (CLOCK_MONOTONIC), as Kineto's TSC option does\n"
"  --nvtx-before-init NAME push and pop an NVTX range before CUDA is initialized, as\n"
"                          modules that use NVTX early do; NVTX looks for its\n"
"                          injection (NVTX_INJECTION64_PATH) once, at that call\n"
"\n"
"The CUPTI test double's own switches are environment variables, each defaulting to\n"
"what the field reports (docs/simulator.md):\n"
"  VPROF_SIM_COMPLETION=async|at-launch         when GPU work's records are complete\n"
"                          (default async; at-launch when unpaced, not --serve)\n"
"  VPROF_SIM_DISABLED_IN_FLIGHT=lost|zero|kept  records of work in flight when its\n"
"                          kind is disabled (default lost)\n"
"  VPROF_SIM_GRAPH_NODES=after-warmup-lost|delivered|lost  nodes of graphs\n"
"                          instantiated while the kernel kind was off\n"
"  VPROF_SIM_INVALID_TS_RATE=R, VPROF_SIM_INVALID_TS_KINDS=LIST, VPROF_SIM_SEED=S\n"
"                          invalid timestamps (end-before-start, start-zero, end-zero,\n"
"                          both-zero) in a fraction R of GPU records (default 0)\n"
"  VPROF_SIM_CUPTI_VERSION=V  what cuptiGetVersion says (default: the headers')\n"
"  VPROF_SIM_CRASH_ON_NULL_BUFFER=auto|0|1      abort when bufferRequested gives no\n"
"                          buffer (auto: below API version 27, CUDA 12.9)\n"
"  VPROF_SIM_DISABLE_DEADLOCK=auto|0|1, VPROF_SIM_DEADLOCK_MS=MS  hang, then abort,\n"
"                          when CONCURRENT_KERNEL is disabled in an API callback\n"
"                          (auto: on CUPTI 13.0 GA, version 130000)\n"
"  VPROF_SIM_POST_CAPTURE_COST_NS=N  extra cost of a launch after a capture, until\n"
"                          cuptiFinalize (default 10)\n"
"  VPROF_SIM_NAME_REUSE_EVERY=N  a module reload every N recorded launches puts\n"
"                          another kernel's name at the same address (default 0)\n"
"  VPROF_SIM_DEVICE_COUNT=N  devices of the simulated node (default 1; W with\n"
"                          --workers W)\n"
"  VPROF_SIM_DEVICE_BUFFER_LEAK=graph|none      graph records pin CUPTI's device\n"
"                          buffers until the pool is spent (default graph)\n"
"\n"
"On exit every process prints one line on stderr:\n"
"  vprof-simgpu: pid=P role=parent|worker|single kernels=N kernels_in_profiler_ranges=N\n"
"                kernels_in_nvtx_ranges=N memcpys=N steps=N loop_ns=N loop_cpu_ns=N\n"
"                device=D [graph_launches=N] [replay_late=N] [kineto_records=N kineto_kernels=N\n"
"                kineto_foreign_buffers=N kineto_teardowns=N kineto_teardowns_skipped=N]\n"
"                [invalid_end_before_start=N invalid_start_zero=N invalid_end_zero=N\n"
"                invalid_both_zero=N] [device_timestamps_torn=N\n"
"                device_timestamps_dropped=N]\n"
"(kernels_in_nvtx_ranges counts --nvtx-range ranges, not --nvtx; the bracketed\n"
"fields come with --cuda-graph, --replay, --kineto-at, VPROF_SIM_INVALID_TS_RATE, and when\n"
"CUPTI's device buffers ran out.) SIGTERM or SIGINT finishes the current step, closes\n"
"open ranges, flushes, and exits with status 0.\n"
"\n"
"Examples:\n";

/* Each example after the command's name. */
static const char *const EXAMPLES[] = {
    " --steps 300 --profiler-range 50:100 --profiler-range 200:230\n"
    "      -> kernels_in_profiler_ranges=3200\n",
    " --steps 30 --nvtx-range prefill:10:20  -> kernels_in_nvtx_ranges=400\n",
    " --workers 2 --duration 60s --step-us 2000\n",
    " --cuda-graph --steps 300 --step-us 2000 --profiler-range 100:200\n"
    "      (graphs captured while a profiler is dormant, replayed inside the range)\n",
    " --steps 300 --step-us 2000 --kineto-at 20:40 --profiler-range 100:200\n",
};

/*
 * The help as `vprof simulate --help` shows it (VPROF_SIM_NAME set: "Usage: vprof simulate
 * [OPTIONS]", as every vprof command's help begins) or as vprof-simgpu run directly shows it.
 */
static void print_help(void) {
    const char *name = getenv("VPROF_SIM_NAME");
    if (name != NULL && name[0] != '\0')
        printf("Usage: %s [OPTIONS]\n", name);
    else
        printf("Usage: vprof-simgpu [OPTIONS]      (also: vprof simulate [OPTIONS])\n");
    fputs(HELP, stdout);
    for (size_t i = 0; i < sizeof EXAMPLES / sizeof EXAMPLES[0]; i++)
        printf("  %s%s", name != NULL && name[0] != '\0' ? name : "vprof-simgpu", EXAMPLES[i]);
}

/* `vprof simulate` sets VPROF_SIM_NAME so that its errors name the command the person typed. */
static int usage_error(const char *fmt, const char *arg) {
    const char *name = getenv("VPROF_SIM_NAME");
    if (name == NULL || name[0] == '\0')
        name = "vprof-simgpu";
    fprintf(stderr, "%s: ", name);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '%s --help'.\n", name);
    return 2;
}

/* A whole non-negative decimal number, or -1. */
static long parse_count(const char *s, long max) {
    if (s == NULL || *s < '0' || *s > '9') return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > max) return -1;
    return v;
}

/* 500ms, 10s, 2m, 1.5s, 30 (seconds). Returns 0 when not a valid positive duration. */
static uint64_t parse_duration(const char *s) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != 0 || end == s || v <= 0) return 0;
    double scale;
    if (strcmp(end, "ms") == 0) scale = 1e6;
    else if (strcmp(end, "s") == 0 || *end == '\0') scale = 1e9;
    else if (strcmp(end, "m") == 0) scale = 60e9;
    else if (strcmp(end, "h") == 0) scale = 3600e9;
    else if (strcmp(end, "us") == 0) scale = 1e3;
    else return 0;
    double ns = v * scale;
    return ns >= 1 && ns < 1e18 ? (uint64_t)ns : 0;
}

/* "A:B" with 0 <= A < B. */
static int parse_steps_range(const char *s, struct simgpu_range *r) {
    const char *colon = strchr(s, ':');
    if (colon == NULL || colon - s > 18) return -1;
    char a[20];
    memcpy(a, s, (size_t)(colon - s));
    a[colon - s] = '\0';
    r->start = parse_count(a, 1000000000L);
    r->end = parse_count(colon + 1, 1000000000L);
    return r->start >= 0 && r->end > r->start ? 0 : -1;
}

/* Appends the "A:B" in `arg` to an option's ranges (--profiler-range, --kineto-at): 0, or the
 * usage error's exit status, with `too_many` when all SIMGPU_MAX_RANGES are taken and `malformed`
 * (which names `arg`) when it is no range. */
static int add_steps_range(const char *arg, struct simgpu_range *ranges, int *count, const char *too_many,
                           const char *malformed) {
    if (*count == SIMGPU_MAX_RANGES) return usage_error(too_many, "");
    if (parse_steps_range(arg, &ranges[*count]) != 0) return usage_error(malformed, arg);
    (*count)++;
    return 0;
}

/* "SUBSTRING:FACTOR"; the last colon splits, so a substring may hold colons
 * (C++ names do: "vllm::rms_norm:1.5"). */
static int parse_slow(const char *s, struct simgpu_slow *r) {
    const char *colon = strrchr(s, ':');
    if (colon == NULL || colon == s || (size_t)(colon - s) >= sizeof r->substring) return -1;
    char *end;
    errno = 0;
    double f = strtod(colon + 1, &end);
    if (errno != 0 || end == colon + 1 || *end != '\0' || !(f >= 0.001 && f <= 1000)) return -1;
    memcpy(r->substring, s, (size_t)(colon - s));
    r->substring[colon - s] = '\0';
    r->factor = f;
    return 0;
}

static int by_start_then_longest(const void *x, const void *y) {
    const struct simgpu_range *a = x, *b = y;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return a->end > b->end ? -1 : a->end < b->end ? 1 : 0;
}

int simgpu_parse_options(int argc, char **argv, struct simgpu_options *o) {
    enum { STEPS = 256, DURATION, KPS, STEP_US, PROFILER_RANGE, NVTX, NVTX_RANGE, MPS, WORKERS, SERVE, SEED,
           THREADS, CUDA_GRAPH, KINETO_AT, KINETO_TSC, NVTX_BEFORE_INIT, STOP_KERNEL_US, BARE,
           SLOW, REPLAY, LOOP,
           RENDEZVOUS, RANK, WORLD, SYNC };
    static const struct option longopts[] = {
        { "steps", required_argument, NULL, STEPS },
        { "duration", required_argument, NULL, DURATION },
        { "kernels-per-step", required_argument, NULL, KPS },
        { "step-us", required_argument, NULL, STEP_US },
        { "profiler-range", required_argument, NULL, PROFILER_RANGE },
        { "nvtx", no_argument, NULL, NVTX },
        { "nvtx-range", required_argument, NULL, NVTX_RANGE },
        { "memcpy-per-step", required_argument, NULL, MPS },
        { "workers", required_argument, NULL, WORKERS },
        { "serve", no_argument, NULL, SERVE },
        { "bare", no_argument, NULL, BARE },
        { "seed", required_argument, NULL, SEED },
        { "threads", required_argument, NULL, THREADS },
        { "cuda-graph", no_argument, NULL, CUDA_GRAPH },
        { "kineto-at", required_argument, NULL, KINETO_AT },
        { "kineto-tsc", no_argument, NULL, KINETO_TSC },
        { "nvtx-before-init", required_argument, NULL, NVTX_BEFORE_INIT },
        { "stop-kernel-us", required_argument, NULL, STOP_KERNEL_US },
        { "slow", required_argument, NULL, SLOW },
        { "replay", required_argument, NULL, REPLAY },
        { "loop", required_argument, NULL, LOOP },
        { "rendezvous", required_argument, NULL, RENDEZVOUS },
        { "rank", required_argument, NULL, RANK },
        { "world", required_argument, NULL, WORLD },
        { "sync", required_argument, NULL, SYNC },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    o->steps = -1;
    o->kernels_per_step = 40;
    o->memcpys_per_step = 2;
    o->seed = 1;
    o->threads = 1;
    int steps_given = 0;
    long loop = -1;
    long v;
    int status; /* a usage error's, from a helper */
    opterr = 0; /* our own messages */
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case STEPS:
            if ((v = parse_count(optarg, 1000000000000L)) < 0) return usage_error("--steps expects a number of steps, not '%s'", optarg);
            o->steps = v;
            steps_given = 1;
            break;
        case DURATION:
            if ((o->duration_ns = parse_duration(optarg)) == 0)
                return usage_error("--duration expects a positive time such as 500ms, 10s or 2m, not '%s'", optarg);
            break;
        case KPS:
            if ((v = parse_count(optarg, 100000)) < 1) return usage_error("--kernels-per-step expects a number from 1 to 100000, not '%s'", optarg);
            o->kernels_per_step = (int)v;
            break;
        case STEP_US:
            if ((v = parse_count(optarg, 3600000000L)) < 0) return usage_error("--step-us expects microseconds (0 = as fast as possible), not '%s'", optarg);
            o->step_us = (uint64_t)v;
            break;
        case MPS:
            if ((v = parse_count(optarg, 1000)) < 0) return usage_error("--memcpy-per-step expects a number from 0 to 1000, not '%s'", optarg);
            o->memcpys_per_step = (int)v;
            break;
        case WORKERS:
            if ((v = parse_count(optarg, SIMGPU_MAX_WORKERS)) < 1) return usage_error("--workers expects a number from 1 to 64, not '%s'", optarg);
            o->workers = (int)v;
            break;
        case SEED:
            if ((v = parse_count(optarg, 0x7fffffffffffffffL)) < 0) return usage_error("--seed expects a non-negative number, not '%s'", optarg);
            o->seed = (uint64_t)v;
            break;
        case NVTX: o->nvtx_steps = 1; break;
        case SERVE: o->serve = 1; break;
        case THREADS:
            if ((v = parse_count(optarg, SIMGPU_MAX_THREADS)) < 1) return usage_error("--threads expects a number from 1 to 64, not '%s'", optarg);
            o->threads = (int)v;
            break;
        case CUDA_GRAPH: o->cuda_graph = 1; break;
        case KINETO_TSC: o->kineto_tsc = 1; break;
        case STOP_KERNEL_US:
            if ((v = parse_count(optarg, 60000000L)) < 1) return usage_error("--stop-kernel-us expects microseconds from 1 to 60000000, not '%s'", optarg);
            o->stop_kernel_us = (uint64_t)v;
            break;
        case NVTX_BEFORE_INIT:
            if (*optarg == '\0' || strlen(optarg) >= sizeof o->nvtx_before_init)
                return usage_error("--nvtx-before-init expects a range name of 1 to 63 characters, not '%s'", optarg);
            strcpy(o->nvtx_before_init, optarg);
            break;
        case KINETO_AT:
            if ((status = add_steps_range(optarg, o->kineto_ranges, &o->kineto_range_count,
                                          "at most 64 --kineto-at options%s",
                                          "--kineto-at expects A:B with 0 <= A < B (profile steps A to B-1), not '%s'")) != 0)
                return status;
            break;
        case BARE: o->bare = 1; break;
        case SYNC:
            if (strcmp(optarg, "device") == 0) o->sync_each_step = 1;
            else if (strcmp(optarg, "stream") == 0) o->sync_each_step = 2;
            else return usage_error("--sync expects device or stream, not '%s'", optarg);
            break;
        case REPLAY: o->replay = optarg; break;
        case LOOP:
            if ((loop = parse_count(optarg, 1000000000L)) < 1) return usage_error("--loop expects a number of passes from 1, not '%s'", optarg);
            break;
        case SLOW:
            if (o->slow_count == SIMGPU_MAX_SLOW) return usage_error("at most 16 --slow options%s", "");
            if (parse_slow(optarg, &o->slow[o->slow_count]) != 0)
                return usage_error("--slow expects SUBSTRING:FACTOR with a substring of 1 to 127 characters and a factor "
                                   "from 0.001 to 1000 (1.3: 30%% slower), not '%s'", optarg);
            o->slow_count++;
            break;
        case RENDEZVOUS:
            if (*optarg == '\0' || strlen(optarg) >= sizeof o->rendezvous || strchr(optarg, '/') != NULL)
                return usage_error("--rendezvous expects a name of 1 to 63 characters without '/', not '%s'", optarg);
            strcpy(o->rendezvous, optarg);
            break;
        case RANK:
            if ((v = parse_count(optarg, 63)) < 0) return usage_error("--rank expects a number from 0 to 63, not '%s'", optarg);
            o->rank = (int)v;
            break;
        case WORLD:
            if ((v = parse_count(optarg, 64)) < 1) return usage_error("--world expects a number from 1 to 64, not '%s'", optarg);
            o->world = (int)v;
            break;
        case PROFILER_RANGE:
            if ((status = add_steps_range(optarg, o->profiler_ranges, &o->profiler_range_count,
                                          "at most 64 --profiler-range options%s",
                                          "--profiler-range expects A:B with 0 <= A < B (steps A to B-1), not '%s'")) != 0)
                return status;
            break;
        case NVTX_RANGE: {
            if (o->nvtx_range_count == SIMGPU_MAX_RANGES) return usage_error("at most 64 --nvtx-range options%s", "");
            struct simgpu_range *r = &o->nvtx_ranges[o->nvtx_range_count];
            const char *colon = strchr(optarg, ':');
            size_t len = colon ? (size_t)(colon - optarg) : 0;
            if (colon == NULL || len == 0 || len >= sizeof r->name || parse_steps_range(colon + 1, r) != 0)
                return usage_error("--nvtx-range expects NAME:A:B with a name of 1 to 63 characters and 0 <= A < B, not '%s'", optarg);
            memcpy(r->name, optarg, len);
            r->name[len] = '\0';
            o->nvtx_range_count++;
            break;
        }
        case 'h':
            print_help();
            return 0;
        case ':':
            return usage_error("%s needs a value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return usage_error("unexpected argument '%s' (options start with --)", argv[optind]);
    if (steps_given && o->duration_ns) return usage_error("give --steps or --duration, not both%s", "");
    if (o->serve && (steps_given || o->duration_ns || o->profiler_range_count || o->nvtx_range_count || o->nvtx_steps))
        return usage_error("--serve takes its steps and ranges from stdin; drop --steps, --duration and the range options%s", "");
    if (o->serve && (o->threads > 1 || o->cuda_graph || o->kineto_range_count || o->stop_kernel_us))
        return usage_error("--serve runs one step per command on one thread; drop --threads, --cuda-graph, --kineto-at and --stop-kernel-us%s", "");
    if (o->kineto_tsc && o->kineto_range_count == 0) return usage_error("--kineto-tsc needs --kineto-at A:B%s", "");
    if (o->stop_kernel_us && o->profiler_range_count == 0) return usage_error("--stop-kernel-us needs a --profiler-range to stop%s", "");
    if (o->threads > 1 && o->kernels_per_step < o->threads)
        return usage_error("--threads needs at least one kernel per thread: raise --kernels-per-step%s", "");
    if (o->rendezvous[0] != '\0' && (o->world == 0 || o->rank >= o->world))
        return usage_error("--rendezvous needs --world W and a --rank below it%s", "");
    if (o->rendezvous[0] != '\0' && (o->workers || o->serve || o->threads > 1))
        return usage_error("--rendezvous makes this process one rank: drop --workers, --serve and --threads%s", "");
    if (o->rendezvous[0] == '\0' && (o->world || o->rank))
        return usage_error("--rank and --world belong to --rendezvous NAME%s", "");
    if (o->rendezvous[0] != '\0' && o->replay != NULL)
        return usage_error("--rendezvous meets at the synthetic schedule's all-reduces; drop --replay%s", "");
    if (o->replay == NULL && loop > 0) return usage_error("--loop repeats a --replay; give --steps to the synthetic schedule%s", "");
    if (o->replay != NULL) {
        /* a step is one pass over the script; the rest of a step's shape comes from the trace */
        if (steps_given) return usage_error("--replay counts passes with --loop N, not --steps%s", "");
        if (o->serve || o->threads > 1 || o->cuda_graph || o->workers || o->kernels_per_step != 40 || o->memcpys_per_step != 2)
            return usage_error("--replay takes its work, streams and processes from the trace; drop --serve, --threads, "
                               "--cuda-graph, --workers, --kernels-per-step and --memcpy-per-step%s", "");
        if (loop > 0 && o->duration_ns) return usage_error("give --loop or --duration, not both%s", "");
        if (!o->duration_ns) o->steps = loop > 0 ? loop : 1;
    }
    if (!steps_given && !o->duration_ns && o->replay == NULL) o->steps = 100;

    qsort(o->profiler_ranges, (size_t)o->profiler_range_count, sizeof o->profiler_ranges[0], by_start_then_longest);
    for (int i = 1; i < o->profiler_range_count; i++) {
        if (o->profiler_ranges[i].start < o->profiler_ranges[i - 1].end) {
            char both[64];
            snprintf(both, sizeof both, "%ld:%ld and %ld:%ld", o->profiler_ranges[i - 1].start, o->profiler_ranges[i - 1].end,
                     o->profiler_ranges[i].start, o->profiler_ranges[i].end);
            return usage_error("--profiler-range %s overlap; cudaProfilerStart/Stop ranges cannot nest", both);
        }
    }
    qsort(o->kineto_ranges, (size_t)o->kineto_range_count, sizeof o->kineto_ranges[0], by_start_then_longest);
    for (int i = 1; i < o->kineto_range_count; i++)
        if (o->kineto_ranges[i].start < o->kineto_ranges[i - 1].end)
            return usage_error("--kineto-at ranges overlap; one torch.profiler run at a time%s", "");
    qsort(o->nvtx_ranges, (size_t)o->nvtx_range_count, sizeof o->nvtx_ranges[0], by_start_then_longest);
    for (int i = 0; i < o->nvtx_range_count; i++) {
        for (int j = i + 1; j < o->nvtx_range_count; j++) {
            const struct simgpu_range *a = &o->nvtx_ranges[i], *b = &o->nvtx_ranges[j]; /* a starts first */
            if (b->start < a->end && b->end > a->end)
                return usage_error("--nvtx-range %s: NVTX push/pop ranges must nest or be disjoint", b->name);
        }
    }
    return -1;
}
