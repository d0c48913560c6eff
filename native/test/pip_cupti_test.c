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
#include <unistd.h>

#include "test.h"

static char here[PATH_MAX];
static char tmp[] = "/tmp/vprof-pip-cupti-XXXXXX";

static void copy(const char *from, const char *to)
{
    char cmd[3 * PATH_MAX + 64];
    const int len = snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'", to, from, to);
    ASSERT_LT(len, (int)sizeof cmd);
    ASSERT_EQ(system(cmd), 0);
}

/* Lays out cudart and cupti under a site-packages of tmp/venv, loads cudart RTLD_LOCAL, and
   checks what the agent opens. */
static void layout(const char *venv, const char *cudart_rel, const char *cupti_rel)
{
    char root[PATH_MAX], cudart[2 * PATH_MAX], cupti[2 * PATH_MAX], src[PATH_MAX + 64];
    snprintf(root, sizeof root, "%s/%s/lib/python3.12/site-packages", tmp, venv);
    snprintf(cudart, sizeof cudart, "%s/%s", root, cudart_rel);
    snprintf(cupti, sizeof cupti, "%s/%s", root, cupti_rel);
    snprintf(src, sizeof src, "%s/libfake-cudart.so", here);
    copy(src, cudart);
    snprintf(src, sizeof src, "%s/../libvprof-cuptisim.so", here);
    copy(src, cupti);
    unsetenv("VPROF_CUPTI_LIB");
    unsetenv("CUDA_HOME");
    ASSERT(dlopen(cudart, RTLD_NOW | RTLD_LOCAL) != NULL);
    ASSERT(dlsym(RTLD_DEFAULT, "cudaGetDevice") == NULL); /* really not in the global scope */
    struct vprof_cupti api;
    memset(&api, 0, sizeof api);
    char why[512] = "";
    ASSERT_EQ(vprof_cupti_load(&api, why, sizeof why), 0);
    char want[PATH_MAX], got[PATH_MAX];
    ASSERT(realpath(cupti, want) != NULL);
    ASSERT(realpath(api.path, got) != NULL);
    ASSERT_STREQ(got, want);
    ASSERT_NE(api.version, 0);
}

TEST(cuda12WheelsCuptiIsFoundBesideTheLocallyLoadedCudart)
{
    layout("cu12", "nvidia/cuda_runtime/lib/libcudart.so.12", "nvidia/cuda_cupti/lib/libcupti.so.12");
}

TEST(cuda13WheelsCuptiIsFoundInTheSharedCu13Folder)
{
    layout("cu13", "nvidia/cu13/lib/libcudart.so.13", "nvidia/cu13/lib/libcupti.so.13");
}

int main(int argc, char **argv)
{
    ssize_t n = readlink("/proc/self/exe", here, sizeof here - 1);
    if (n <= 0)
        return 2;
    here[n] = '\0';
    *strrchr(here, '/') = '\0';
    if (mkdtemp(tmp) == NULL)
        return 2;
    /* Each layout in a forked child, so that what one loads cannot answer for the next. */
    static const struct test_case cases[] = {
        FORKED(cuda12WheelsCuptiIsFoundBesideTheLocallyLoadedCudart),
        FORKED(cuda13WheelsCuptiIsFoundInTheSharedCu13Folder),
    };
    const int status = test_main(argc, argv, cases, TEST_COUNT(cases));
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return status;
}
#endif
