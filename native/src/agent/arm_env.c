/*
 * arm_env.c: VPROF_ARM, the arming that `vprof run` hands to the agent through
 * the environment so that nothing is missed before the front end maps the
 * region.
 *
 * Syntax: comma-separated key=value pairs, in any order, each at most once:
 *
 *   mode=none|profiler|nvtx   capture range (default none: capture from now on)
 *   repeat=N                  ranges to record, 0 = unlimited (default 0)
 *   kinds=N                   VPROF_KIND_* bit mask, decimal or 0x hex (default 15)
 *   buffer=SIZE               CUPTI buffer bytes, optional k/m suffix (default 4m)
 *   frontend=PID              the front end that will drain the region
 *   capture=N                 the front end's capture id, echoed in RANGE records
 *   name=NAME                 NVTX range name (mode=nvtx); cannot contain ','
 *   domain=DOMAIN             NVTX domain (mode=nvtx), empty = any
 *
 * e.g. VPROF_ARM=mode=profiler,repeat=0,kinds=15,buffer=4194304,frontend=1234,capture=7
 */
#include "agent/agent.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_u32(const char *v, size_t len, int allow_suffix, uint32_t *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, v, len);
    buf[len] = '\0';
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(buf, &end, 0);
    if (errno != 0 || end == buf || buf[0] == '-')
        return -1;
    if (allow_suffix && (*end == 'k' || *end == 'K')) {
        x *= 1024u;
        end++;
    } else if (allow_suffix && (*end == 'm' || *end == 'M')) {
        x *= 1024u * 1024u;
        end++;
    }
    if (*end != '\0' || x > UINT32_MAX)
        return -1;
    *out = (uint32_t)x;
    return 0;
}

int vprof_parse_arm(const char *text, struct vprof_arming *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->kinds = VPROF_KINDS_DEFAULT;
    if (text == NULL || text[0] == '\0') {
        snprintf(why, why_size, "VPROF_ARM is empty");
        return -1;
    }
    const char *p = text;
    unsigned seen = 0;
    while (*p != '\0') {
        const char *comma = strchr(p, ',');
        const size_t item = comma != NULL ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', item);
        if (eq == NULL) {
            snprintf(why, why_size, "VPROF_ARM: '%.*s' is not key=value (in '%.120s')",
                     (int)item, p, text);
            return -1;
        }
        const size_t klen = (size_t)(eq - p);
        const char *v = eq + 1;
        const size_t vlen = item - klen - 1;
        static const char *const KEYS[] = { "mode", "repeat", "kinds", "buffer", "frontend",
                                            "capture", "name", "domain" };
        int key = -1;
        for (int i = 0; i < 8; i++)
            if (strlen(KEYS[i]) == klen && memcmp(p, KEYS[i], klen) == 0)
                key = i;
        if (key < 0 || (seen & (1u << key))) {
            snprintf(why, why_size, "VPROF_ARM: %s key '%.*s' (in '%.120s')",
                     key < 0 ? "unknown" : "repeated", (int)klen, p, text);
            return -1;
        }
        seen |= 1u << key;
        int bad = 0;
        uint32_t u = 0;
        switch (key) {
        case 0:
            if (vlen == 4 && memcmp(v, "none", 4) == 0)
                out->mode = VPROF_RANGE_NONE;
            else if (vlen == 8 && memcmp(v, "profiler", 8) == 0)
                out->mode = VPROF_RANGE_PROFILER;
            else if (vlen == 4 && memcmp(v, "nvtx", 4) == 0)
                out->mode = VPROF_RANGE_NVTX;
            else
                bad = 1;
            break;
        case 1: bad = parse_u32(v, vlen, 0, &out->repeat); break;
        case 2:
            bad = parse_u32(v, vlen, 0, &u) || u == 0 ||
                  (u & ~(uint32_t)VPROF_KINDS_ALL);
            out->kinds = u;
            break;
        case 3: bad = parse_u32(v, vlen, 1, &out->buffer_size); break;
        case 4: bad = parse_u32(v, vlen, 0, &u) || u == 0 || u > INT32_MAX; out->frontend_pid = (int32_t)u; break;
        case 5: bad = parse_u32(v, vlen, 0, &out->capture_id); break;
        case 6:
            bad = vlen == 0 || vlen >= VPROF_NAME_MAX;
            if (!bad)
                memcpy(out->name, v, vlen);
            break;
        case 7:
            bad = vlen >= VPROF_NAME_MAX;
            if (!bad)
                memcpy(out->domain, v, vlen);
            break;
        }
        if (bad) {
            snprintf(why, why_size, "VPROF_ARM: bad value for %s: '%.*s' (in '%.120s')",
                     KEYS[key], (int)vlen, v, text);
            return -1;
        }
        p += item;
        if (*p == ',')
            p++;
    }
    if (out->mode == VPROF_RANGE_NVTX && out->name[0] == '\0') {
        snprintf(why, why_size, "VPROF_ARM: mode=nvtx needs name=RANGE (in '%.120s')", text);
        return -1;
    }
    return 0;
}
