/* Layout of the data page shared by the injector and the helper-thread stub (see arch_*.c).
 * The stub is hand-written assembly, so the offsets are plain numbers used by both sides. */
#ifndef VPROF_INJECT_STUB_LAYOUT_H
#define VPROF_INJECT_STUB_LAYOUT_H

#define SH_FN_DLOPEN     0   /* void *(*)(const char *, int) */
#define SH_FN_DLERROR    8   /* char *(*)(void), 0 when the target's libc has none */
#define SH_FN_SELF      16   /* pthread_t (*)(void) */
#define SH_FN_DETACH    24   /* int (*)(pthread_t) */
#define SH_MODE         32   /* dlopen mode */
#define SH_HANDLE       40   /* out: dlopen's result */
#define SH_TID          48   /* out: the helper thread's kernel tid */
#define SH_DONE         56   /* out: 1 once handle/error are written (the stub's last store) */
#define SH_THREAD       64   /* out: pthread_t from pthread_create */
#define SH_ERR         128   /* out: dlerror() text, NUL-terminated */
#define SH_ERR_LEN     512
#define SH_PATH        640   /* in: library path, NUL-terminated */
#define SH_PATH_MAX   3400   /* SH_PATH + SH_PATH_MAX stays inside a 4 KiB page */

#define STUB_STR_(x) #x
#define STUB_STR(x) STUB_STR_(x)

#endif
