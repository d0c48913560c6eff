/* Shared declarations of vprof-inject: exit codes and the error reporter. */
#ifndef VPROF_INJECT_H
#define VPROF_INJECT_H

#include <stdarg.h>

/* Exit codes are part of the interface: the Java front end maps each to a remedy. */
enum inject_exit {
    EXIT_INJECTED          = 0,
    EXIT_OTHER             = 1,
    EXIT_USAGE             = 2,
    EXIT_NO_PROCESS        = 3,
    EXIT_PERMISSION        = 4,
    EXIT_YAMA              = 5,
    EXIT_SECCOMP           = 6,
    EXIT_ALREADY_TRACED    = 7,
    EXIT_ALREADY_LOADED    = 8,
    EXIT_DLOPEN_FAILED     = 9,
    EXIT_TIMEOUT           = 10, /* no thread was at a safe point in time (they were moving) */
    EXIT_STUCK             = 11, /* no thread was at a safe point, and none moved while we looked */
};

/* Prints "vprof-inject: <message>" on stderr. */
void inject_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Current CLOCK_MONOTONIC time in milliseconds. */
long long inject_now_ms(void);

/* Sleeps for the given number of microseconds (restarting on EINTR). */
void inject_sleep_us(long us);

#endif
