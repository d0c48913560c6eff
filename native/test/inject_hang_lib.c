/* A library whose constructor never returns: the thread that dlopens it holds the loader lock
 * forever. The test touches "<dir>/ready" (dir from INJECT_TEST_DIR) once it is there. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((constructor)) static void inject_hang_forever(void) {
    const char *dir = getenv("INJECT_TEST_DIR");
    char ready[4200];
    snprintf(ready, sizeof ready, "%s/ready", dir ? dir : "/tmp");
    int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
    for (;;) {
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
}
