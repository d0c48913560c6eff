/* cupti_api.c: finding, loading and describing libcupti (see cupti_api.h). */
#include "agent/cupti_api.h"

#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const SONAMES[] = { "libcupti.so.13", "libcupti.so.12", "libcupti.so" };
#define N_SONAMES (sizeof SONAMES / sizeof SONAMES[0])

static void *open_in_dir(const char *dir)
{
    char path[PATH_MAX];
    for (size_t i = 0; i < N_SONAMES; i++) {
        if (snprintf(path, sizeof path, "%s/%s", dir, SONAMES[i]) >= (int)sizeof path)
            continue;
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h != NULL)
            return h;
    }
    return NULL;
}

/* Every loaded object, not only the global scope: Python's ctypes and many extension modules
 * load libcudart RTLD_LOCAL, where dlsym(RTLD_DEFAULT) would not see it. */
static int find_cudart(struct dl_phdr_info *info, size_t size, void *out)
{
    (void)size;
    const char *base = info->dlpi_name != NULL ? strrchr(info->dlpi_name, '/') : NULL;
    if (base == NULL || strncmp(base + 1, "libcudart.so", 12) != 0)
        return 0;
    return snprintf(out, PATH_MAX, "%s", info->dlpi_name) < PATH_MAX;
}

/* pip wheels: CUDA 12 keeps site-packages/nvidia/cuda_runtime/lib/libcudart.so.12 next to
 * nvidia/cuda_cupti/lib/libcupti.so.12; CUDA 13 puts both in site-packages/nvidia/cu13/lib. */
static void *open_next_to_cudart(void)
{
    char dir[PATH_MAX];
    if (dl_iterate_phdr(find_cudart, dir) == 0)
        return NULL;
    char *slash = strrchr(dir, '/');
    if (slash == NULL)
        return NULL;
    *slash = '\0';                          /* .../nvidia/cuda_runtime/lib */
    void *h = open_in_dir(dir);             /* CUDA 13 wheels keep them together */
    if (h != NULL)
        return h;
    char cupti_dir[PATH_MAX];
    if (snprintf(cupti_dir, sizeof cupti_dir, "%s/../../cuda_cupti/lib", dir) >= (int)sizeof cupti_dir)
        return NULL;
    return open_in_dir(cupti_dir);
}

static void *find_library(char *why, size_t why_size)
{
    const char *explicit_path = getenv("VPROF_CUPTI_LIB");
    if (explicit_path != NULL && explicit_path[0] != '\0') {
        void *h = dlopen(explicit_path, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL)
            snprintf(why, why_size, "VPROF_CUPTI_LIB=%s could not be loaded: %s", explicit_path,
                     dlerror());
        return h; /* the person chose this library: no silent fallback */
    }
    for (size_t i = 0; i < N_SONAMES; i++) {
        void *h = dlopen(SONAMES[i], RTLD_NOW | RTLD_NOLOAD);
        if (h != NULL)
            return h;
    }
    const char *cuda_home = getenv("CUDA_HOME");
    if (cuda_home != NULL && cuda_home[0] != '\0') {
        static const char *const SUBDIRS[] = { "extras/CUPTI/lib64", "lib64", "lib" };
        for (size_t i = 0; i < sizeof SUBDIRS / sizeof SUBDIRS[0]; i++) {
            char dir[PATH_MAX];
            if (snprintf(dir, sizeof dir, "%s/%s", cuda_home, SUBDIRS[i]) >= (int)sizeof dir)
                continue;
            void *h = open_in_dir(dir);
            if (h != NULL)
                return h;
        }
    }
    void *h = open_next_to_cudart();
    if (h != NULL)
        return h;
    for (size_t i = 0; i < N_SONAMES; i++) {
        h = dlopen(SONAMES[i], RTLD_NOW | RTLD_LOCAL);
        if (h != NULL)
            return h;
    }
    snprintf(why, why_size,
             "libcupti not found (tried VPROF_CUPTI_LIB, the loaded libraries, $CUDA_HOME, "
             "the pip nvidia/cuda_cupti wheel, the default search); set VPROF_CUPTI_LIB to its path");
    return NULL;
}

#define RESOLVE(api, name)                                                              \
    do {                                                                                \
        *(void **)&(api)->name = dlsym((api)->handle, "cupti" #name);                   \
        if ((api)->name == NULL) {                                                      \
            snprintf(why, why_size, "%s lacks cupti" #name "; it is not a usable libcupti", \
                     (api)->path);                                                      \
            return -1;                                                                  \
        }                                                                               \
    } while (0)

#define RESOLVE_OPTIONAL(api, name) (*(void **)&(api)->name = dlsym((api)->handle, "cupti" #name))

static int resolve_all(struct vprof_cupti *api, char *why, size_t why_size)
{
    RESOLVE(api, GetVersion);
    RESOLVE(api, GetResultString);
    RESOLVE(api, Subscribe);
    RESOLVE(api, Unsubscribe);
    RESOLVE(api, EnableCallback);
    RESOLVE(api, EnableDomain);
    RESOLVE(api, ActivityRegisterCallbacks);
    RESOLVE(api, ActivityEnable);
    RESOLVE(api, ActivityDisable);
    RESOLVE(api, ActivityFlushAll);
    RESOLVE(api, ActivityGetNextRecord);
    RESOLVE(api, ActivityGetNumDroppedRecords);
    RESOLVE(api, GetTimestamp);
    RESOLVE(api, SetThreadIdType);
    RESOLVE(api, Finalize);
    RESOLVE_OPTIONAL(api, ActivitySetAttribute);
    return 0;
}

int vprof_cupti_load(struct vprof_cupti *api, char *why, size_t why_size)
{
    if (api->handle != NULL)
        return 0;
    void *h = find_library(why, why_size);
    if (h == NULL)
        return -1;
    memset(api, 0, sizeof *api);
    api->handle = h;
    void *probe = dlsym(h, "cuptiGetVersion");
    Dl_info info;
    if (probe != NULL && dladdr(probe, &info) != 0 && info.dli_fname != NULL)
        snprintf(api->path, sizeof api->path, "%s", info.dli_fname);
    else
        snprintf(api->path, sizeof api->path, "libcupti");
    if (resolve_all(api, why, why_size) != 0) {
        api->handle = NULL; /* stays loaded: unloading a library we may have half-used is riskier */
        return -1;
    }
    uint32_t version = 0;
    if (api->GetVersion(&version) == CUPTI_SUCCESS)
        api->version = version;
    return 0;
}

static const char *meaning(CUptiResult r)
{
    switch (r) {
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        return "another profiler, e.g. Nsight Systems or the PyTorch profiler, already holds "
               "CUPTI in this process";
    case CUPTI_ERROR_UNKNOWN:
        return "CUPTI could not start; usually no NVIDIA driver or GPU is usable in this process";
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        return "GPU profiling is restricted to admin users on this host "
               "(NVreg_RestrictProfilingToAdminUsers=1)";
    case CUPTI_ERROR_NOT_INITIALIZED:
        return "no CUDA device or driver is available";
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE:
        return "this libcupti does not match the installed driver; use the CUPTI of the CUDA "
               "version the application runs with (VPROF_CUPTI_LIB)";
    case CUPTI_ERROR_NOT_SUPPORTED:
        return "not supported on this device, driver or platform";
    case CUPTI_ERROR_OUT_OF_MEMORY:
        return "CUPTI ran out of memory";
    default:
        return "see the CUPTI documentation for this error";
    }
}

void vprof_cupti_describe(const struct vprof_cupti *api, const char *call, CUptiResult result,
                          char *out, size_t out_size)
{
    const char *name = NULL;
    if (api->GetResultString == NULL || api->GetResultString(result, &name) != CUPTI_SUCCESS ||
        name == NULL)
        name = "an unnamed CUPTI error";
    snprintf(out, out_size, "%s failed: %s (%s)", call, name, meaning(result));
}
