/*
 * The agent finds libcupti where pip puts it, next to the libcudart the process loaded, even
 * when that libcudart was loaded RTLD_LOCAL (as Python's ctypes does): CUDA 12 wheels
 * (site-packages/nvidia/cuda_runtime/lib + nvidia/cuda_cupti/lib/libcupti.so.12) and CUDA 13
 * wheels (both in site-packages/nvidia/cu13/lib). The CUPTI test double plays libcupti; this
 * same file, built with -DFAKE_CUDART, plays libcudart. Each layout runs in a forked child so
 * that what one loads cannot answer for the next.
 */
#ifdef FAKE_CUDART
int cudaGetDevice(int *device) { *device = 0; return 0; }
#else
#include "agent/cupti_api.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char here[PATH_MAX];
static int passed, failed;

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); return 0; } } while (0)

static int copy(const char *from, const char *to)
{
    char cmd[3 * PATH_MAX + 64];
    if (snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'", to, from, to) >= (int)sizeof cmd)
        return -1;
    return system(cmd);
}

/* Lays out cudart and cupti under root, loads cudart RTLD_LOCAL, and checks what the agent opens. */
static int layout(const char *root, const char *cudart_rel, const char *cupti_rel)
{
    char cudart[PATH_MAX], cupti[PATH_MAX], src[PATH_MAX + 64];
    snprintf(cudart, sizeof cudart, "%s/%s", root, cudart_rel);
    snprintf(cupti, sizeof cupti, "%s/%s", root, cupti_rel);
    snprintf(src, sizeof src, "%s/libfake-cudart.so", here);
    CHECK(copy(src, cudart) == 0);
    snprintf(src, sizeof src, "%s/../libvprof-cuptisim.so", here);
    CHECK(copy(src, cupti) == 0);
    unsetenv("VPROF_CUPTI_LIB");
    unsetenv("CUDA_HOME");
    CHECK(dlopen(cudart, RTLD_NOW | RTLD_LOCAL) != NULL);
    CHECK(dlsym(RTLD_DEFAULT, "cudaGetDevice") == NULL); /* really not in the global scope */
    struct vprof_cupti api;
    memset(&api, 0, sizeof api);
    char why[512] = "";
    CHECK(vprof_cupti_load(&api, why, sizeof why) == 0);
    char want[PATH_MAX], got[PATH_MAX];
    CHECK(realpath(cupti, want) != NULL && realpath(api.path, got) != NULL);
    if (strcmp(want, got) != 0)
        fprintf(stderr, "  loaded %s, expected %s\n", got, want);
    CHECK(strcmp(want, got) == 0);
    CHECK(api.version != 0);
    return 1;
}

static void run(const char *name, const char *root, const char *cudart_rel, const char *cupti_rel)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        _exit(layout(root, cudart_rel, cupti_rel) ? 0 : 1);
    int st = 0;
    waitpid(pid, &st, 0);
    int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    printf("%s %s\n", ok ? "ok  " : "FAIL", name);
    ok ? passed++ : failed++;
}

int main(void)
{
    ssize_t n = readlink("/proc/self/exe", here, sizeof here - 1);
    if (n <= 0)
        return 2;
    here[n] = '\0';
    *strrchr(here, '/') = '\0';
    char tmp[] = "/tmp/vprof-pip-cupti-XXXXXX";
    if (mkdtemp(tmp) == NULL)
        return 2;
    char root[PATH_MAX];
    snprintf(root, sizeof root, "%s/cu12/lib/python3.12/site-packages", tmp);
    run("cuda12WheelsCuptiIsFoundBesideTheLocallyLoadedCudart", root,
        "nvidia/cuda_runtime/lib/libcudart.so.12", "nvidia/cuda_cupti/lib/libcupti.so.12");
    snprintf(root, sizeof root, "%s/cu13/lib/python3.12/site-packages", tmp);
    run("cuda13WheelsCuptiIsFoundInTheSharedCu13Folder", root,
        "nvidia/cu13/lib/libcudart.so.13", "nvidia/cu13/lib/libcupti.so.13");
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
#endif
