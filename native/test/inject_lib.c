/* The library the injection tests load. Its constructor proves it ran inside the target by
 * creating "<this library's path>.loaded.<pid>" (a per-library marker, so that many copies
 * injected into one process can be told apart). */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((constructor)) static void inject_test_loaded(void) {
    Dl_info info;
    if (!dladdr((void *)inject_test_loaded, &info) || !info.dli_fname) return;
    char marker[4200];
    snprintf(marker, sizeof marker, "%s.loaded.%d", info.dli_fname, (int)getpid());
    int fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
}
