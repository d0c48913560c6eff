/*
 * cuptisim_config.c: the switches of the CUPTI test double, read from the
 * environment in this one place (docs/simulator.md lists them with the field
 * reports behind each default).
 *
 * Read when the library loads and again by simcuda_init() (a forked worker's
 * parent may have set them after the load) and by simcuda_config_reload().
 * A value that does not parse is reported on stderr and the default is used.
 */
#include "sim/cuptisim_internal.h"
#include "sim/simgpu_driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sim_config sim_cfg;

static void complain(const char *name, const char *value, const char *expected) {
    fprintf(stderr, "cuptisim: %s=%s is not %s; using the default\n", name, value, expected);
}

/* One of `choices` ("a|b|c"), as its index, or `dflt`. */
static int env_choice(const char *name, const char *choices, int dflt) {
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') return dflt;
    int index = 0;
    size_t vlen = strlen(v);
    for (const char *p = choices; *p; index++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == vlen && strncmp(p, v, len) == 0) return index;
        if (bar == NULL) break;
        p = bar + 1;
    }
    char expected[256];
    snprintf(expected, sizeof expected, "one of %s", choices);
    complain(name, v, expected);
    return dflt;
}

static uint64_t env_u64(const char *name, uint64_t dflt, uint64_t max) {
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') return dflt;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno != 0 || *end != '\0' || *v == '-' || x > max) {
        char expected[96];
        snprintf(expected, sizeof expected, "a whole number from 0 to %llu", (unsigned long long)max);
        complain(name, v, expected);
        return dflt;
    }
    return (uint64_t)x;
}

static double env_fraction(const char *name, double dflt) {
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') return dflt;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno != 0 || *end != '\0' || !(x >= 0.0 && x <= 1.0)) {
        complain(name, v, "a fraction from 0 to 1 (0.001 = one record in a thousand)");
        return dflt;
    }
    return x;
}

/* A comma-separated subset of the invalid-timestamp shapes. */
static unsigned env_invalid_kinds(void) {
    static const char *const NAMES[SIM_INVALID_KINDS] = { "end-before-start", "start-zero", "end-zero", "both-zero" };
    const char *v = getenv("VPROF_SIM_INVALID_TS_KINDS");
    if (v == NULL || *v == '\0') return (1u << SIM_INVALID_KINDS) - 1u;
    unsigned mask = 0;
    const char *p = v;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int found = 0;
        for (int i = 0; i < SIM_INVALID_KINDS; i++)
            if (strlen(NAMES[i]) == len && strncmp(NAMES[i], p, len) == 0) { mask |= 1u << i; found = 1; }
        if (!found) {
            complain("VPROF_SIM_INVALID_TS_KINDS", v, "a comma-separated list of end-before-start, start-zero, end-zero, both-zero");
            return (1u << SIM_INVALID_KINDS) - 1u;
        }
        if (comma == NULL) break;
        p = comma + 1;
    }
    return mask;
}

void sim_config_read(void) {
    struct sim_config c;
    memset(&c, 0, sizeof c);
    c.version = (uint32_t)env_u64("VPROF_SIM_CUPTI_VERSION", CUPTI_API_VERSION, 999999);
    c.completion = env_choice("VPROF_SIM_COMPLETION", "async|at-launch", SIM_COMPLETION_ASYNC);
    c.disabled_in_flight = env_choice("VPROF_SIM_DISABLED_IN_FLIGHT", "lost|zero|kept", SIM_INFLIGHT_LOST);
    c.graph_nodes = env_choice("VPROF_SIM_GRAPH_NODES", "after-warmup-lost|delivered|lost", SIM_GRAPH_AFTER_WARMUP_LOST);
    c.invalid_rate = env_fraction("VPROF_SIM_INVALID_TS_RATE", 0.0);
    c.invalid_kinds = env_invalid_kinds();
    c.seed = env_u64("VPROF_SIM_SEED", 1, UINT64_MAX);
    /* auto: what the version does (crash below API 27, hang on 13.0 GA) */
    c.crash_on_null_buffer = env_choice("VPROF_SIM_CRASH_ON_NULL_BUFFER", "auto|0|1", SIM_AUTO);
    c.disable_deadlock = env_choice("VPROF_SIM_DISABLE_DEADLOCK", "auto|0|1", SIM_AUTO);
    c.deadlock_ms = env_u64("VPROF_SIM_DEADLOCK_MS", 2000, 600000);
    c.post_capture_cost_ns = env_u64("VPROF_SIM_POST_CAPTURE_COST_NS", 10, 1000000);
    c.name_reuse_every = env_u64("VPROF_SIM_NAME_REUSE_EVERY", 0, UINT32_MAX);
    c.device_count = (uint32_t)env_u64("VPROF_SIM_DEVICE_COUNT", 1, SIM_MAX_DEVICES);
    if (c.device_count == 0) c.device_count = 1;
    c.device_buffer_leak = env_choice("VPROF_SIM_DEVICE_BUFFER_LEAK", "graph|none", SIM_LEAK_GRAPH);
    sim_cfg = c;
}

void simcuda_config_reload(void) { sim_config_read(); }

__attribute__((constructor)) static void read_at_load(void) { sim_config_read(); }

/* ---- derived rules ---- */

int sim_version_crashes_on_null_buffer(void) {
    if (sim_cfg.crash_on_null_buffer != SIM_AUTO) return sim_cfg.crash_on_null_buffer == SIM_ON;
    return sim_cfg.version < 27; /* before 12.9 (pytorch/kineto#1275, #1534) */
}

int sim_version_deadlocks_on_disable(void) {
    if (sim_cfg.disable_deadlock != SIM_AUTO) return sim_cfg.disable_deadlock == SIM_ON;
    return sim_cfg.version == 130000; /* 13.0 GA; fixed in 13.0 Update 1 */
}

int sim_version_per_thread_buffers_default(void) {
    return sim_cfg.version >= 130000; /* "By default" since CUDA 13 (NVIDIA/Fuser#5402) */
}
