/*
 * simgpu_slow.h: --slow SUBSTRING:FACTOR, kernels made slower by name.
 *
 * A rule matches a kernel whose name, exactly as it is launched (the mangled
 * name for C++ kernels, as CUPTI reports it; a replayed trace's names as the
 * trace has them), contains SUBSTRING (case-sensitive). Every matching rule's
 * factor multiplies the kernel's duration, so a regression of a known size can
 * be planted in one run and compared with another. Header-only so that every
 * program built on the model (vprof-simgpu, libvprof-simgpu.so) shares it.
 */
#ifndef VPROF_SIMGPU_SLOW_H
#define VPROF_SIMGPU_SLOW_H

#include <stdint.h>
#include <string.h>

#define SIMGPU_MAX_SLOW 16

struct simgpu_slow {
    char substring[128];
    double factor; /* > 0 */
};

static inline uint64_t simgpu_slow_duration(const struct simgpu_slow *rules, int n, const char *name, uint64_t ns) {
    if (n <= 0 || name == NULL) return ns;
    double d = (double)ns;
    int hit = 0;
    for (int i = 0; i < n; i++)
        if (strstr(name, rules[i].substring) != NULL) { d *= rules[i].factor; hit = 1; }
    if (!hit) return ns;
    return d < 1.0 ? 1 : d > 1e18 ? (uint64_t)1e18 : (uint64_t)(d + 0.5);
}

#endif
