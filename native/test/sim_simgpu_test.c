/*
 * End-to-end tests of vprof-simgpu: its summary lines, its schedule, its
 * processes, and injection through CUDA_INJECTION64_PATH (with the minimal
 * CUPTI client libsim-fixture-agent.so standing in for an agent).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"


static char simgpu[512], fixture[512], fixture_dir[512];

/* Runs a shell command, captures stdout+stderr (up to 64 KiB), returns the exit status. */
static int run(const char *cmd, char *out, size_t cap) {
    char full[4200];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    if (p == NULL) return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static long count_lines(const char *out, const char *needle) {
    long n = 0;
    for (const char *p = out; (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
    return n;
}

/* The value of `key=` in the first line containing `line_tag`, or -1. */
static long long field(const char *out, const char *line_tag, const char *key) {
    const char *line = strstr(out, line_tag);
    if (line == NULL) return -1;
    const char *eol = strchr(line, '\n');
    char k[64];
    snprintf(k, sizeof k, " %s=", key);
    const char *v = strstr(line, k);
    if (v == NULL || (eol && v > eol)) return -1;
    return atoll(v + strlen(k));
}

static char out[65536], out2[65536];

/*
 * Runs `vprof-simgpu ARGS` (ARGS from a printf format, no agent injected) and expects it to
 * exit with `status` and to print `message` (when not NULL); what it printed stays in `out`.
 */
static void expect_simgpu(int status, const char *message, const char *args_format, ...) {
    char args[3000], cmd[4096];
    va_list ap;
    va_start(ap, args_format);
    vsnprintf(args, sizeof args, args_format, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s", simgpu, args);
    int failed_before = test_case_has_failed();
    EXPECT_EQ(run(cmd, out, sizeof out), status);
    if (message != NULL) EXPECT_CONTAINS(out, message);
    if (!failed_before && test_case_has_failed()) fprintf(stderr, "vprof-simgpu %s printed:\n%s", args, out);
}

/*
 * Runs `vprof-simgpu ARGS` (ARGS from a printf format) with the fixture client injected through
 * CUDA_INJECTION64_PATH, after the assignments in `env` ("" for none); returns its exit status,
 * with what it printed in `dst`.
 */
__attribute__((format(printf, 4, 5)))
static int run_fixture(const char *env, char *dst, size_t cap, const char *args_format, ...) {
    char args[3000], cmd[4096];
    va_list ap;
    va_start(ap, args_format);
    vsnprintf(args, sizeof args, args_format, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s%sCUDA_INJECTION64_PATH=%s %s %s", env, env[0] != '\0' ? " " : "", fixture, simgpu, args);
    return run(cmd, dst, cap);
}

TEST(profilerRangesBoundExactlyTheKernelsOfTheirSteps) {
    EXPECT_EQ(run_fixture("", out, sizeof out, "--steps 300 --kernels-per-step 40 --profiler-range 50:100 --profiler-range 200:230"), 0);
    EXPECT_EQ(field(out, "role=single", "kernels"), 12000);
    EXPECT_EQ(field(out, "role=single", "kernels_in_profiler_ranges"), 3200);
    EXPECT_EQ(field(out, "role=single", "memcpys"), 600);
    EXPECT_EQ(field(out, "role=single", "steps"), 300);
    /* what a CUPTI client saw between cuProfilerStart and cuProfilerStop */
    EXPECT_EQ(field(out, "fixture-report", "kernels"), 3200);
    EXPECT_EQ(field(out, "fixture-report", "drops"), 0);
    if (test_case_has_failed()) fputs(out, stderr);
}

/* Two ranks of one rendezvous, started apart: every all-reduce ends at the same instant on both
 * (the first end and the others' distances from it agree, on one machine's clock), each rank
 * was given its RANK and WORLD_SIZE, and the shared memory is gone after. */
TEST(rendezvousRanksEndEveryAllReduceTogether) {
    char cmd[4096], name[64];
    snprintf(name, sizeof name, "simtest-%d", (int)getpid());
    snprintf(cmd, sizeof cmd,
             "(export SIM_FIXTURE_MODE=always CUDA_INJECTION64_PATH=%s; "
             "%s --rendezvous %s --rank 0 --world 2 --steps 20 --step-us 1000 & sleep 0.2; "
             "%s --rendezvous %s --rank 1 --world 2 --steps 20 --step-us 1000; wait; test -e /dev/shm/vprof-rdv.%s && echo rendezvous-left-behind; true)",
             fixture, simgpu, name, simgpu, name, name);
    EXPECT_EQ(run(cmd, out, sizeof out), 0);
    EXPECT_EQ(count_lines(out, "role=single kernels=800 "), 2);
    EXPECT_EQ(field(out, " rank=0 local_rank", "world_size"), 2);
    EXPECT_EQ(field(out, " rank=1 local_rank", "world_size"), 2);
    EXPECT_EQ(field(out, " rank=0 local_rank", "allreduces"), 120); /* 6 a step: 3 layers of 2 */
    EXPECT_EQ(field(out, " rank=1 local_rank", "allreduces"), 120);
    /* each rank turns the shared instant into its own clock with a pair of clock reads: ends agree
     * within what one such read can be off by (a few microseconds when a read is preempted) */
    long long first0 = field(out, " rank=0 local_rank", "allreduce_first_end");
    long long first1 = field(out, " rank=1 local_rank", "allreduce_first_end");
    long long spread0 = field(out, " rank=0 local_rank", "allreduce_end_offsets");
    long long spread1 = field(out, " rank=1 local_rank", "allreduce_end_offsets");
    EXPECT(first0 > 0);
    EXPECT_LT(llabs(first1 - first0), 20000);
    EXPECT_LT(llabs(spread1 - spread0) / 119, 20000); /* the mean of the other 119 ends' disagreement */
    EXPECT_EQ(count_lines(out, "rendezvous-left-behind"), 0);
    if (test_case_has_failed()) fputs(out, stderr);
}

TEST(rendezvousOptionsAreChecked) {
    expect_simgpu(2, "--rank below it", "--rendezvous x --rank 2 --world 2");
    expect_simgpu(2, NULL, "--rank 1");
    expect_simgpu(2, NULL, "--rendezvous x --world 2 --workers 2");
}

TEST(nvtxRangesCountTheKernelsInsideThem) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s --steps 30 --nvtx --nvtx-range NAME:10:20 --nvtx-range inner:12:14", simgpu);
    EXPECT_EQ(run(cmd, out, sizeof out), 0);
    EXPECT_EQ(field(out, "role=single", "kernels_in_nvtx_ranges"), 400);
    EXPECT_EQ(field(out, "role=single", "kernels_in_profiler_ranges"), 0);
}

TEST(workersEachInjectAndTheParentDoesNoGpuWork) {
    EXPECT_EQ(run_fixture("", out, sizeof out, "--workers 2 --steps 20 --profiler-range 5:10"), 0);
    EXPECT_EQ(count_lines(out, "role=worker kernels=800 kernels_in_profiler_ranges=200 "), 2);
    EXPECT_EQ(count_lines(out, "role=parent kernels=0 "), 1);
    EXPECT_EQ(count_lines(out, "initialized"), 2);           /* only workers load the injection */
    EXPECT_EQ(count_lines(out, "kernels=200 drops=0"), 2);   /* each worker's client saw its range */
    if (test_case_has_failed()) fputs(out, stderr);
}

TEST(theSameArgumentsGiveTheSameSchedule) {
    EXPECT_EQ(run_fixture("SIM_FIXTURE_MODE=always", out, sizeof out, "--steps 50 --seed 7"), 0);
    EXPECT_EQ(run_fixture("SIM_FIXTURE_MODE=always", out2, sizeof out2, "--steps 50 --seed 7"), 0);
    long long a = field(out, "fixture-report", "duration_sum"), b = field(out2, "fixture-report", "duration_sum");
    EXPECT_GT(a, 0);
    EXPECT_EQ(a, b);
    EXPECT_EQ(run_fixture("SIM_FIXTURE_MODE=always", out2, sizeof out2, "--steps 50 --seed 8"), 0);
    EXPECT_NE(field(out2, "fixture-report", "duration_sum"), a);
}

TEST(serveModeAnswersEachCommand) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "printf 'step 512 8\\nstart\\nstep 0 32\\nstep 5000 4\\nnonsense\\nstop\\nexit\\n' | %s --serve", simgpu);
    EXPECT_EQ(run(cmd, out, sizeof out), 0);
    EXPECT_EQ(count_lines(out, "ok\n"), 6);
    EXPECT_EQ(count_lines(out, "error: unknown command 'nonsense'"), 1);
    /* 40 kernels per pass; 5000 prompt tokens are 3 chunked-prefill passes */
    EXPECT_EQ(field(out, "role=single", "kernels"), 40 + 40 + 120);
    EXPECT_EQ(field(out, "role=single", "kernels_in_profiler_ranges"), 160);
    if (test_case_has_failed()) fputs(out, stderr);
}

TEST(usageErrorsExit2WithAMessage) {
    expect_simgpu(2, "--profiler-range expects A:B", "--profiler-range 10:5");
    expect_simgpu(2, "not both", "--steps 5 --duration 1s");
    expect_simgpu(2, "nest", "--nvtx-range a:0:10 --nvtx-range b:5:15");
    expect_simgpu(0, "--profiler-range A:B", "--help");
}

TEST(aMissingInjectionLibraryIsReportedAndTheRunGoesOn) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "CUDA_INJECTION64_PATH=/nonexistent/libnothing.so %s --steps 3", simgpu);
    EXPECT_EQ(run(cmd, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "cannot load CUDA_INJECTION64_PATH=/nonexistent/libnothing.so");
    EXPECT_EQ(field(out, "role=single", "kernels"), 120);
}

/* SIGTERM mid-range: the step finishes, the open range is closed (so the
 * client's count equals the program's), status 0. Waits for events only. */
TEST(sigtermFinishesTheStepAndClosesOpenRanges) {
    int pipefd[2];
    ASSERT_EQ(pipe(pipefd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], STDERR_FILENO);
        close(pipefd[0]);
        close(pipefd[1]);
        setenv("CUDA_INJECTION64_PATH", fixture, 1);
        execl(simgpu, simgpu, "--duration", "60s", "--step-us", "500", "--profiler-range", "0:100000000", (char *)NULL);
        _exit(127);
    }
    close(pipefd[1]);
    FILE *err = fdopen(pipefd[0], "r");
    char line[512];
    size_t used = 0;
    out[0] = '\0';
    int signalled = 0;
    while (fgets(line, sizeof line, err) != NULL) {
        used += (size_t)snprintf(out + used, sizeof out - used, "%s", line);
        if (!signalled && strstr(line, "initialized")) {
            usleep(200000); /* let some steps run; the checks hold either way */
            kill(pid, SIGTERM);
            signalled = 1;
        }
    }
    fclose(err);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    EXPECT(signalled);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    long long in_range = field(out, "role=single", "kernels_in_profiler_ranges");
    EXPECT_GE(in_range, 0);
    EXPECT_EQ(in_range % 40, 0);
    EXPECT_EQ(field(out, "fixture-report", "kernels"), in_range);
    if (test_case_has_failed()) fputs(out, stderr);
}


/* ---- the field (docs/simulator.md) ---- */

TEST(workersGetTheirRankBeforeCudaAndADeviceEach) {
    EXPECT_EQ(run_fixture("SIM_FIXTURE_MODE=always", out, sizeof out, "--workers 3 --steps 10"), 0);
    for (int rank = 0; rank < 3; rank++) {
        char line[128];
        snprintf(line, sizeof line, "rank=%d local_rank=%d world_size=3 ", rank, rank);
        EXPECT_EQ(count_lines(out, line), 1);                 /* seen by the agent at InitializeInjection */
        snprintf(line, sizeof line, "devices=%d rank=%d ", 1 << rank, rank);
        EXPECT_EQ(count_lines(out, line), 1);                 /* every kernel record says its device */
    }
    EXPECT_EQ(count_lines(out, "role=worker kernels=400 "), 3);
    EXPECT_EQ(count_lines(out, " device=2\n"), 1);
    if (test_case_has_failed()) fputs(out, stderr);
}

/* vLLM's graph mode: graphs captured at start-up, before any range; replayed in it. */
TEST(graphStepsReplayGraphsCapturedWhileDormant) {
    EXPECT_EQ(run_fixture("", out, sizeof out, "--cuda-graph --steps 64 --step-us 500 --profiler-range 16:48"), 0);
    /* steps 16..47 are 32 steps, 4 of them prefill (eager): 28 replays of 40 kernel nodes */
    EXPECT_EQ(field(out, "role=single", "graph_launches"), 56);
    EXPECT_EQ(field(out, "role=single", "kernels_in_profiler_ranges"), 32 * 40);
    /* this client disables in the stop callback: the last step's work was still in flight */
    long long seen = field(out, "fixture-report", "kernels"), graph = field(out, "fixture-report", "graph_kernels");
    EXPECT_GE(seen, 31 * 40);
    /* Under qemu-user the CPU side runs many times slower than the double's GPU clock, so the last
     * step's work has often completed by the stop: there the client may see all of it. */
    if (getenv("VPROF_IN_EMULATION") != NULL)
        EXPECT_LE(seen, 32 * 40);
    else
        EXPECT_LT(seen, 32 * 40);
    EXPECT_GE(graph, 27 * 40);
    EXPECT_LE(graph, 28 * 40);
    EXPECT_EQ(field(out, "fixture-report", "zero_ts"), 0);
    if (test_case_has_failed()) fputs(out, stderr);
}

/* R3: a long kernel launched right before cudaProfilerStop, no synchronize. */
TEST(aKernelRunningAtStopIsLostToAClientThatDisablesAtStop) {
    EXPECT_EQ(run_fixture("", out, sizeof out, "--steps 20 --step-us 500 --profiler-range 5:10 --stop-kernel-us 200000"), 0);
    EXPECT_EQ(field(out, "role=single", "kernels_in_profiler_ranges"), 201);
    long long seen = field(out, "fixture-report", "kernels");
    EXPECT_GE(seen, 160);
    EXPECT_LE(seen, 200); /* the long one never, the last step's maybe not */
    EXPECT_EQ(run_fixture("VPROF_SIM_DISABLED_IN_FLIGHT=zero", out2, sizeof out2, "--steps 20 --step-us 500 "
                          "--profiler-range 5:10 --stop-kernel-us 200000"), 0);
    EXPECT_EQ(field(out2, "fixture-report", "kernels"), 201);
    EXPECT_GE(field(out2, "fixture-report", "zero_ts"), 1);
    if (test_case_has_failed()) { fputs(out, stderr); fputs(out2, stderr); }
}

TEST(threadsEachGetABufferAndLoseNothing) {
    EXPECT_EQ(run_fixture("SIM_FIXTURE_MODE=always", out, sizeof out, "--threads 8 --steps 50"), 0);
    EXPECT_EQ(field(out, "role=single", "kernels"), 2000);
    EXPECT_EQ(field(out, "fixture-report", "kernels"), 2000);
    EXPECT_EQ(field(out, "fixture-report", "request_threads"), 8);
    if (test_case_has_failed()) fputs(out, stderr);
}

/* R1: torch.profiler in the same process takes the buffer callbacks and the kinds. */
TEST(aKinetoLikeClientTakesTheRecordsAndCannotTearDownUnderAnotherTool) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s --steps 30 --step-us 500 --kineto-at 10:15", simgpu); /* alone: it gets them all */
    EXPECT_EQ(run(cmd, out, sizeof out), 0);
    EXPECT_EQ(field(out, "role=single", "kineto_kernels"), 200);
    EXPECT_EQ(field(out, "role=single", "kineto_teardowns"), 1);
    EXPECT_EQ(run_fixture("SIM_FIXTURE_MODE=always", out2, sizeof out2, "--steps 30 --step-us 500 --kineto-at 10:15"), 0);
    EXPECT_EQ(field(out2, "role=single", "kineto_teardowns_skipped"), 1);
    EXPECT_EQ(field(out2, "role=single", "kineto_teardowns"), 0);
    EXPECT_CONTAINS(out2, "skipping teardown");
    EXPECT_GE(field(out2, "role=single", "kineto_foreign_buffers"), 1); /* the fixture's buffer went to it */
    /* the fixture saw only what came before the takeover: its kind was disabled at the stop */
    EXPECT_LT(field(out2, "fixture-report", "kernels"), 400);
    EXPECT_EQ(field(out2, "role=single", "kernels"), 1200);
    if (test_case_has_failed()) { fputs(out, stderr); fputs(out2, stderr); }
}

/* R12: NVTX used before CUDA starts stays dark for an agent that names NVTX's injection at cuInit. */
TEST(nvtxBeforeInitKeepsNvtxAwayFromCuptiForGood) {
    char cmd[4096];
    EXPECT_EQ(run_fixture("SIM_FIXTURE_NVTX=1", out, sizeof out, "--steps 10 --nvtx-range r:2:4"), 0);
    EXPECT_EQ(field(out, "fixture-report", "nvtx_callbacks"), 2);
    EXPECT_EQ(run_fixture("SIM_FIXTURE_NVTX=1", out, sizeof out, "--steps 10 --nvtx-range r:2:4 --nvtx-before-init early"), 0);
    EXPECT_EQ(field(out, "fixture-report", "nvtx_callbacks"), 0);
    /* named before the process starts (what `vprof run` can do): seen */
    snprintf(cmd, sizeof cmd, "NVTX_INJECTION64_PATH=%s/../libcupti.so.13 SIM_FIXTURE_NVTX=1 CUDA_INJECTION64_PATH=%s %s --steps 10 "
             "--nvtx-range r:2:4 --nvtx-before-init early", fixture_dir, fixture, simgpu);
    EXPECT_EQ(run(cmd, out, sizeof out), 0);
    EXPECT_EQ(field(out, "fixture-report", "nvtx_callbacks"), 2);
    if (test_case_has_failed()) fputs(out, stderr);
}

TEST(theSummaryCountsInvalidTimestampsExactly) {
    EXPECT_EQ(run_fixture("VPROF_SIM_INVALID_TS_RATE=0.02 VPROF_SIM_SEED=3 SIM_FIXTURE_MODE=always", out, sizeof out, "--steps 100"), 0);
    EXPECT_EQ(field(out, "role=single", "invalid_end_before_start"), field(out, "fixture-report", "end_before_start"));
    EXPECT_EQ(field(out, "role=single", "invalid_start_zero"), field(out, "fixture-report", "start_zero"));
    EXPECT_EQ(field(out, "role=single", "invalid_end_zero"), field(out, "fixture-report", "end_zero"));
    EXPECT_EQ(field(out, "role=single", "invalid_both_zero"), field(out, "fixture-report", "zero_ts"));
    long long bad = field(out, "fixture-report", "end_before_start") + field(out, "fixture-report", "start_zero") +
                    field(out, "fixture-report", "end_zero") + field(out, "fixture-report", "zero_ts");
    EXPECT_GT(bad, 40);
    EXPECT_LT(bad, 130); /* 2 % of 4000 kernels, and of the copies the fixture does not count */
    if (test_case_has_failed()) fputs(out, stderr);
}

TEST(fieldOptionsRefuseWhatCannotWork) {
    expect_simgpu(2, "--serve runs one step per command", "--serve --cuda-graph");
    expect_simgpu(2, "--kineto-at expects A:B", "--kineto-at 5:3");
    expect_simgpu(2, "needs --kineto-at", "--kineto-tsc");
    expect_simgpu(2, "needs a --profiler-range", "--stop-kernel-us 100");
    expect_simgpu(2, "--threads expects", "--threads 0");
    expect_simgpu(0, "VPROF_SIM_GRAPH_NODES", "--help");
    EXPECT_CONTAINS(out, "--kineto-at A:B");
}

TEST(slowRefusesMalformedRules) {
    const char *bad[] = { "gemm", ":1.5", "gemm:", "gemm:0", "gemm:-2", "gemm:abc", "gemm:1.5x", "gemm:5000" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        expect_simgpu(2, "--slow expects SUBSTRING:FACTOR", "--steps 1 --slow '%s'", bad[i]);
    }
    /* the last colon splits: a C++ name's "::" stays in the substring */
    expect_simgpu(0, NULL, "--steps 1 --slow 'vllm::rms_norm:1.5' --slow gemm:1.3");
    expect_simgpu(0, "--slow SUBSTRING:FACTOR", "--help");
}

/* A replay script written by hand, byte by byte (the layout of simgpu_replay.h). */
static void put32(FILE *f, uint32_t v) { for (int i = 0; i < 4; i++) fputc((int)(v >> (8 * i)) & 0xff, f); }
static void put64(FILE *f, uint64_t v) { put32(f, (uint32_t)v); put32(f, (uint32_t)(v >> 32)); }
static void put_op(FILE *f, uint64_t start, uint64_t end, uint64_t bytes, uint32_t name, uint32_t stream, uint32_t device,
                   uint8_t kind, uint8_t copy_kind) {
    put64(f, start); put64(f, end); put64(f, bytes);
    put32(f, name); put32(f, 0); put32(f, stream); put32(f, device);
    put32(f, 132); put32(f, 1); put32(f, 1); put32(f, 256); put32(f, 1); put32(f, 1);
    fputc(kind, f); fputc(copy_kind, f); fputc(0, f); fputc(0, f); put32(f, 0);
}
static int write_script(const char *path, int cut) {
    FILE *f = fopen(path, "wb");
    if (f == NULL) return -1;
    fwrite("VPRFRPL1", 1, 8, f);
    put32(f, 1); put32(f, 1); put32(f, 2); put32(f, 0); put64(f, 4);
    put32(f, (uint32_t)-1); put32(f, (uint32_t)-1); put32(f, 1234); put32(f, 0);
    put32(f, 4); fwrite("gemm", 1, 4, f);
    put32(f, 9); fwrite("void a<1>", 1, 9, f);  /* 8 + 4 + 8 + 4 + 9 = ... padded below */
    long at = ftell(f);
    while (at % 8 != 0) { fputc(0, f); at++; }
    put_op(f, 1000, 3000, 0, 0, 20, 0, 1, 0);
    put_op(f, 1500, 2500, 0, 1, 24, 0, 1, 0);
    put_op(f, 3000, 4000, 4096, 0, 20, 0, 2, 1);
    if (!cut) put_op(f, 4000, 4100, 512, 0, 7, 0, 3, 0);
    return fclose(f);
}

TEST(replayPlaysAScriptAndRefusesABadOne) {
    char script[600];
    snprintf(script, sizeof script, "%s/replay-test.script", fixture_dir);
    EXPECT_EQ(write_script(script, 0), 0);
    EXPECT_EQ(run_fixture("SIM_FIXTURE_MODE=always", out, sizeof out, "--replay %s --loop 4", script), 0);
    EXPECT_EQ(field(out, "role=single", "kernels"), 8);
    EXPECT_EQ(field(out, "role=single", "memcpys"), 4);
    EXPECT_EQ(field(out, "role=single", "steps"), 4);
    EXPECT_EQ(field(out, "fixture-report", "kernels"), 8);
    if (test_case_has_failed()) fputs(out, stderr);
    EXPECT_EQ(write_script(script, 1), 0); /* the header names 4 operations, the file holds 3 */
    expect_simgpu(2, "does not hold the 4 operations", "--replay %s", script);
    expect_simgpu(2, "is not a replay script", "--replay %s", simgpu); /* not a script */
    expect_simgpu(2, "--loop N, not --steps", "--replay %s --steps 3", script);
    expect_simgpu(2, "--loop repeats a --replay", "--loop 3");
    unlink(script);
}

/* Every byte of a script is from a file: a damaged one is refused (exit 2) or played (exit 0),
 * never a crash, whatever is changed or cut (the sanitizer builds check the reads too). */
TEST(aDamagedReplayScriptIsRefusedOrPlayedNeverACrash) {
    char cmd[4096], script[600], damaged[640];
    snprintf(script, sizeof script, "%s/replay-good.script", fixture_dir);
    snprintf(damaged, sizeof damaged, "%s/replay-damaged.script", fixture_dir);
    EXPECT_EQ(write_script(script, 0), 0);
    FILE *f = fopen(script, "rb");
    unsigned char good[1024];
    size_t n = f ? fread(good, 1, sizeof good, f) : 0;
    if (f) fclose(f);
    EXPECT_GT((long long)n, 100);
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int refused = 0, played = 0;
    for (int round = 0; round < 80; round++) {
        unsigned char bad[1024];
        memcpy(bad, good, n);
        size_t len = n;
        rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
        if (round % 4 == 3) {
            len = (size_t)(rng % n); /* cut short */
        } else {
            for (int k = 0; k <= round % 3; k++) {
                rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
                bad[rng % n] = (unsigned char)(rng >> 32);
            }
        }
        FILE *o = fopen(damaged, "wb");
        if (o == NULL) break;
        fwrite(bad, 1, len, o);
        fclose(o);
        snprintf(cmd, sizeof cmd, "%s --replay %s", simgpu, damaged);
        int rc = run(cmd, out, sizeof out);
        if (rc != 0 && rc != 2) {
            fprintf(stderr, "round %d: exit %d\n%s\n", round, rc, out);
            EXPECT_EQ(rc, 2);
        }
        if (rc == 2) refused++;
        else played++;
    }
    EXPECT_GT(refused, 10);
    unlink(script);
    unlink(damaged);
    (void)played;
}

int main(int argc, char **argv) {
    char self[480];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return 1;
    self[n] = '\0';
    *strrchr(self, '/') = '\0'; /* .../target/native/test */
    snprintf(simgpu, sizeof simgpu, "%s/../vprof-simgpu", self);
    snprintf(fixture, sizeof fixture, "%s/libsim-fixture-agent.so", self);
    snprintf(fixture_dir, sizeof fixture_dir, "%s", self);
    unsetenv("CUDA_INJECTION64_PATH");
    unsetenv("SIM_FIXTURE_MODE");
    unsetenv("SIM_FIXTURE_NVTX");
    unsetenv("NVTX_INJECTION64_PATH");
    static const struct test_case cases[] = {
        CASE(profilerRangesBoundExactlyTheKernelsOfTheirSteps),
        CASE(nvtxRangesCountTheKernelsInsideThem),
        CASE(workersEachInjectAndTheParentDoesNoGpuWork),
        CASE(theSameArgumentsGiveTheSameSchedule),
        CASE(serveModeAnswersEachCommand),
        CASE(usageErrorsExit2WithAMessage),
        CASE(slowRefusesMalformedRules),
        CASE(replayPlaysAScriptAndRefusesABadOne),
        CASE(aDamagedReplayScriptIsRefusedOrPlayedNeverACrash),
        CASE(aMissingInjectionLibraryIsReportedAndTheRunGoesOn),
        CASE(sigtermFinishesTheStepAndClosesOpenRanges),
        CASE(workersGetTheirRankBeforeCudaAndADeviceEach),
        CASE(graphStepsReplayGraphsCapturedWhileDormant),
        CASE(aKernelRunningAtStopIsLostToAClientThatDisablesAtStop),
        CASE(threadsEachGetABufferAndLoseNothing),
        CASE(aKinetoLikeClientTakesTheRecordsAndCannotTearDownUnderAnotherTool),
        CASE(nvtxBeforeInitKeepsNvtxAwayFromCuptiForGood),
        CASE(theSummaryCountsInvalidTimestampsExactly),
        CASE(fieldOptionsRefuseWhatCannotWork),
        CASE(rendezvousRanksEndEveryAllReduceTogether),
        CASE(rendezvousOptionsAreChecked),
    };
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
