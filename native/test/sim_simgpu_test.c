/*
 * End-to-end tests of vprof-simgpu: its summary lines, its schedule, its
 * processes, and injection through CUDA_INJECTION64_PATH (with the minimal
 * CUPTI client libsim-fixture-agent.so standing in for an agent).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int passes, failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); ok = 0; } } while (0)

static char simgpu[512], fixture[512];

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

static int profiler_ranges_bound_exactly_the_kernels_of_their_steps(void) {
    int ok = 1;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "CUDA_INJECTION64_PATH=%s %s --steps 300 --kernels-per-step 40 --profiler-range 50:100 --profiler-range 200:230",
             fixture, simgpu);
    CHECK(run(cmd, out, sizeof out) == 0);
    CHECK(field(out, "role=single", "kernels") == 12000);
    CHECK(field(out, "role=single", "kernels_in_profiler_ranges") == 3200);
    CHECK(field(out, "role=single", "memcpys") == 600);
    CHECK(field(out, "role=single", "steps") == 300);
    /* what a CUPTI client saw between cuProfilerStart and cuProfilerStop */
    CHECK(field(out, "fixture-report", "kernels") == 3200);
    CHECK(field(out, "fixture-report", "drops") == 0);
    if (!ok) fputs(out, stderr);
    return ok;
}

static int nvtx_ranges_count_the_kernels_inside_them(void) {
    int ok = 1;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s --steps 30 --nvtx --nvtx-range NAME:10:20 --nvtx-range inner:12:14", simgpu);
    CHECK(run(cmd, out, sizeof out) == 0);
    CHECK(field(out, "role=single", "kernels_in_nvtx_ranges") == 400);
    CHECK(field(out, "role=single", "kernels_in_profiler_ranges") == 0);
    return ok;
}

static int workers_each_inject_and_the_parent_does_no_gpu_work(void) {
    int ok = 1;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "CUDA_INJECTION64_PATH=%s %s --workers 2 --steps 20 --profiler-range 5:10", fixture, simgpu);
    CHECK(run(cmd, out, sizeof out) == 0);
    CHECK(count_lines(out, "role=worker kernels=800 kernels_in_profiler_ranges=200 ") == 2);
    CHECK(count_lines(out, "role=parent kernels=0 ") == 1);
    CHECK(count_lines(out, "initialized") == 2);           /* only workers load the injection */
    CHECK(count_lines(out, "kernels=200 drops=0") == 2);   /* each worker's client saw its range */
    if (!ok) fputs(out, stderr);
    return ok;
}

static int the_same_arguments_give_the_same_schedule(void) {
    int ok = 1;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "SIM_FIXTURE_MODE=always CUDA_INJECTION64_PATH=%s %s --steps 50 --seed 7", fixture, simgpu);
    CHECK(run(cmd, out, sizeof out) == 0);
    CHECK(run(cmd, out2, sizeof out2) == 0);
    long long a = field(out, "fixture-report", "duration_sum"), b = field(out2, "fixture-report", "duration_sum");
    CHECK(a > 0 && a == b);
    snprintf(cmd, sizeof cmd, "SIM_FIXTURE_MODE=always CUDA_INJECTION64_PATH=%s %s --steps 50 --seed 8", fixture, simgpu);
    CHECK(run(cmd, out2, sizeof out2) == 0);
    CHECK(field(out2, "fixture-report", "duration_sum") != a);
    return ok;
}

static int serve_mode_answers_each_command(void) {
    int ok = 1;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "printf 'step 512 8\\nstart\\nstep 0 32\\nstep 5000 4\\nnonsense\\nstop\\nexit\\n' | %s --serve", simgpu);
    CHECK(run(cmd, out, sizeof out) == 0);
    CHECK(count_lines(out, "ok\n") == 6);
    CHECK(count_lines(out, "error: unknown command 'nonsense'") == 1);
    /* 40 kernels per pass; 5000 prompt tokens are 3 chunked-prefill passes */
    CHECK(field(out, "role=single", "kernels") == 40 + 40 + 120);
    CHECK(field(out, "role=single", "kernels_in_profiler_ranges") == 160);
    if (!ok) fputs(out, stderr);
    return ok;
}

static int usage_errors_exit_2_with_a_message(void) {
    int ok = 1;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s --profiler-range 10:5", simgpu);
    CHECK(run(cmd, out, sizeof out) == 2 && strstr(out, "--profiler-range expects A:B") != NULL);
    snprintf(cmd, sizeof cmd, "%s --steps 5 --duration 1s", simgpu);
    CHECK(run(cmd, out, sizeof out) == 2 && strstr(out, "not both") != NULL);
    snprintf(cmd, sizeof cmd, "%s --nvtx-range a:0:10 --nvtx-range b:5:15", simgpu);
    CHECK(run(cmd, out, sizeof out) == 2 && strstr(out, "nest") != NULL);
    snprintf(cmd, sizeof cmd, "%s --help", simgpu);
    CHECK(run(cmd, out, sizeof out) == 0 && strstr(out, "--profiler-range A:B") != NULL);
    return ok;
}

static int a_missing_injection_library_is_reported_and_the_run_goes_on(void) {
    int ok = 1;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "CUDA_INJECTION64_PATH=/nonexistent/libnothing.so %s --steps 3", simgpu);
    CHECK(run(cmd, out, sizeof out) == 0);
    CHECK(strstr(out, "cannot load CUDA_INJECTION64_PATH=/nonexistent/libnothing.so") != NULL);
    CHECK(field(out, "role=single", "kernels") == 120);
    return ok;
}

/* SIGTERM mid-range: the step finishes, the open range is closed (so the
 * client's count equals the program's), status 0. Waits for events only. */
static int sigterm_finishes_the_step_and_closes_open_ranges(void) {
    int ok = 1;
    int pipefd[2];
    if (pipe(pipefd) != 0) return 0;
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
    CHECK(signalled);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    long long in_range = field(out, "role=single", "kernels_in_profiler_ranges");
    CHECK(in_range >= 0 && in_range % 40 == 0);
    CHECK(field(out, "fixture-report", "kernels") == in_range);
    if (!ok) fputs(out, stderr);
    return ok;
}

int main(void) {
    char self[480];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return 1;
    self[n] = '\0';
    *strrchr(self, '/') = '\0'; /* .../target/native/test */
    snprintf(simgpu, sizeof simgpu, "%s/../vprof-simgpu", self);
    snprintf(fixture, sizeof fixture, "%s/libsim-fixture-agent.so", self);
    unsetenv("CUDA_INJECTION64_PATH");
    unsetenv("SIM_FIXTURE_MODE");
    struct { const char *name; int (*fn)(void); } tests[] = {
#define T(f) { #f, f }
        T(profiler_ranges_bound_exactly_the_kernels_of_their_steps),
        T(nvtx_ranges_count_the_kernels_inside_them),
        T(workers_each_inject_and_the_parent_does_no_gpu_work),
        T(the_same_arguments_give_the_same_schedule),
        T(serve_mode_answers_each_command),
        T(usage_errors_exit_2_with_a_message),
        T(a_missing_injection_library_is_reported_and_the_run_goes_on),
        T(sigterm_finishes_the_step_and_closes_open_ranges),
#undef T
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (tests[i].fn()) { passes++; printf("  ok   %s\n", tests[i].name); }
        else { failures++; printf("  FAIL %s\n", tests[i].name); }
    }
    printf("%d passed, %d failed\n", passes, failures);
    return failures ? 1 : 0;
}
